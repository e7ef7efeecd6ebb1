import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "#contract/envelope.ts";
import { rateLimits } from "#backend/db/tables.ts";
import { endpoints } from "#backend/index.ts";
import { DoorRates, doorRatesOf } from "#backend/kit/door-rate.ts";
import type { Endpoint } from "#backend/kit/domain.ts";
import { openVueapi, ownDatabase, type Vueapi } from "./in-process.ts";

/**
 * Issue 29 item 2 (docs/decisions/062): every door outside /vueapi that takes a credential locks an address out
 * of that credential after ten refused ones in 15 minutes (429 with Retry-After, before any check runs), while
 * other addresses are not affected. Each door is probed by construction (backend/index.ts `endpoints` with
 * `auth: "key"`), so a new key door without a probe here fails. The test server believes X-Forwarded-For from
 * loopback and exempts 127.0.0.1 (tests/backend/global-setup.ts), so each case speaks from addresses of its own.
 */

const base = () => inject("baseUrl");
let next = 0;
/** A fresh address of the TEST-NET-3 range, unused by any other test file. */
function address(): string {
  next += 1;
  return `203.0.113.${next}`;
}

const forgedKey = () => randomBytes(32).toString("base64url");
const rpcBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] });
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

type Guess = { url: string; method: string; headers: Record<string, string>; body?: string };

const NETWORK = `door-${randomBytes(3).toString("hex")}`;
let networkReady: Promise<void> | undefined;
/** A dedicated network of the embedded provisioner whose authorized user is known (one peer). */
function dedicatedNetwork(): Promise<void> {
  networkReady ??= (async () => {
    const res = await fetch(`${base()}/chain/test-rpc/${NETWORK}/dedicated`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ peers: 1, user: "ops", password: "right-password", consensus: "raft" }),
    });
    expect(res.status, await res.text()).toBe(200);
  })();
  return networkReady;
}

/** A guess at each key door: one wrong credential, answered 401 by the door itself. */
const GUESSES: Record<string, () => Promise<Guess>> = {
  "/chain/rpc/": async () => ({
    url: `${base()}/chain/rpc/${forgedKey()}`,
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: rpcBody,
  }),
  "/chain/service/": async () => ({
    url: `${base()}/chain/service/${forgedKey()}`,
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: rpcBody,
  }),
  "/ipfs-gw/": async () => ({
    url: `${base()}/ipfs-gw/CN-BJ-01/upload`,
    method: "POST",
    headers: {
      "Content-Type": "application/octet-stream",
      "X-File-Name": "guess.txt",
      Authorization: `Bearer ipfs_up_${forgedKey()}`,
    },
    body: "guess",
  }),
  "/chain/dedicated/": async () => {
    await dedicatedNetwork();
    return {
      url: `${base()}/chain/dedicated/${NETWORK}`,
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: basic("ops", `wrong-${forgedKey()}`) },
      body: rpcBody,
    };
  },
  "/chain/test/": async () => ({
    url: `${base()}/chain/test/${forgedKey()}`,
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: rpcBody,
  }),
};

async function send(guess: Guess, from: string) {
  const res = await fetch(guess.url, {
    method: guess.method,
    headers: { ...guess.headers, "X-Forwarded-For": from },
    body: guess.body,
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), text: await res.text() };
}

