import { and, eq, gt, like, lte, sql } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { rateLimits } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { MailPermit } from "#backend/mail.ts";

/** What a mail caused by a caller is for: each has its own budget per recipient and caller (docs/decisions/054). */
export type MailPurpose =
  "activation" | "resetCode" | "desktopLink" | "supportTicket" | "newsletter" | "eventSignup" | "teamInvitation";
import { addressKey, type LimitName, type LimitRule, type RateLimitConfig } from "./rate-limit-rules.ts";

/**
 * Rate limits and locks counted in the database (docs/decisions/021), so that every process of one
 * deployment counts together: one row per key in `rate_limits`, and each hit is one atomic
 * INSERT … ON CONFLICT DO UPDATE … RETURNING, so concurrent hits from any number of processes are all
 * counted and each sees its own count. The window is fixed, from the key's first hit (rules in
 * rate-limit-rules.ts). Times are the service's clock (`now`), so tests can move it.
 */

export type HitResult = {
  /** Hits in the current window, this one included. */
  hits: number;
  /** True when the rule refuses: a rate rule over its limit, or a lock rule at its limit. */
  over: boolean;
  /** Whole seconds until the window or lock ends (at least 1). */
  retryAfterSeconds: number;
};

const PURGE_EVERY_MS = 60_000;

function isOver(rule: LimitRule, hits: number): boolean {
  return rule.blockMs === undefined ? hits > rule.limit : hits >= rule.limit;
}

function secondsUntil(resetAt: Date, now: Date): number {
  return Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
}

/**
 * One hit on `key` under `rule` (or `count` at once: a door's rates, written a second's worth at a time):
 * counted in one statement, whatever other processes do at the same time.
 */
export async function hitKey(db: Db | Tx, key: string, rule: LimitRule, now: Date, count = 1): Promise<HitResult> {
  const windowEnd = new Date(now.getTime() + rule.windowMs);
  const blockEnd = new Date(now.getTime() + (rule.blockMs ?? 0));
  // A lock rule whose limit is one hit locks at the first.
  const firstEnd =
    rule.blockMs !== undefined && rule.limit <= 1
      ? new Date(Math.max(windowEnd.getTime(), blockEnd.getTime()))
      : windowEnd;
  const nowText = now.toISOString();
  const [row] = await db
    .insert(rateLimits)
    .values({ key, hits: count, resetAt: firstEnd })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        hits: sql`CASE WHEN ${rateLimits.resetAt} <= ${nowText}::timestamptz THEN ${count}::int ELSE ${rateLimits.hits} + ${count}::int END`,
        resetAt:
          rule.blockMs === undefined
            ? sql`CASE WHEN ${rateLimits.resetAt} <= ${nowText}::timestamptz THEN ${firstEnd.toISOString()}::timestamptz ELSE ${rateLimits.resetAt} END`
            : sql`CASE WHEN ${rateLimits.resetAt} <= ${nowText}::timestamptz THEN ${firstEnd.toISOString()}::timestamptz
                     WHEN ${rateLimits.hits} + ${count}::int >= ${rule.limit} THEN GREATEST(${rateLimits.resetAt}, ${blockEnd.toISOString()}::timestamptz)
                     ELSE ${rateLimits.resetAt} END`,
      },
    })
    .returning({ hits: rateLimits.hits, resetAt: rateLimits.resetAt });
  return { hits: row.hits, over: isOver(rule, row.hits), retryAfterSeconds: secondsUntil(row.resetAt, now) };
}

/** The live count of `key` without counting a hit (0 when its window has ended). */
export async function peekKey(db: Db, key: string, rule: LimitRule, now: Date): Promise<HitResult> {
  const [row] = await db
    .select({ hits: rateLimits.hits, resetAt: rateLimits.resetAt })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, now)))
    .limit(1);
  if (!row) return { hits: 0, over: false, retryAfterSeconds: 1 };
  return { hits: row.hits, over: isOver(rule, row.hits), retryAfterSeconds: secondsUntil(row.resetAt, now) };
}

/** Forgets the counts of every key that starts with `prefix` (a password reset forgets an account's locks). */
export async function clearKeys(db: Db, prefix: string): Promise<void> {
  const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
  await db.delete(rateLimits).where(like(rateLimits.key, `${escaped}%`));
}

