import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#backend/db/client.ts";
import { readBackendEnv } from "#backend/env.ts";
import { EngineLease, NotLeaseHolderError } from "#backend/kit/engine-lease.ts";
import {
  EngineUnreachableError,
  NotEngineHolderError,
  callLinked,
  linkKeys,
  signedHeaders,
  startEngineLink,
  type EngineLinkServer,
} from "#backend/kit/engine-link.ts";
import type { Deps } from "#backend/deps.ts";
import { EngineOwnership, type OwnershipHooks } from "#backend/kit/engine-owner.ts";
import { ownDatabase } from "./in-process.ts";

/**
 * The engine lease and link (issue 32 item 3, docs/decisions/095): one holder per engine among processes on one
 * database, a takeover once the holder stops renewing, a handover at a graceful stop, writes fenced by the lease,
 * and calls between processes signed, in time and never replayed. On the run's PostgreSQL (a database of its own)
 * or on PGlite.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the engine lease", () => {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let dataDir: string;
  let env: ReturnType<typeof readBackendEnv>;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "bsn-lease-"));
    const url = await ownDatabase(process.env.DATABASE_URL);
    env = readBackendEnv({ ...process.env, DATABASE_URL: url, DATA_DIR: dataDir });
    database = await openDatabase(env);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const fast = { ttlMs: 600, renewMs: 150, pollMs: 100 };

  it("one holder at a time; the other takes it over once the holder stops renewing, with the next epoch", async () => {
    const a = new EngineLease(database.db, "t1", "http://a", fast, "a");
    const b = new EngineLease(database.db, "t1", "http://b", fast, "b");
    expect(await a.tryAcquire()).toBe(true);
    expect(await b.tryAcquire()).toBe(false);
    expect(await b.current()).toMatchObject({ holder: "a", address: "http://a", epoch: 1 });
    a.start();
    await sleep(1_000);
    // Renewed: still a's, well past one ttl.
    expect(await b.tryAcquire()).toBe(false);
    expect(a.holding).toBe(true);
    // a stops renewing (as if killed): b has it once the ttl has passed since a's last renewal.
    await a.stop();
    let taken = false;
    const stopped = performance.now();
    while (!taken && performance.now() - stopped < 3_000) {
      taken = await b.tryAcquire();
      if (!taken) await sleep(50);
    }
    expect(taken).toBe(true);
    expect(performance.now() - stopped).toBeLessThan(fast.ttlMs + 500);
    expect(await a.current()).toMatchObject({ holder: "b", address: "http://b", epoch: 2 });
  });

  it("a holder whose lease was taken learns it at its next renewal and its hook runs; its fenced writes fail", async () => {
    let lost = 0;
    const a = new EngineLease(database.db, "t2", "http://a", { ...fast, onLost: async () => void lost++ }, "a");
    expect(await a.tryAcquire()).toBe(true);
    await database.db.transaction((tx) => a.fence(tx));
    // Taken behind its back (its end moved into the past, as if a's clock had stalled past the ttl).
    await database.db.execute(
      sql`UPDATE engine_leases SET expires_at = now() - interval '1 second' WHERE engine = 't2'`,
    );
    const b = new EngineLease(database.db, "t2", "http://b", fast, "b");
    expect(await b.tryAcquire()).toBe(true);
    await expect(database.db.transaction((tx) => a.fence(tx))).rejects.toBeInstanceOf(NotLeaseHolderError);
    a.start();
    await sleep(400);
    expect(lost).toBe(1);
    expect(a.holding).toBe(false);
    await a.stop();
  });

  it("a renewal that comes after the end keeps the lease when nobody took it: same epoch, no hook, no reopening", async () => {
    let lost = 0;
    const a = new EngineLease(database.db, "t4", "http://a", { ...fast, onLost: async () => void lost++ }, "a");
    expect(await a.tryAcquire()).toBe(true);
    // Its end passed before it renewed (a slow database, a long pause), and nobody took it meanwhile.
    await database.db.execute(
      sql`UPDATE engine_leases SET expires_at = now() - interval '1 second' WHERE engine = 't4'`,
    );
    await expect(database.db.transaction((tx) => a.fence(tx))).rejects.toBeInstanceOf(NotLeaseHolderError);
    a.start();
    await sleep(400);
    expect(lost).toBe(0);
    expect(a.holding).toBe(true);
    expect(await a.current()).toMatchObject({ holder: "a", epoch: 1 });
    await database.db.transaction((tx) => a.fence(tx));
    await a.stop();
    await a.release();
  });

  it("a graceful stop hands it over at once; a taker that was waiting gets it at its next poll", async () => {
    let acquired = 0;
    const a = new EngineLease(database.db, "t3", "http://a", { ttlMs: 60_000 }, "a");
    const b = new EngineLease(database.db, "t3", "http://b", { ...fast, onAcquired: async () => void acquired++ }, "b");
    expect(await a.tryAcquire()).toBe(true);
    b.start();
    await sleep(300);
    expect(acquired).toBe(0);
    await a.release();
    await sleep(400);
    expect(acquired).toBe(1);
    expect(b.holding).toBe(true);
    await b.stop();
    await b.release();
    expect(await b.current()).toBeNull();
  });

  it("a taker whose engine opens for longer than the ttl renews meanwhile: nobody else takes it, it is never without a holder", async () => {
    let opened = 0;
    const b = new EngineLease(
      database.db,
      "t5",
      "http://b",
      { ...fast, onAcquired: async () => void (await sleep(fast.ttlMs * 3), opened++) },
      "b",
    );
    const c = new EngineLease(database.db, "t5", "http://c", fast, "c");
    b.start();
    while (!(await c.current())) await sleep(20);
    // b has taken it and is opening its engine, three ttls long: the row names b throughout, c never takes it.
    const until = performance.now() + fast.ttlMs * 2.5;
    let seen = 0;
    while (performance.now() < until) {
      expect(await c.current()).toMatchObject({ holder: "b", epoch: 1 });
      expect(await c.tryAcquire()).toBe(false);
      seen++;
      await sleep(50);
    }
    await sleep(300);
    expect(opened).toBe(1);
    expect(seen).toBeGreaterThan(5);
    expect(await c.current()).toMatchObject({ holder: "b", epoch: 1 });
    expect(b.holding).toBe(true);
    await b.stop();
    await b.release();
  });

  /**
   * A call this process was answering when the engine left it (docs/decisions/106): a graceful stop, or a lease taken
   * behind its back. The engine's stop fails the call here; that is not the engine's answer, so a call safe to repeat
   * is answered by the next holder, and one that may have run is refused as sent and unanswered (a 503 to its caller),
   * never passed on as the engine's error (a 500). An error the engine itself answers stays that error.
   */
  describe("calls under way when the engine changes hands", () => {
    /** A process's engine: `/fail` fails at once; on a's engine `/slow` is answered only by its close (it fails). */
    const portal = (name: string) => {
      const underWay = new Set<(error: Error) => void>();
      const close = () => {
        for (const fail of underWay) fail(new Error(`${name}'s engine was closed`));
        underWay.clear();
      };
      const hooks: OwnershipHooks = {
        becomeOwner: async () => undefined,
        becomePeer: async () => close(),
        answer: async (p) => {
          if (p === "/fail") throw Object.assign(new Error("execution reverted"), { code: 3 });
          if (p === "/slow" && name === "a") return new Promise((_, reject) => underWay.add(reject));
          return { from: name };
        },
      };
      // Each its own engine link (one per environment) on a free port.
      const deps = { db: database.db, env: { ...env, engineLink: { host: "127.0.0.1", port: 0, url: null } } };
      return { ownership: new EngineOwnership(deps as unknown as Deps, "handover-test", hooks, true), close, underWay };
    };
    const underWayOn = async (p: { underWay: Set<unknown> }, n: number) => {
      for (let i = 0; i < 100 && p.underWay.size < n; i++) await sleep(20);
      expect(p.underWay.size).toBe(n);
    };

    it("a graceful stop: the read is answered by the next holder, the send is refused as unanswered", async () => {
      const a = portal("a");
      const b = portal("b");
      await a.ownership.start();
      await b.ownership.start();
      expect(a.ownership.isOwner).toBe(true);
      // The engine's own error is the answer while nothing changes.
      await expect(a.ownership.call("/fail", null, true)).rejects.toThrow("execution reverted");
      const read = a.ownership.call("/slow", null, true);
      const send = a.ownership.call("/slow", null, false).catch((error: unknown) => error);
      await underWayOn(a, 2);
      // As a domain's close does: stop, close the engine (failing what it was doing), hand the lease over.
      await a.ownership.stop();
      a.close();
      await a.ownership.release();
      await expect(read).resolves.toEqual({ from: "b" });
      const refused = await send;
      expect(refused).toBeInstanceOf(EngineUnreachableError);
      expect((refused as EngineUnreachableError).sent).toBe(true);
      expect((refused as Error).message).toMatch(/moved to another process during the call/);
      expect(b.ownership.isOwner).toBe(true);
      await b.ownership.stop();
      await b.ownership.release();
    }, 30_000);

    it("a lease taken behind the holder's back: its call under way is answered by the new holder", async () => {
      const a = portal("a");
      const b = portal("b");
      await a.ownership.start();
      await b.ownership.start();
      expect(a.ownership.isOwner).toBe(true);
      const read = a.ownership.call("/slow", null, true);
      await underWayOn(a, 1);
      // a's end moved into the past, as if it had stalled: b takes it at its next poll, a learns it at its next renewal.
      await database.db.execute(
        sql`UPDATE engine_leases SET expires_at = now() - interval '1 second' WHERE engine = 'handover-test'`,
      );
      await expect(read).resolves.toEqual({ from: "b" });
      expect(a.ownership.isOwner).toBe(false);
      expect(b.ownership.isOwner).toBe(true);
      await a.ownership.stop();
      await a.ownership.release();
      await b.ownership.stop();
      await b.ownership.release();
    }, 30_000);
  });
});