describe("doors that take a credential", () => {
  const doors = endpoints.filter((e) => e.auth === "key");

  it("every key door has a guess here", () => {
    expect(doors.map((d) => d.path).filter((p) => !GUESSES[p])).toEqual([]);
  });

  it.each(doors.map((d) => d.path))(
    "%s: ten refused credentials from one address lock it out for 15 minutes; another address is not affected",
    { timeout: 60_000 },
    async (path) => {
      const attacker = address();
      for (let i = 0; i < 10; i += 1) {
        const answer = await send(await GUESSES[path]!(), attacker);
        expect(answer.status, answer.text).toBe(401);
      }
      const locked = await send(await GUESSES[path]!(), attacker);
      expect(locked.status, locked.text).toBe(429);
      expect(Number(locked.retryAfter)).toBeGreaterThan(14 * 60);
      expect(JSON.parse(locked.text)).toMatchObject({ error: { code: -32005 } });
      const other = await send(await GUESSES[path]!(), address());
      expect(other.status, other.text).toBe(401);
    },
  );

  it(
    "a locked address is refused even with the right credential, before the check runs",
    { timeout: 60_000 },
    async () => {
      await dedicatedNetwork();
      const attacker = address();
      const right = {
        url: `${base()}/chain/dedicated/${NETWORK}`,
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: basic("ops", "right-password") },
        body: rpcBody,
      };
      expect((await send(right, attacker)).status).toBe(200);
      for (let i = 0; i < 10; i += 1)
        expect((await send(await GUESSES["/chain/dedicated/"]!(), attacker)).status).toBe(401);
      expect((await send(right, attacker)).status).toBe(429);
      // Another user name on the same network is another credential.
      const otherUser = { ...right, headers: { ...right.headers, Authorization: basic("someone", "x") } };
      expect((await send(otherUser, attacker)).status).toBe(401);
    },
  );
});

/**
 * Request rates per address on every door (docs/decisions/067). The doors' real rates are in the thousands a
 * minute, so each door is driven past a rate lowered the house's way (RATE_LIMITS "door:<path>=5/1m") on a
 * service of this file's own (a database of its own: its clock moves), and one door is driven past its real,
 * declared rate over HTTP on the test server.
 */
