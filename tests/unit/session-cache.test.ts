import { describe, expect, it } from "vitest";
import { SessionCache, SESSION_CACHE_TTL_MS, type TokenRow } from "#backend/http/session-cache.ts";

const user = (userId: number): TokenRow["user"] => ({
  id: userId,
  userName: `u${userId}`,
  realName: "R",
  email: "e@example.com",
  mobile: null,
  userType: 1,
  companyName: null,
  contactName: null,
  role: "user",
  createdAt: new Date(0),
  lastLoginAt: null,
});

const row = (userId: number, revokedAt: Date | null = null, loginId: number = userId): TokenRow => ({
  user: user(userId),
  login: user(loginId),
  teamRole: loginId === userId ? "owner" : "developer",
  expiresAt: new Date(Date.now() + 60_000),
  revokedAt,
  mfaVerifiedAt: null,
});

// docs/decisions/030: another process goes on accepting a token revoked elsewhere for at most the TTL.
describe("the token check's cache", () => {
  it("keeps a row for less than its TTL, measured from the read", () => {
    let now = 1_000;
    const cache = new SessionCache(SESSION_CACHE_TTL_MS, () => now);
    cache.set("a", row(1), cache.generation);
    now += SESSION_CACHE_TTL_MS - 1;
    expect(cache.get("a")?.user.id).toBe(1);
    now += 1;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("forgets a token, or every token of a user, at once", () => {
    const cache = new SessionCache(SESSION_CACHE_TTL_MS, () => 0);
    cache.set("a", row(1), cache.generation);
    cache.set("b", row(1), cache.generation);
    cache.set("c", row(2), cache.generation);
    cache.forgetToken("a");
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("b")).toBeDefined();
    cache.forgetUser(1);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("c")?.user.id).toBe(2);
  });

  it("does not keep a row read before a revocation that happened while it was read", () => {
    const cache = new SessionCache(SESSION_CACHE_TTL_MS, () => 0);
    const readSince = cache.generation;
    cache.forgetUser(1); // a password change committed while the read was under way
    cache.set("a", row(1), readSince);
    expect(cache.get("a")).toBeUndefined();
  });

  it("forgetting a user drops the tokens it holds and the tokens acting for it (issue 33)", () => {
    const cache = new SessionCache(SESSION_CACHE_TTL_MS, () => 0);
    cache.set("own", row(7), 0);
    cache.set("member", row(1, null, 7), 0);
    cache.set("other", row(2), 0);
    cache.forgetUser(7);
    expect([cache.get("own"), cache.get("member"), cache.get("other")?.user.id]).toEqual([undefined, undefined, 2]);
    cache.set("member", row(1, null, 7), cache.generation);
    cache.forgetUser(1);
    expect(cache.get("member")).toBeUndefined();
  });

  it("keeps nothing with a TTL of 0, and at most its limit of tokens (the oldest go first)", () => {
    const off = new SessionCache(0, () => 0);
    off.set("a", row(1), off.generation);
    expect(off.get("a")).toBeUndefined();
    const small = new SessionCache(SESSION_CACHE_TTL_MS, () => 0, 2);
    small.set("a", row(1), 0);
    small.set("b", row(2), 0);
    small.set("c", row(3), 0);
    expect([small.get("a"), small.get("b")?.user.id, small.get("c")?.user.id]).toEqual([undefined, 2, 3]);
  });

  it("a read under way is shared only while nothing was revoked since, and let go once settled", async () => {
    const cache = new SessionCache();
    let settle: (r: TokenRow | undefined) => void = () => undefined;
    const reading = new Promise<TokenRow | undefined>((resolve) => (settle = resolve));
    cache.share("a", cache.generation, reading);
    expect(cache.pending("a")).toBe(reading);
    expect(cache.pending("b")).toBeUndefined();
    settle(row(1));
    await reading;
    await Promise.resolve();
    expect(cache.pending("a")).toBeUndefined();
    const second = Promise.resolve(row(1));
    cache.share("a", cache.generation, second);
    cache.forgetToken("a");
    expect(cache.pending("a")).toBeUndefined();
  });
});