/** Deletes the rows whose window or lock has ended (they count for nothing). */
export async function purgeEnded(db: Db | Tx, now: Date): Promise<number> {
  const gone = await db.delete(rateLimits).where(lte(rateLimits.resetAt, now)).returning({ key: rateLimits.key });
  return gone.length;
}

/** The refusal of a limit: HTTP 429 with Retry-After, the §8-style message and the wait in `data`. */
export function tooManyRequests(retryAfterSeconds: number, messageKey: string = Msg.RATE_LIMITED): ApiError {
  return new ApiError(messageKey, { retryAfterSeconds }, undefined, { status: 429, retryAfterSeconds });
}

/**
 * The limits of one service: the named rules of its configuration, applied to a subject (a client address
 * for the address-scoped rules, an account or mail address for the others). A rule switched off
 * (RATE_LIMITS=off) or an exempt address (RATE_LIMIT_EXEMPT) counts nothing and never refuses.
 */
export class Limits {
  private lastPurge = 0;

  constructor(
    private readonly db: Db,
    readonly config: RateLimitConfig,
    private readonly now: () => Date,
  ) {}

  private applies(name: LimitName, subject: string): boolean {
    const rule = this.config.rules[name];
    if (!this.config.enabled && !rule.alwaysOn) return false;
    return !(rule.scope === "address" && this.config.exempt.has(subject));
  }

  private key(name: LimitName, subject: string): string {
    return `${name}:${subject}`;
  }

  /** The subject of an address-scoped rule for a client address (IPv6 by its /64). */
  subjectOf(clientAddress: string | null): string {
    return addressKey(clientAddress);
  }

  /** Counts one hit; `over` says whether the rule refuses it. */
  async hit(name: LimitName, subject: string): Promise<HitResult> {
    if (!this.applies(name, subject)) return { hits: 0, over: false, retryAfterSeconds: 1 };
    const now = this.now();
    const result = await hitKey(this.db, this.key(name, subject), this.config.rules[name], now);
    if (now.getTime() - this.lastPurge >= PURGE_EVERY_MS) {
      this.lastPurge = now.getTime();
      await purgeEnded(this.db, now);
    }
    return result;
  }

  /** Counts one hit and throws the 429 refusal (with `messageKey`) when the rule refuses it. */
  async consume(name: LimitName, subject: string, messageKey?: string): Promise<void> {
    const result = await this.hit(name, subject);
    if (result.over) throw tooManyRequests(result.retryAfterSeconds, messageKey);
  }

  /** The subject's live count under a rule, without counting. */
  async peek(name: LimitName, subject: string): Promise<HitResult> {
    if (!this.applies(name, subject)) return { hits: 0, over: false, retryAfterSeconds: 1 };
    return peekKey(this.db, this.key(name, subject), this.config.rules[name], this.now());
  }

  /**
   * The permit to send one mail of `purpose` to `to` on behalf of the caller at `clientAddress` (docs/decisions/054):
   * counted per (purpose, recipient, caller's address) ("mail.address") and per caller's address ("mail.ip"); a
   * 429 refusal when either is spent. A stranger's requests (desktop links, reset codes) never use up what the
   * recipient may ask for from an address of their own, nor a mail of one purpose the budget of another.
   */
  async mailPermit(purpose: MailPurpose, to: string, clientAddress: string | null): Promise<MailPermit> {
    const caller = this.subjectOf(clientAddress);
    await this.consume("mail.address", `${purpose}:${to.trim().toLowerCase()}:${caller}`);
    await this.consume("mail.ip", caller);
    return { to } as MailPermit;
  }

  /**
   * The right to send a mail that no anonymous caller caused and that its recipient asked for: an operator's
   * reply to a support ticket, a newsletter issue to a confirmed subscriber (docs/decisions/041). The per-address
   * mail limits guard against strangers making the product mail someone; these mails are not such.
   */
  requestedMailPermit(to: string): MailPermit {
    return { to } as MailPermit;
  }

  /** Forgets the subject's count under a rule (a successful login forgets the failures before it). */
  async forget(name: LimitName, subject: string): Promise<void> {
    await this.db.delete(rateLimits).where(eq(rateLimits.key, this.key(name, subject)));
  }

  /** Forgets the counts of a rule for every subject that starts with `subjectPrefix`. */
  async forgetAll(name: LimitName, subjectPrefix: string): Promise<void> {
    await clearKeys(this.db, this.key(name, subjectPrefix));
  }
}
