import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { jobs } from "#backend/db/tables.ts";
import { post as ledgerPost } from "#backend/domains/billing/ledger.ts";
import { EmbeddedIpfs } from "#backend/domains/ipfs/engine/embedded.ts";
import { RemoteIpfs } from "#backend/domains/ipfs/engine/remote.ts";
import { ipfsFiles } from "#backend/domains/ipfs/tables.ts";
import { JOB_IPFS_UNPIN } from "#backend/domains/ipfs/jobs.ts";
import { callVueapi, insertedUser, openVueapi, ownDatabase, sessionOf, type Vueapi } from "./in-process.ts";
import { uniqueName } from "./client.ts";
import { freePort } from "../server/support.ts";
import { okVia } from "../support/envelope.ts";
import { idempotencyKeys } from "../support/ids.ts";

// docs/decisions/076: the IPFS engine against a real IPFS node over the kubo RPC API (js-ipfs, tools/ipfs-node),
// and what the portal does while that node is not answering.

const MiB = 1024 * 1024;
const NODE_URL = process.env.IPFS_API_URL;
const TOOL = path.resolve(__dirname, "../../tools/ipfs-node");

/** Feeds `bytes` in 64 KiB pieces, as a request body arrives. */
async function* pieces(bytes: Uint8Array) {
  for (let i = 0; i < bytes.length; i += 65_536) yield bytes.subarray(i, i + 65_536);
}

