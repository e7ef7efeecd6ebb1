/**
 * The token check's memory (issue 11, docs/decisions/030): at most one query per page request, and usually
 * none. A token's row is kept for `SESSION_CACHE_TTL_MS` after it was read, and checks that start while a
 * read of the same token is under way (the shell's and the page's loaders of one page, in parallel) wait for
 * that read instead of making their own.
 *
 * Revocation: every write that ends or changes a session in this process (logout, password change or
 * reset, log out everywhere, the second factor, a profile or role change) calls `forgetToken` or
 * `forgetUser` after it has committed, which drops the entries and bumps `generation`. A read that started
 * before a bump is neither stored nor shared, so in the revoking
 * process a revoked token is refused by the very next call. Another process (WORKERS=N, or a second portal
 * on the same PostgreSQL) keeps its entry until its TTL ends: that is the bound, `SESSION_CACHE_TTL_MS`.
 */
import type { users } from "#backend/db/tables.ts";
import type { TeamRole } from "#contract/team-roles.ts";

/** How long another process may go on accepting a token revoked elsewhere (docs/decisions/030). */
export const SESSION_CACHE_TTL_MS = 5_000;
/** At most this many tokens are kept; the oldest go first. */
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

type UserRow = typeof users.$inferSelect;
/** The caller as the token check reads it: the columns handlers use, never the password hash or the profile's texts. */
export type AuthUser = Pick<
  UserRow,
  | "id"
  | "userName"
  | "realName"
  | "email"
  | "mobile"
  | "userType"
  | "companyName"
  | "contactName"
  | "role"
  | "createdAt"
  | "lastLoginAt"
>;

/**
 * What one token check reads: the token's state, the account it acts for (`user`), the login that holds it
 * and the login's role in that account (issue 33, docs/decisions/075).
 */
export type TokenRow = {
  user: AuthUser;
  login: AuthUser;
  teamRole: TeamRole | null;
  expiresAt: Date;
  revokedAt: Date | null;
  mfaVerifiedAt: Date | null;
};

type Entry = { row: TokenRow; readAt: number };

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly reading = new Map<string, { generation: number; row: Promise<TokenRow | undefined> }>();
  /** Bumped by every forget: reads from before it are not trusted. */
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

  /** The read of a token under way, started when the generation was the current one. */
  pending(tokenHash: string): Promise<TokenRow | undefined> | undefined {
    const found = this.reading.get(tokenHash);
    return found && found.generation === this.generation ? found.row : undefined;
  }

  /** Lets the checks that start meanwhile wait for this read; it is let go once settled. */
  share(tokenHash: string, readSince: number, row: Promise<TokenRow | undefined>): void {
    const entry = { generation: readSince, row };
    this.reading.set(tokenHash, entry);
    const done = () => {
      if (this.reading.get(tokenHash) === entry) this.reading.delete(tokenHash);
    };
    row.then(done, done);
  }

  /** One token ended or changed (logout, the second factor passed). */
  forgetToken(tokenHash: string): void {
    this.generation += 1;
    this.entries.delete(tokenHash);
  }

  /**
   * Every token of a user ended or changed (password, log out everywhere, profile, role, a member's role or
   * removal): the tokens it holds and the tokens acting for it as an account.
   */
  forgetUser(userId: number): void {
    this.generation += 1;
    for (const [hash, entry] of this.entries)
      if (entry.row.user.id === userId || entry.row.login.id === userId) this.entries.delete(hash);
  }

  get size(): number {
    return this.entries.size;
  }
}