describe("request rates per address on every door", () => {
  let clock = new Date("2026-08-01T00:00:00Z");
  let service: Vueapi;
  const rated = endpoints.filter((e) => e.ratePerMinute !== null);
  const LOWERED = 5;
  beforeAll(async () => {
    service = await openVueapi(
      "door-rates",
      {
        DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
        PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
        TEST_FIXTURES: "1",
        RATE_LIMITS: rated.map((e) => `door:${e.path}=${LOWERED}/1m`).join(","),
        RATE_LIMIT_EXEMPT: undefined,
      },
      () => clock,
    );
  }, 120_000);
  afterAll(async () => {
    await service?.close();
  });

  /** One request at `door` from `from`, of the door's first method, whatever the door answers to it. */
  async function knock(door: Endpoint, from: string) {
    const method = door.methods[0]!;
    const res = await service.serveEndpoint(
      new Request(`http://test.invalid${door.path}x`, {
        method,
        headers: { [CLIENT_ADDRESS_HEADER]: from, "Content-Type": "application/json" },
        body: method === "POST" ? rpcBody : undefined,
      }),
    );
    return { status: res.status, retryAfter: res.headers.get("retry-after"), text: await res.text() };
  }

  it("every endpoint declares a rate per minute, or none with the reason, and only a signed webhook has none", () => {
    for (const e of endpoints) {
      if (e.ratePerMinute === null) {
        expect(e.auth, e.path).toBe("signature");
        expect(e.unratedBecause.length, e.path).toBeGreaterThan(10);
      } else expect(e.ratePerMinute, e.path).toBeGreaterThanOrEqual(60);
    }
    // The doors the issue names have theirs.
    for (const path of ["/chain/rpc/", "/chain/service/", "/ipfs-gw/", "/chain/test-rpc/", "/chain/test/"])
      expect(endpoints.find((e) => e.path === path)?.ratePerMinute, path).toEqual(expect.any(Number));
  });

  it.each(rated.map((e) => e.path))(
    "%s: past its rate an address gets 429 with Retry-After before any check; another address is served",
    { timeout: 60_000 },
    async (path) => {
      const door = rated.find((e) => e.path === path)!;
      if (door.enabled && !door.enabled(service.services.env)) return;
      const flooder = `192.0.2.${rated.indexOf(door) + 1}`;
      for (let i = 0; i < LOWERED; i += 1) {
        const answer = await knock(door, flooder);
        expect(answer.status, answer.text).not.toBe(429);
      }
      const refused = await knock(door, flooder);
      expect(refused.status, refused.text).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
      expect(refused.text).toMatch(/too many requests from this address/);
      if (door.jsonRpc) expect(JSON.parse(refused.text)).toMatchObject({ jsonrpc: "2.0", error: { code: -32005 } });
      else expect(JSON.parse(refused.text)).toMatchObject({ code: "MSG_10429" });
      const other = await knock(door, `192.0.2.${rated.indexOf(door) + 101}`);
      expect(other.status, other.text).not.toBe(429);
    },
  );

  it("the window ends a minute after it began, counted in the database", async () => {
    const door = rated.find((e) => e.path === "/chain/rpc/")!;
    const from = "192.0.2.200";
    for (let i = 0; i < LOWERED; i += 1) expect((await knock(door, from)).status).not.toBe(429);
    expect((await knock(door, from)).status).toBe(429);
    await doorRatesOf(service.services.db, service.services.limits.config, service.services.now).flush();
    const [row] = await service.services.db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `door.rate:/chain/rpc/|${from}`));
    expect(row?.hits).toBe(LOWERED);
    clock = new Date(clock.getTime() + 61_000);
    expect((await knock(door, from)).status).not.toBe(429);
  });

  it("processes count together: each learns the others' counts at its next write", async () => {
    const { db, limits } = service.services;
    const a = new DoorRates(db, limits.config, () => clock);
    const b = new DoorRates(db, limits.config, () => clock);
    const from = "192.0.2.201";
    const admit = (p: DoorRates) => p.admit("/chain/service/", 3000, from).over;
    try {
      // 4 through A and 1 through B reach the limit of 5, written by both.
      for (let i = 0; i < 4; i += 1) expect(admit(a)).toBe(false);
      await a.flush();
      expect(admit(b)).toBe(false);
      await b.flush();
      // B has heard the total: its next request is over. A hears it at its next write; until then it may let
      // through at most what it would let through in a second (here: one more, up to what it knew).
      expect(admit(b)).toBe(true);
      expect(admit(a)).toBe(false);
      await a.flush();
      expect(admit(a)).toBe(true);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});

describe("a door's real rate over HTTP", () => {
  it(
    "the sandbox checkout: its declared rate from one address in a minute, then 429; another address is served",
    { timeout: 120_000 },
    async () => {
      const door = endpoints.find((e) => e.path === "/sandbox-pay/")!;
      const rate = door.ratePerMinute!;
      const from = address();
      const get = async (who: string) => {
        const res = await fetch(`${base()}/sandbox-pay/no-such-checkout`, { headers: { "X-Forwarded-For": who } });
        await res.arrayBuffer();
        return { status: res.status, retryAfter: res.headers.get("retry-after") };
      };
      const statuses: number[] = [];
      for (let i = 0; i < rate; i += 20)
        statuses.push(
          ...(await Promise.all(Array.from({ length: Math.min(20, rate - i) }, () => get(from)))).map((a) => a.status),
        );
      expect(statuses.filter((s) => s === 429)).toEqual([]);
      const refused = await get(from);
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect((await get(address())).status).not.toBe(429);
    },
  );
});

describe("the feeds' rule (feed.ip)", () => {
  it(
    "60 feeds a minute from one address, then 429 with Retry-After; another address is served",
    { timeout: 120_000 },
    async () => {
      const from = address();
      const get = async (who: string) => {
        const res = await fetch(`${base()}/g/main/feeds/news?lang=en&format=rss`, {
          headers: { "X-Forwarded-For": who },
        });
        await res.arrayBuffer();
        return { status: res.status, retryAfter: res.headers.get("retry-after") };
      };
      const statuses: number[] = [];
      for (let i = 0; i < 60; i += 10)
        statuses.push(...(await Promise.all(Array.from({ length: 10 }, () => get(from)))).map((a) => a.status));
      expect(statuses).toEqual(new Array(60).fill(200));
      const refused = await get(from);
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect((await get(address())).status).toBe(200);
    },
  );
});
