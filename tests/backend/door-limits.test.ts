import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { endpoints } from "#backend/index.ts";

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
