import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rateLimits } from "#backend/db/tables.ts";
import { hitKey } from "#backend/kit/rate-limit.ts";
import { inProcessVueapi, registeredUser, type Reply } from "./in-process.ts";

/**
 * The windows and locks of the rate limits over time (docs/decisions/021): the service in-process with the
 * real limits and a clock the test moves, each call made as a client at a given address (what the server
 * entry would have seen).
 */
let clock = new Date("2026-07-01T00:00:00Z");
const later = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const service = inProcessVueapi(
  "limits",
  { TEST_CAPTCHA: "LIMIT1", RATE_LIMITS: "on", RATE_LIMIT_EXEMPT: undefined },
  () => clock,
);

async function post<T = any>(from: string, p: string, body: object = {}): Promise<{ status: number; body: Reply<T> }> {
  const res = await service.handle(
    new Request(`http://test.invalid/vueapi${p}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
    { clientAddress: from },
  );
  return { status: res.status, body: (await res.json()) as Reply<T> };
}

async function withCaptcha(from: string) {
  return {
    captchaKey: (await post<{ captchaKey: string }>(from, "/anon/captcha/create")).body.data.captchaKey,
    captcha: "LIMIT1",
  };
}

function resetMails(email: string): number {
  const dir = path.join(service.services.env.dataDir, "outbox");
  if (!existsSync(dir)) return 0;
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as { to: string; text: string })
    .filter((m) => m.to === email && /\b\d{6}\b/.test(m.text)).length;
}

describe("mail limits (docs/decisions/054)", () => {
  const askReset = async (user: { userName: string }, from: string) =>
    post(from, "/anon/password/sendResetCode", {
      phone: user.userName,
      retrieveWay: "email",
      ...(await withCaptcha(from)),
    });

  it("sends at most 3 reset mails to one mail address from one caller in 15 minutes, each at least 60 s apart", async () => {
    const user = await registeredUser(service, "mlr");
    const email = `${user.userName}@example.com`;
    expect((await askReset(user, "203.0.113.1")).body.code).toBe(0);
    expect((await askReset(user, "203.0.113.1")).body.message).toBe("MSG_20017");
    later(61_000);
    expect((await askReset(user, "203.0.113.1")).body.code).toBe(0);
    later(61_000);
    expect((await askReset(user, "203.0.113.1")).body.code).toBe(0);
    later(61_000);
    const fourth = await askReset(user, "203.0.113.1");
    expect(fourth.status).toBe(429);
    expect(fourth.body.message).toBe("MSG_10429");
    expect(resetMails(email)).toBe(3);
    later(15 * 60_000);
    expect((await askReset(user, "203.0.113.1")).body.code).toBe(0);
    expect(resetMails(email)).toBe(4);
  });

  it("a stranger who spends the limits on someone's address does not block that person's own reset", async () => {
    const victim = await registeredUser(service, "mlv");
    const email = `${victim.userName}@example.com`;
    later(61_000);
    const stranger = "198.51.100.7";
    // Desktop links to the victim's address (no login, no captcha): the fourth is refused...
    for (let i = 0; i < 3; i++)
      expect((await post(stranger, "/anon/platform/desktopLink", { email, path: "/g/home/index" })).body.code).toBe(0);
    expect((await post(stranger, "/anon/platform/desktopLink", { email, path: "/g/home/index" })).status).toBe(429);
    // ...and so are the stranger's own reset requests for the victim once three went out.
    for (let i = 0; i < 3; i++) {
      expect((await askReset(victim, stranger)).body.code).toBe(0);
      later(61_000);
    }
    expect((await askReset(victim, stranger)).status).toBe(429);
    // The victim, from an address of their own, still gets a code.
    later(61_000);
    const own = await askReset(victim, "203.0.113.77");
    expect(own.status).toBe(200);
    expect(own.body.code).toBe(0);
    expect(resetMails(email)).toBe(4);
  });
});

describe("windows and locks end", () => {
  it("the captcha limit of an address opens again after its minute", async () => {
    for (let i = 0; i < 30; i++) expect((await post("203.0.113.20", "/anon/captcha/create")).status).toBe(200);
    const refused = await post("203.0.113.20", "/anon/captcha/create");
    expect(refused.status).toBe(429);
    later(refused.body.data.retryAfterSeconds * 1000);
    expect((await post("203.0.113.20", "/anon/captcha/create")).status).toBe(200);
  });

  it("an IPv6 client is counted by its /64: changing the last 64 bits does not give new tries", async () => {
    for (let i = 0; i < 30; i++)
      expect((await post(`2001:db8:1:2::${(i + 1).toString(16)}`, "/anon/captcha/create")).status).toBe(200);
    expect((await post("2001:db8:1:2:ffff:ffff:ffff:fffe", "/anon/captcha/create")).status).toBe(429);
    expect((await post("2001:db8:1:3::1", "/anon/captcha/create")).status).toBe(200);
  });

  it("an (address, account) lock lasts 15 minutes from the fifth failure, and then the address may try again", async () => {
    const user = await registeredUser(service, "lkt");
    const login = async (password: string) =>
      post("203.0.113.30", "/main/user/login", {
        username: user.userName,
        password,
        ...(await withCaptcha("203.0.113.31")),
      });
    for (let i = 0; i < 4; i++) {
      expect((await login("Wrong12!@x")).body.message).toBe("MSG_20006");
      later(60_000);
    }
    const locked = await login("Wrong12!@x");
    expect(locked).toMatchObject({ status: 429, body: { message: "MSG_20007", data: { retryAfterSeconds: 15 * 60 } } });
    later(14 * 60_000);
    expect((await login(user.password)).body.message).toBe("MSG_20007");
    later(60_000);
    expect((await login(user.password)).body.code).toBe(0);
  });

  it("dead rows are purged: the table keeps only live windows", async () => {
    await post("203.0.113.40", "/anon/captcha/create");
    later(2 * 60 * 60_000);
    // The next hit (more than a minute after the last purge) deletes every row whose window has ended.
    await post("203.0.113.41", "/anon/captcha/create");
    const [{ rows }] = await service.services.db.select({ rows: count() }).from(rateLimits);
    const [{ live }] = await service.services.db
      .select({ live: count() })
      .from(rateLimits)
      .where(eq(rateLimits.key, "captcha.ip:203.0.113.41"));
    expect(live).toBe(1);
    expect(rows).toBe(1);
  });
});

describe("the store", () => {
  it("counts concurrent hits on one key exactly: each caller sees its own count", async () => {
    const rule = { limit: 100, windowMs: 60_000, scope: "address" as const };
    const results = await Promise.all(
      Array.from({ length: 40 }, () => hitKey(service.services.db, "test:concurrent", rule, clock)),
    );
    expect(results.map((r) => r.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(results.filter((r) => r.over)).toEqual([]);
  });

  it("a lock rule locks at its limit and each hit while locked extends the lock", async () => {
    const rule = { limit: 3, windowMs: 60_000, blockMs: 10 * 60_000, scope: "account" as const };
    const db = service.services.db;
    expect((await hitKey(db, "test:lock", rule, clock)).over).toBe(false);
    expect((await hitKey(db, "test:lock", rule, clock)).over).toBe(false);
    expect(await hitKey(db, "test:lock", rule, clock)).toMatchObject({ hits: 3, over: true, retryAfterSeconds: 600 });
    later(5 * 60_000);
    expect(await hitKey(db, "test:lock", rule, clock)).toMatchObject({ hits: 4, over: true, retryAfterSeconds: 600 });
    later(10 * 60_000);
    expect(await hitKey(db, "test:lock", rule, clock)).toMatchObject({ hits: 1, over: false });
  });
});
