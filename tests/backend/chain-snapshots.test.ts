import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownDatabase } from "./in-process.ts";
import { startServer, stopServer, type Server } from "./server-process.ts";

/**
 * The embedded chains' snapshots (issue 32 item 3, docs/decisions/103): with several processes on one PostgreSQL,
 * the chains' holder copies each chain's engine state into the file store every CHAIN_SNAPSHOT_BLOCKS blocks (the
 * last two kept); a holder on a DATA_DIR that never had the chains (a new host) starts from the newest snapshot and
 * replays only the log after it, to the same state. A snapshot whose file is damaged is passed over for the one
 * before it.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const reason = "skipped: DATABASE_URL is unset (snapshots are for another host, which shares only PostgreSQL)";
const EVERY = 4;

describe.skipIf(!DATABASE_URL)(`chain snapshots${DATABASE_URL ? "" : ` (${reason})`}`, () => {
  const dirs: string[] = [];
  let url: string;
  let db: pg.Client;
  let server: Server | undefined;
  const vars = () => ({
    DATABASE_URL: url,
    SESSION_SECRET: "backend-test-secret",
    PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
    TEST_FIXTURES: "1",
    DEMO: "0",
    CHAIN_SNAPSHOT_BLOCKS: String(EVERY),
  });
  const freshDir = () => {
    const made = mkdtempSync(path.join(tmpdir(), "bsn-snapshots-"));
    dirs.push(made);
    return made;
  };

  beforeAll(async () => {
    url = (await ownDatabase(DATABASE_URL))!;
    db = new pg.Client({ connectionString: url });
    await db.connect();
    server = await startServer(freshDir(), vars());
  }, 300_000);

  afterAll(async () => {
    await stopServer(server, "SIGKILL");
    await db?.end();
    for (const made of dirs) rmSync(made, { recursive: true, force: true });
  });

  const rpc = async (method: string, params: unknown[]) => {
    const res = await fetch(`${server!.baseUrl}/chain/test-rpc/open-alliance`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return ((await res.json()) as { result?: any }).result;
  };
  const fund = async (address: string, wei: bigint) => {
    const res = await fetch(`${server!.baseUrl}/chain/test-rpc/open-alliance/fund`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ address, wei: wei.toString() }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const snapshots = async () =>
    (
      await db.query<{ number: string; file_id: number }>(
        `select s.number, s.file_id from chain_snapshots s join chains c on c.chain_id = s.chain_id
         where c.name = 'open-alliance' order by s.number`,
      )
    ).rows.map((r) => Number(r.number));
  /** Waits until the snapshots of open-alliance are `expected` (they are kept in the background). */
  const snapshotsAre = async (expected: number[]) => {
    const until = Date.now() + 30_000;
    while (JSON.stringify(await snapshots()) !== JSON.stringify(expected) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    expect(await snapshots()).toEqual(expected);
  };

  it("a new host starts each chain from its newest snapshot and replays the tail to the same state", async () => {
    const funded: { address: string; wei: bigint }[] = [];
    const start = Number(BigInt(await rpc("eth_blockNumber", [])));
    // Enough blocks for three snapshots past the start, and two blocks more.
    const target = (Math.floor(start / EVERY) + 3) * EVERY + 2;
    while (Number(BigInt(await rpc("eth_blockNumber", []))) < target) {
      const entry = { address: `0x${randomBytes(20).toString("hex")}`, wei: BigInt(1 + funded.length) };
      await fund(entry.address, entry.wei);
      funded.push(entry);
    }
    const head = Number(BigInt(await rpc("eth_blockNumber", [])));
    const newest = Math.floor(head / EVERY) * EVERY;
    // The last two are kept; the older ones and their files are gone.
    await snapshotsAre([newest - EVERY, newest]);
    const files = await db.query(
      `select count(*)::int as n from files where id in (select file_id from chain_snapshots)`,
    );
    expect(files.rows[0].n).toBe(2);

    // A new host: a DATA_DIR that never had the chains.
    await stopServer(server, "SIGKILL");
    server = await startServer(freshDir(), vars());
    expect(server.stderr()).toContain(
      `chain open-alliance: started from its snapshot at block ${newest}, ${head - newest} recorded block(s) replayed`,
    );
    expect(Number(BigInt(await rpc("eth_blockNumber", [])))).toBe(head);
    for (const { address, wei } of funded) expect(BigInt(await rpc("eth_getBalance", [address, "latest"]))).toBe(wei);
    // And it goes on from there.
    const next = `0x${randomBytes(20).toString("hex")}`;
    await fund(next, 99n);
    expect(BigInt(await rpc("eth_getBalance", [next, "latest"]))).toBe(99n);
    funded.push({ address: next, wei: 99n });

    // The newest snapshot's file damaged: the one before it is used, and the longer tail replayed.
    await db.query(
      `update chain_snapshots set sha256 = repeat('0', 64)
       where number = $1 and chain_id = (select chain_id from chains where name = 'open-alliance')`,
      [newest],
    );
    await stopServer(server, "SIGKILL");
    server = await startServer(freshDir(), vars());
    expect(server.stderr()).toContain(
      `chain open-alliance: the snapshot at block ${newest} cannot be read: its file does not have the recorded SHA-256`,
    );
    expect(server.stderr()).toContain(
      `chain open-alliance: started from its snapshot at block ${newest - EVERY}, ${head + 1 - (newest - EVERY)} recorded block(s) replayed`,
    );
    for (const { address, wei } of funded) expect(BigInt(await rpc("eth_getBalance", [address, "latest"]))).toBe(wei);
  }, 240_000);
});