describe("the engine link", () => {
  const keys = linkKeys(["secret-now", "secret-before"]);
  let link: EngineLinkServer;
  let address: string;
  beforeAll(async () => {
    link = await startEngineLink(keys, "127.0.0.1", 0);
    address = `http://127.0.0.1:${link.port}`;
    link.serve("demo", async (p, body) => {
      if (p === "/fail") throw Object.assign(new Error("reverted"), { code: -32000, data: "0x08c379a0" });
      return { path: p, body };
    });
  });
  afterAll(() => link.close());

  const raw = (p: string, body: string, headers: Record<string, string>) =>
    fetch(`${address}${p}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });

  it("answers a signed call with the engine's answer, and its error with code and data", async () => {
    expect(await callLinked(keys, address, "demo", "/echo", { a: 1 })).toEqual({ path: "/echo", body: { a: 1 } });
    const failed = await callLinked(keys, address, "demo", "/fail").catch((e: unknown) => e);
    expect(failed).toMatchObject({ message: "reverted", code: -32000, data: "0x08c379a0" });
  });

  it("takes a call signed with an older secret of the deployment (rotation), and refuses another key's", async () => {
    expect(await callLinked([keys[1]!], address, "demo", "/echo", 2)).toMatchObject({ body: 2 });
    const other = await callLinked(linkKeys(["not-ours"]), address, "demo", "/echo", 2).catch((e: Error) => e);
    expect(String(other)).toContain("bad signature");
  });

  it("refuses an unsigned call, a replayed one, one outside 30 s, and one whose body was changed", async () => {
    const body = JSON.stringify({ to: "x" });
    expect((await raw("/demo/echo", body, {})).status).toBe(401);
    const headers = signedHeaders(keys[0]!, "/demo/echo", Buffer.from(body));
    expect((await raw("/demo/echo", body, headers)).status).toBe(200);
    const again = await raw("/demo/echo", body, headers);
    expect([again.status, await again.text()]).toEqual([401, expect.stringContaining("replayed")]);
    const old = signedHeaders(keys[0]!, "/demo/echo", Buffer.from(body), Date.now() - 31_000);
    expect(await (await raw("/demo/echo", body, old)).text()).toContain("outside the replay window");
    const changed = signedHeaders(keys[0]!, "/demo/echo", Buffer.from(body));
    expect(await (await raw("/demo/echo", JSON.stringify({ to: "y" }), changed)).text()).toContain("bad signature");
  });

  it("an engine this process does not run is 409 (look for the holder again); a closed port is not sent", async () => {
    expect(await callLinked(keys, address, "other", "/x").catch((e: unknown) => e)).toBeInstanceOf(
      NotEngineHolderError,
    );
    const closed = await startEngineLink(keys, "127.0.0.1", 0);
    const port = closed.port;
    await closed.close();
    const refused = await callLinked(keys, `http://127.0.0.1:${port}`, "demo", "/x").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EngineUnreachableError);
    expect((refused as EngineUnreachableError).sent).toBe(false);
  });
});