async function read(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A throwaway node of tools/ipfs-node (installed by scripts/ipfs-throwaway.sh install): its URL and process. */
async function startNode(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(TOOL, "node.mjs"), "--with-parent"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the IPFS node exited with ${code}`)));
    lines.on("line", (line) => {
      if (line.startsWith("IPFS_API_URL=")) resolve(line.slice("IPFS_API_URL=".length));
    });
  });
  return { url, child };
}

async function stopNode(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

describe.skipIf(!NODE_URL)("the same CIDs from the embedded engine and the IPFS node (IPFS_API_URL)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "bsn-ipfs-cids-"));
  const embedded = new EmbeddedIpfs(dir);
  const remote = new RemoteIpfs(NODE_URL!, async () => 0);
  beforeAll(async () => {
    await embedded.open();
  });
  afterAll(async () => {
    await embedded.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // One chunk (a raw block: CIDv1, raw leaves), exactly one chunk, one byte past it, several chunks.
  it.each([
    ["1000 B", 1000],
    ["1 MiB", MiB],
    ["1 MiB + 1 B", MiB + 1],
    ["3 MiB + 12345 B", 3 * MiB + 12345],
    ["5 MiB", 5 * MiB],
  ])("%s: same CID, size, block count and bytes back", async (_label, size) => {
    const bytes = randomBytes(size);
    const mine = await embedded.add(pieces(bytes));
    const theirs = await remote.add(pieces(bytes));
    expect(theirs).toEqual(mine);
    expect(mine.cid).toMatch(size <= MiB ? /^bafkrei/ : /^bafybei/);
    expect(await remote.stat(theirs.cid)).toEqual(await embedded.stat(mine.cid));
    const offset = Math.floor(size / 3);
    const slice = await read(remote.cat(theirs.cid, { offset, length: 1000 }));
    expect(slice.equals(bytes.subarray(offset, offset + 1000))).toBe(true);
    expect((await read(remote.cat(theirs.cid))).equals(bytes)).toBe(true);
    expect(await remote.unpin(theirs.cid)).toEqual({ removedBlocks: 0 });
    expect(await remote.stat(theirs.cid)).toBeNull();
    await expect(remote.unpin(theirs.cid)).rejects.toMatchObject({ name: "NotPinnedError" });
  });
});

describe("while the IPFS node is not answering", () => {
  const real = existsSync(path.join(TOOL, "node_modules/ipfs-core"));
  let node: { url: string; child: ChildProcess } | undefined;
  let service: Vueapi;
  let token: string;
  let userId: number;
  let svc: any;
  let stored: { cid: string; size: number } | undefined;
  const ok = okVia((p: string, body: object) => callVueapi(service, p, body, token));
  const idem = idempotencyKeys("ipfs-down");
  const gw = (method: string, p: string, headers: Record<string, string>, body?: BodyInit) =>
    service.serveEndpoint(
      new Request(`http://test.invalid${p}`, {
        method,
        headers,
        body,
        ...(body ? { duplex: "half" } : {}),
      } as RequestInit),
    );

  beforeAll(async () => {
    // A node of tools/ipfs-node started for this file and stopped below, when installed; else an address where
    // nothing listens, which is what a stopped node is to its clients.
    node = real ? await startNode() : undefined;
    service = await openVueapi("ipfs-down", {
      DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
      PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
      DEMO: "0",
      JOBS_INTERVAL_MS: "0",
      IPFS_API_URL: node?.url ?? `http://127.0.0.1:${await freePort()}`,
    });
    userId = await insertedUser(service, uniqueName("ipfsdown"));
    token = await sessionOf(service, userId);
    await service.services.db.transaction((tx) =>
      ledgerPost(
        tx,
        { userId, kind: "grant", amountCents: 1_000, refType: "grant", refId: userId },
        service.services.now(),
      ),
    );
    const gateways = await ok<any[]>("/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices", {});
    svc = await ok("/sys/ipfsBusiness/ipfs/create", {
      name: "down",
      storeUnit: 1,
      orgIds: [gateways[0].orgId],
      idempotencyKey: idem(),
    });
    if (node) {
      const res = await gw(
        "POST",
        `/ipfs-gw/${svc.gateways[0].orgCode}/upload`,
        { "X-Api-Key": key("upload"), "X-File-Name": "kept.bin" },
        randomBytes(3000),
      );
      expect(res.status).toBe(200);
      stored = (await res.json()) as any;
      await stopNode(node.child);
    } else {
      // The file row an upload made while the node was up.
      stored = { cid: "bafkreicrmau435fawo4cpppurj574stvd6ilwk4r45sjqjwsipyg6yyozy", size: 1000 };
      await service.services.db.insert(ipfsFiles).values({
        serviceId: svc.ipfsServiceId,
        name: "kept.bin",
        cid: stored.cid,
        size: stored.size,
        contentType: "application/octet-stream",
        createdAt: service.services.now(),
      });
    }
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    if (node) await stopNode(node.child);
  });

  const key = (kind: string) => svc.keys.find((k: any) => k.kind === kind).apiKey as string;

  it("refuses uploads and downloads through the gateways with 503, Retry-After and its message", async () => {
    const code = svc.gateways[0].orgCode;
    const up = await gw(
      "POST",
      `/ipfs-gw/${code}/upload`,
      { Authorization: `Bearer ${key("upload")}`, "X-File-Name": "new.bin" },
      randomBytes(2 * MiB),
    );
    expect(up.status).toBe(503);
    expect(up.headers.get("retry-after")).toBe("30");
    expect(await up.json()).toMatchObject({
      code: Msg.IPFS_UNAVAILABLE,
      message: expect.stringMatching(/not answering/),
    });
    const form = new FormData();
    form.append("file", new Blob([randomBytes(5000)]), "form.bin");
    const upForm = await gw("POST", `/ipfs-gw/${code}/upload`, { Authorization: `Bearer ${key("upload")}` }, form);
    expect(upForm.status).toBe(503);
    const down = await gw("GET", `/ipfs-gw/${code}/ipfs/${stored!.cid}`, { "X-Api-Key": key("download") });
    expect(down.status).toBe(503);
    expect(((await down.json()) as any).code).toBe(Msg.IPFS_UNAVAILABLE);
    // Nothing was recorded by the refused uploads.
    expect((await ok("/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId: svc.ipfsServiceId })).usedBytes).toBe(
      node ? 3000 : 0,
    );
  });

  it("answers the other IPFS paths, says so in /healthz, and turns the domain api's calls into a 503 ApiError", async () => {
    expect((await ok("/sys/ipfsBusiness/ipfs/list", { pageIndex: 1, pageSize: 10 })).page.rows).toHaveLength(1);
    const files = await ok("/sys/ipfsBusiness/ipfs/files", { ipfsServiceId: svc.ipfsServiceId, pageSize: 10 });
    expect(files.page.rows.map((f: any) => f.cid)).toEqual([stored!.cid]);
    const health = (await service.health()).ipfs as any;
    expect(health).toMatchObject({ engine: "remote", ok: false, error: expect.stringMatching(/not answering/) });
    const { default: ipfs } = await import("#backend/domains/ipfs/index.ts");
    const storing = ipfs.api.storeOnService(service.services, {
      userId,
      serviceId: svc.ipfsServiceId,
      name: "api.bin",
      contentType: "application/octet-stream",
      bytes: randomBytes(10),
    });
    await expect(storing).rejects.toMatchObject({
      messageKey: Msg.IPFS_UNAVAILABLE,
      http: { status: 503, retryAfterSeconds: 30 },
    });
    await expect(ipfs.api.readPinned(service.services, stored!.cid, MiB)).rejects.toMatchObject({
      messageKey: Msg.IPFS_UNAVAILABLE,
    });
  });

  it("deletes a file at once and leaves the node's unpin to a job that retries until the node answers", async () => {
    const [file] = await service.services.db.select().from(ipfsFiles).where(eq(ipfsFiles.serviceId, svc.ipfsServiceId));
    const answer = await ok("/sys/ipfsBusiness/ipfs/unpin", { ipfsServiceId: svc.ipfsServiceId, ipfsFileId: file.id });
    expect(answer).toMatchObject({ ipfsFileId: file.id, usedBytes: 0, freed: true });
    const [job] = await service.services.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, JOB_IPFS_UNPIN), eq(jobs.dedupeKey, `ipfs-unpin:${file.id}`)));
    expect(job).toMatchObject({ payload: { cid: stored!.cid }, doneAt: null });
    await service.runJobs();
    const [tried] = await service.services.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(tried).toMatchObject({ attempts: 1, doneAt: null, deadAt: null });
    expect(tried.lastError).toMatch(/not answering/);
    expect(tried.runAt.getTime()).toBeGreaterThan(service.services.now().getTime());
  });
});
