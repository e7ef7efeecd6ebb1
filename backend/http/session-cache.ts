/**
 * The token check's memory (issue 11, docs/decisions/030). Two layers keep the check to at most one query
 * per page request, and usually none:
 *
 * - `AuthScope`: one page request of the portal. The portal calls the backend in-process several times per
 *   page (the shell's loader, the page's loaders); the first call resolves the token, the others reuse it.
 * - `SessionCache`: this process. A token's row is kept for `SESSION_CACHE_TTL_MS` after it was read.
 *
 * Revocation: every write that ends or changes a session in this process (logout, password change or
 * reset, log out everywhere, the second factor, a profile or role change) calls `forgetToken` or
 * `forgetUser` after it has committed, which drops the entries and bumps `generation`. A read that started
 * before a bump is not stored, and a scope's answer from before a bump is not reused, so in the revoking
 * process a revoked token is refused by the very next call. Another process (WORKERS=N, or a second portal
 * on the same PostgreSQL) keeps its entry until its TTL ends: that is the bound, `SESSION_CACHE_TTL_MS`.
 */
import type { users } from "../db/tables";

/** How long another process may go on accepting a token revoked elsewhere (docs/decisions/030). */
export const SESSION_CACHE_TTL_MS = 5_000;
/** At most this many tokens are kept; the oldest go first. */
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

type UserRow = typeof users.$inferSelect;
/** The caller as the token check reads it: the columns handlers use, never the password hash or the profile's texts. */
export type AuthUser = Pick<UserRow, "id" | "userName" | "realName" | "email" | "mobile" | "userType" | "companyName" | "contactName" | "role" | "createdAt" | "lastLoginAt">;

/** What one token check reads: the token's state and its user. */
export type TokenRow = { user: AuthUser; expiresAt: Date; revokedAt: Date | null; mfaVerifiedAt: Date | null };

type Entry = { row: TokenRow; readAt: number };

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every forget: reads and scope answers from before it are not trusted. */
  generation = 0;

  constructor(
    readonly ttlMs: number = SESSION_CACHE_TTL_MS,
    private readonly clock: () => number = () => performance.now(),
    private readonly maxEntries: number = SESSION_CACHE_MAX_ENTRIES,
  ) {}

  /** The row of a token read less than `ttlMs` ago, if any. */
  get(tokenHash: string): TokenRow | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (this.clock() - entry.readAt >= this.ttlMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.row;
  }

  /** Keeps a row read when `generation` was `readSince`; a row read across a forget is dropped. */
  set(tokenHash: string, row: TokenRow, readSince: number): void {
    if (this.ttlMs <= 0 || readSince !== this.generation) return;
    this.entries.delete(tokenHash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(tokenHash, { row, readAt: this.clock() });
  }

  /** One token ended or changed (logout, the second factor passed). */
  forgetToken(tokenHash: string): void {
    this.generation += 1;
    this.entries.delete(tokenHash);
  }

  /** Every token of a user ended or changed (password, log out everywhere, profile, role). */
  forgetUser(userId: number): void {
    this.generation += 1;
    for (const [hash, entry] of this.entries) if (entry.row.user.id === userId) this.entries.delete(hash);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * One page request's token checks (the portal makes one per incoming request and hands it to every
 * in-process call of that request: app/lib/transport.server.ts). Answers are reused only while the
 * process's cache generation is unchanged.
 */
export class AuthScope {
  private readonly answers = new Map<string, { generation: number; row: Promise<TokenRow | undefined> }>();

  reuse(tokenHash: string, generation: number): Promise<TokenRow | undefined> | undefined {
    const found = this.answers.get(tokenHash);
    return found && found.generation === generation ? found.row : undefined;
  }

  keep(tokenHash: string, generation: number, row: Promise<TokenRow | undefined>): void {
    this.answers.set(tokenHash, { generation, row });
  }
}
