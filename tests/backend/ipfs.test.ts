import { createHash, randomBytes } from "node:crypto";
import { unixfs } from "@helia/unixfs";
import { MemoryBlockstore } from "blockstore-core";
import { and, eq, isNull } from "drizzle-orm";
import { base32 } from "multiformats/bases/base32";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { createVueapi } from "#backend/index.ts";
import ipfs from "#backend/domains/ipfs/index.ts";
import { ipfsFiles, ipfsTrafficDaily, ipfsTrafficFilesDaily, ipfsUnpins } from "#backend/domains/ipfs/tables.ts";
import { JOB_IPFS_UNPIN } from "#backend/domains/ipfs/jobs.ts";
import { JOB_IPFS_TRIM_PIN, sweepPins, trimPin } from "#backend/domains/ipfs/pin-sweep.ts";
import { jobs } from "#backend/db/tables.ts";
import { post as ledgerPost } from "#backend/domains/billing/ledger.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { trafficLine, WEEKLY_TRAFFIC } from "#backend/domains/billing/jobs.ts";
import { weekStartOf } from "#backend/domains/billing/time.ts";
import { schedule } from "#backend/jobs/runner.ts";
import { callVueapi, insertedUser, openVueapi, ownDatabase, sessionOf, type Vueapi } from "./in-process.ts";
import { activeUser, call, uniqueName } from "./client.ts";
import { okVia } from "../support/envelope.ts";
import { idempotencyKeys } from "../support/ids.ts";

// Issue 13 (docs/decisions/039): IPFS services over the /vueapi paths and their gateways, in this process with
// the real embedded engine under the service's DATA_DIR, on PGlite, or on the PostgreSQL of DATABASE_URL.

const MiB = 1024 * 1024;
/**
 * With IPFS_API_URL (the CI's js-ipfs node, docs/decisions/076) the engine is the remote one: blocks of an unpinned
 * or refused upload go at the node's garbage collection, not at once, and there is no DATA_DIR/ipfs to reopen.
 * Those checks are the embedded engine's only (listed in the ADR); everything else runs against both.
 */
const REMOTE = !!process.env.IPFS_API_URL;
let service: Vueapi;
let userId: number;
let token: string;

const ok = okVia((p: string, body: object, as: string = token) => callVueapi(service, p, body, as));
const idem = idempotencyKeys("ipfs");

function gw(method: string, p: string, headers: Record<string, string> = {}, body?: BodyInit) {
  return service.serveEndpoint(
    new Request(`http://test.invalid${p}`, {
      method,
      headers,
      body,
      ...(body ? { duplex: "half" } : {}),
    } as RequestInit),
  );
}
const upload = (
  code: string,
  key: string,
  bytes: Uint8Array,
  name = "data.bin",
  headers: Record<string, string> = {},
) =>
  gw(
    "POST",
    `/ipfs-gw/${code}/upload`,
    {
      Authorization: `Bearer ${key}`,
      "X-File-Name": encodeURIComponent(name),
      "Content-Type": "application/octet-stream",
      ...headers,
    },
    Buffer.from(bytes),
  );
const download = (code: string, key: string, cid: string, headers: Record<string, string> = {}) =>
  gw("GET", `/ipfs-gw/${code}/ipfs/${cid}`, { "X-Api-Key": key, ...headers });

async function newService(name: string, orgIds: number[], as = token) {
  return ok("/sys/ipfsBusiness/ipfs/create", { name, storeUnit: 1, orgIds, idempotencyKey: idem() }, as);
}

const engine = () => ipfs.api.engine(service.services);

beforeAll(async () => {
  service = await openVueapi("ipfs", {
    // A database of its own on PostgreSQL: the weekly traffic job below must run in this process (runJobs), not in
    // the test server's job loop on the run's shared database, which may take it and still be billing when read.
    DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
    PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
    DEMO: "0",
    TEST_FIXTURES: "1",
    JOBS_INTERVAL_MS: "0",
  });
  userId = await insertedUser(service, uniqueName("ipfs"));
  token = await sessionOf(service, userId);
  await service.services.db.transaction((tx) =>
    ledgerPost(
      tx,
      { userId, kind: "grant", amountCents: 10_000, refType: "grant", refId: userId },
      service.services.now(),
    ),
  );
}, 120_000);
afterAll(async () => {
  await service?.close();
});

describe("IPFS storage (issue 13)", () => {
  const data = randomBytes(5 * MiB);
  let gateways: { orgId: number; orgCode: string; flowPriceCents: number }[];
  let svc: any;
  let upKey: string;
  let downKey: string;
  let cid: string;
  let served = 0;

  it("answers the four §7 paths with code 0 and non-empty data", async () => {
    gateways = await ok("/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices", {});
    expect(gateways.length).toBeGreaterThan(1);
    expect(gateways[0]).toMatchObject({
      orgCode: expect.any(String),
      flowPriceCents: expect.any(Number),
      gatewayPath: `/ipfs-gw/${gateways[0].orgCode}`,
    });
    const capacities = await ok<any[]>("/sys/ipfsBusiness/ipfsUpgrade/selectCapacity", {});
    expect(capacities.length).toBeGreaterThan(0);
    expect(capacities[0]).toEqual({ storeUnit: 1, label: "1 GB" });
    expect(await ok("/sys/ipfsBusiness/ipfs/getIpfsUnitPrice", { storeUnit: 10 })).toEqual({
      storeUnit: 10,
      unitPriceCents: 25,
    });
    expect(await ok("/sys/ipfsBusiness/ipfs/getIpfsPrice", { storeUnit: 10 })).toEqual({
      storeUnit: 10,
      unitPriceCents: 25,
      priceCents: 250,
      periodDays: 30,
    });
    expect((await callVueapi(service, "/sys/ipfsBusiness/ipfs/getIpfsPrice", { storeUnit: 3 }, token)).message).toBe(
      Msg.IPFS_CAPACITY_UNKNOWN,
    );
  });

  it("creates a service paid from the balance with an IPFS bill, two activated keys and its gateways", async () => {
    const before = (await ok("/sys/account/summary", {})).balanceCents;
    const key = idem();
    svc = await ok("/sys/ipfsBusiness/ipfs/create", {
      name: "files",
      storeUnit: 1,
      orgIds: [gateways[0].orgId, gateways[1].orgId],
      idempotencyKey: key,
    });
    expect(svc).toMatchObject({ storeUnit: 1, capacityBytes: 1024 ** 3, usedBytes: 0, status: 1, replayed: false });
    expect(svc.gateways.map((g: any) => g.orgCode)).toEqual([gateways[0].orgCode, gateways[1].orgCode]);
    expect(svc.keys.map((k: any) => [k.kind, k.state])).toEqual([
      ["upload", 1],
      ["download", 1],
    ]);
    upKey = svc.keys.find((k: any) => k.kind === "upload").apiKey;
    downKey = svc.keys.find((k: any) => k.kind === "download").apiKey;
    expect(upKey).toMatch(/^ipfs_up_/);
    expect(downKey).toMatch(/^ipfs_dl_/);
    expect((await ok("/sys/account/summary", {})).balanceCents).toBe(before - 30);
    const bill = await ok("/sys/system/clientInfo/h5billDetail", { billId: svc.billId });
    expect(JSON.stringify(bill)).toContain('"billType":4');
    // The same idempotency key answers the first creation; the name is unique per user.
    expect(
      await ok("/sys/ipfsBusiness/ipfs/create", {
        name: "files",
        storeUnit: 1,
        orgIds: [gateways[0].orgId],
        idempotencyKey: key,
      }),
    ).toMatchObject({ ipfsServiceId: svc.ipfsServiceId, replayed: true });
    expect(
      (
        await callVueapi(
          service,
          "/sys/ipfsBusiness/ipfs/create",
          { name: "files", storeUnit: 1, orgIds: [gateways[0].orgId], idempotencyKey: idem() },
          token,
        )
      ).message,
    ).toBe(Msg.IPFS_NAME_TAKEN);
    expect((await ok("/sys/account/summary", {})).balanceCents).toBe(before - 30);
    // Keys are shown again only to their owner; the detail does not carry them.
    expect(
      (await ok("/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId: svc.ipfsServiceId })).keys.every(
        (k: any) => k.apiKey === null,
      ),
    ).toBe(true);
    expect(
      (await ok("/sys/ipfsBusiness/ipfs/key", { ipfsServiceId: svc.ipfsServiceId, kind: "download", action: "show" }))
        .apiKey,
    ).toBe(downKey);
  });

  it("uploads a real 5 MB file streamed, with the CID Helia's own importer gives for the same bytes", async () => {
    const res = await upload(gateways[0].orgCode, upKey, data, "five.bin");
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(200);
    cid = body.cid;
    expect(body).toMatchObject({
      size: data.length,
      name: "five.bin",
      contentType: "application/octet-stream",
      usedBytes: data.length,
    });
    // The reference: @helia/unixfs (its defaults: CIDv1, raw leaves, 1 MiB chunks, balanced layout) in memory.
    const helia = unixfs({ blockstore: new MemoryBlockstore() } as any);
    expect(cid).toBe((await helia.addBytes(data)).toString());
    expect(cid).toMatch(/^bafybei/);
    // A file of one chunk is one raw block: its CID derived by hand (CIDv1, raw 0x55, sha2-256) matches too.
    const small = randomBytes(1000);
    const smallRes = (await (await upload(gateways[0].orgCode, upKey, small, "small.txt")).json()) as any;
    const multihash = Buffer.concat([Buffer.from([0x12, 0x20]), createHash("sha256").update(small).digest()]);
    expect(smallRes.cid).toBe(base32.encode(Buffer.concat([Buffer.from([0x01, 0x55]), multihash])));
    expect(smallRes.contentType).toBe("text/plain; charset=utf-8");
    const files = await ok("/sys/ipfsBusiness/ipfs/files", {
      ipfsServiceId: svc.ipfsServiceId,
      pageIndex: 1,
      pageSize: 10,
    });
    expect(files.page.rows.map((f: any) => [f.name, f.cid, f.size])).toEqual([
      ["small.txt", smallRes.cid, 1000],
      ["five.bin", cid, data.length],
    ]);
  });

  it("downloads the same bytes with the download key, and the right slices with Range", async () => {
    const res = await download(gateways[0].orgCode, downKey, cid);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(data.length));
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    const got = Buffer.from(await res.arrayBuffer());
    expect(got.equals(data)).toBe(true);
    served += got.length;
    const part = await download(gateways[0].orgCode, downKey, cid, { Range: "bytes=1048000-2100000" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 1048000-2100000/${data.length}`);
    const slice = Buffer.from(await part.arrayBuffer());
    expect(slice.equals(data.subarray(1048000, 2100001))).toBe(true);
    served += slice.length;
    const tail = await download(gateways[0].orgCode, downKey, cid, { Range: "bytes=-100" });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(data.subarray(data.length - 100))).toBe(true);
    served += 100;
    const beyond = await download(gateways[0].orgCode, downKey, cid, { Range: `bytes=${data.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${data.length}`);
    const head = await gw("HEAD", `/ipfs-gw/${gateways[0].orgCode}/ipfs/${cid}`, { "X-Api-Key": downKey });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(data.length));
  });

  it("refuses a wrong key (401), a deactivated key (403), another gateway, and CIDs the key's service has not pinned (404)", async () => {
    const code = gateways[0].orgCode;
    const wrong = `ipfs_dl_${randomBytes(32).toString("base64url")}`;
    const r1 = await download(code, wrong, cid);
    expect(r1.status).toBe(401);
    expect(((await r1.json()) as any).code).toBe(Msg.IPFS_KEY_UNKNOWN);
    expect((await download(code, "", cid)).status).toBe(401);
    // The upload key does not download, nor the download key upload.
    expect((await download(code, upKey, cid)).status).toBe(401);
    expect((await upload(code, downKey, randomBytes(10))).status).toBe(401);
    expect(
      await ok("/sys/ipfsBusiness/ipfs/key", {
        ipfsServiceId: svc.ipfsServiceId,
        kind: "download",
        action: "deactivate",
      }),
    ).toMatchObject({ state: 0 });
    const r2 = await download(code, downKey, cid);
    expect(r2.status).toBe(403);
    expect(((await r2.json()) as any).code).toBe(Msg.IPFS_KEY_DEACTIVATED);
    await ok("/sys/ipfsBusiness/ipfs/key", { ipfsServiceId: svc.ipfsServiceId, kind: "download", action: "activate" });
    expect((await download(code, downKey, cid, { Range: "bytes=0-0" })).status).toBe(206);
    served += 1;
    // A gateway the service did not choose.
    const other = gateways[gateways.length - 1].orgCode;
    expect((await download(other, downKey, cid)).status).toBe(403);
    // Regenerating the upload key stops the old one at once.
    const fresh = (
      await ok("/sys/ipfsBusiness/ipfs/key", { ipfsServiceId: svc.ipfsServiceId, kind: "upload", action: "regenerate" })
    ).apiKey;
    expect((await upload(code, upKey, randomBytes(10))).status).toBe(401);
    upKey = fresh;
    // Another user who knows the CID, with a service and keys of their own: 404; and never sees this service.
    const otherUser = await insertedUser(service, uniqueName("ipfso"));
    const otherToken = await sessionOf(service, otherUser);
    await service.services.db.transaction((tx) =>
      ledgerPost(
        tx,
        { userId: otherUser, kind: "grant", amountCents: 1_000, refType: "grant", refId: otherUser },
        service.services.now(),
      ),
    );
    const theirs = await newService("theirs", [gateways[0].orgId], otherToken);
    const theirKey = theirs.keys.find((k: any) => k.kind === "download").apiKey;
    const r3 = await download(code, theirKey, cid);
    expect(r3.status).toBe(404);
    expect(
      (await callVueapi(service, "/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId: svc.ipfsServiceId }, otherToken))
        .message,
    ).toBe(Msg.NOT_FOUND);
    expect(
      (await callVueapi(service, "/sys/ipfsBusiness/ipfs/files", { ipfsServiceId: svc.ipfsServiceId }, otherToken))
        .message,
    ).toBe(Msg.NOT_FOUND);
    expect(
      (await callVueapi(service, "/sys/ipfsBusiness/ipfs/traffic", { ipfsServiceId: svc.ipfsServiceId }, otherToken))
        .message,
    ).toBe(Msg.NOT_FOUND);
    expect(
      (
        await callVueapi(
          service,
          "/sys/ipfsBusiness/ipfs/key",
          { ipfsServiceId: svc.ipfsServiceId, kind: "upload", action: "show" },
          otherToken,
        )
      ).message,
    ).toBe(Msg.NOT_FOUND);
    const [file] = await service.services.db
      .select()
      .from(ipfsFiles)
      .where(and(eq(ipfsFiles.serviceId, svc.ipfsServiceId), eq(ipfsFiles.cid, cid)));
    expect(
      (
        await callVueapi(
          service,
          "/sys/ipfsBusiness/ipfs/unpin",
          { ipfsServiceId: theirs.ipfsServiceId, ipfsFileId: file.id },
          otherToken,
        )
      ).message,
    ).toBe(Msg.NOT_FOUND);
    expect(
      (await ok("/sys/ipfsBusiness/ipfs/list", { pageIndex: 1, pageSize: 10 }, otherToken)).page.rows.map(
        (s: any) => s.name,
      ),
    ).toEqual(["theirs"]);
  });

  it("refuses an upload beyond the capacity with its message, streamed or declared, and keeps no block of it", async () => {
    const detail = await ok("/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId: svc.ipfsServiceId });
    await ok("/test/ipfs/capacity", { ipfsServiceId: svc.ipfsServiceId, capacityBytes: detail.usedBytes + 1000 });
    const blocks = REMOTE ? 0 : (await engine().repoStats()).blocks;
    const declared = await upload(gateways[0].orgCode, upKey, randomBytes(2 * MiB));
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({
      code: Msg.IPFS_OVER_CAPACITY,
      message: expect.stringMatching(/capacity/),
      freeBytes: 1000,
    });
    // A multipart form declares no file size: the stream is cut where it passes the free capacity.
    const form = new FormData();
    form.append("note", "x");
    form.append("file", new Blob([randomBytes(3 * MiB)]), "big.bin");
    const streamed = await gw(
      "POST",
      `/ipfs-gw/${gateways[0].orgCode}/upload`,
      { Authorization: `Bearer ${upKey}` },
      form,
    );
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as any).code).toBe(Msg.IPFS_OVER_CAPACITY);
    // Embedded only: a remote node keeps the refused upload's blocks, unpinned, until its garbage collection.
    if (!REMOTE) expect((await engine().repoStats()).blocks).toBe(blocks);
    // What fits goes through, as multipart too.
    const fits = new FormData();
    fits.append("file", new Blob([randomBytes(900)]), "fits.bin");
    const accepted = await gw(
      "POST",
      `/ipfs-gw/${gateways[0].orgCode}/upload`,
      { Authorization: `Bearer ${upKey}` },
      fits,
    );
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ name: "fits.bin", size: 900 });
    await ok("/test/ipfs/capacity", { ipfsServiceId: svc.ipfsServiceId, capacityBytes: 1024 ** 3 });
  });

  it("refuses uploads and downloads while an IPFS bill is unpaid (SPEC §5)", async () => {
    const now = service.services.now();
    const [bill] = await service.services.db
      .insert(bills)
      .values({
        billNo: `IPT${randomBytes(6).toString("hex")}`,
        userId,
        serviceName: "IPFS download traffic",
        billType: 4,
        payState: 1,
        payMode: 2,
        cycle: 99,
        periodStart: now,
        periodEnd: now,
        createdAt: now,
        deadline: now,
        totalCents: 5,
        payCents: 5,
      })
      .returning();
    const up = await upload(gateways[0].orgCode, upKey, randomBytes(10));
    expect(up.status).toBe(402);
    expect(((await up.json()) as any).code).toBe(Msg.UNPAID_BILLS);
    expect((await download(gateways[0].orgCode, downKey, cid)).status).toBe(402);
    await ok("/sys/system/clientInfo/h5billPay", { billId: bill.id, idempotencyKey: idem() });
    expect((await download(gateways[0].orgCode, downKey, cid, { Range: "bytes=0-9" })).status).toBe(206);
    served += 10;
  });

  it("unpins with shared blocks: the other file stays readable, blocks go only when nothing pins them", async () => {
    const code = gateways[1].orgCode;
    // B shares A's first two 1 MiB chunks (the same raw leaves); C is A again (the same root, a second pin).
    const b = Buffer.concat([data.subarray(0, 2 * MiB), randomBytes(MiB / 2)]);
    const bRes = (await (await upload(code, upKey, b, "b.bin")).json()) as any;
    const cRes = (await (await upload(code, upKey, data, "c.bin")).json()) as any;
    expect(cRes.cid).toBe(cid);
    expect(await engine().pins(cid)).toBe(2);
    // Issue 31 item 8: the same content under a second name is said to be stored already and takes no capacity.
    expect(bRes.alreadyStored).toBe(false);
    expect(cRes.alreadyStored).toBe(true);
    expect(cRes.usedBytes).toBe(bRes.usedBytes);
    const files = (
      await ok("/sys/ipfsBusiness/ipfs/files", { ipfsServiceId: svc.ipfsServiceId, pageIndex: 1, pageSize: 50 })
    ).page.rows as any[];
    const first = files.find((f) => f.name === "five.bin");
    const before = REMOTE ? null : await engine().repoStats();
    // One of A's two pins goes: nothing is removed.
    const afterFirst = await ok("/sys/ipfsBusiness/ipfs/unpin", {
      ipfsServiceId: svc.ipfsServiceId,
      ipfsFileId: first.ipfsFileId,
    });
    // c.bin still holds the CID: its capacity stays taken until the last name goes.
    expect(afterFirst.usedBytes).toBe(cRes.usedBytes);
    if (before) expect((await engine().repoStats()).blocks).toBe(before.blocks);
    const stillA = await download(code, downKey, cid);
    expect(Buffer.from(await stillA.arrayBuffer()).equals(data)).toBe(true);
    served += data.length;
    // The last pin of A: its root and its three chunks of its own go; the two B shares stay.
    const second = files.find((f) => f.name === "c.bin");
    const used = (
      await ok("/sys/ipfsBusiness/ipfs/unpin", { ipfsServiceId: svc.ipfsServiceId, ipfsFileId: second.ipfsFileId })
    ).usedBytes;
    expect(used).toBe(cRes.usedBytes - data.length);
    // Embedded only: a remote node's blocks go at its garbage collection.
    if (before) expect((await engine().repoStats()).blocks).toBe(before.blocks - 4);
    expect(await engine().pins(cid)).toBe(0);
    expect((await download(code, downKey, cid)).status).toBe(404);
    const bBack = await download(code, downKey, bRes.cid);
    expect(Buffer.from(await bBack.arrayBuffer()).equals(b)).toBe(true);
    served += b.length;
    expect((await ok("/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId: svc.ipfsServiceId })).usedBytes).toBe(used);
    expect(
      (
        await callVueapi(
          service,
          "/sys/ipfsBusiness/ipfs/unpin",
          { ipfsServiceId: svc.ipfsServiceId, ipfsFileId: second.ipfsFileId },
          token,
        )
      ).message,
    ).toBe(Msg.NOT_FOUND);
    // A again, for what follows.
    cid = ((await (await upload(code, upKey, data, "again.bin")).json()) as any).cid;
  });

  it("meters every byte served per gateway and day, and the weekly job bills it at each gateway's price", async () => {
    await ipfs.api.flushTraffic(service.services);
    const traffic = await ok("/sys/ipfsBusiness/ipfs/traffic", { ipfsServiceId: svc.ipfsServiceId });
    expect(traffic.days).toHaveLength(30);
    expect(traffic.totalBytes).toBe(served);
    const byGateway = Object.fromEntries(
      gateways
        .slice(0, 2)
        .map((g) => [
          g.orgCode,
          traffic.rows.filter((r: any) => r.orgCode === g.orgCode).reduce((n: number, r: any) => n + r.bytes, 0),
        ]),
    );
    const usage = await ok("/sys/ipfsBusiness/ipfs/usageByGateway", {});
    expect(usage.totalBytes).toBe(served);
    expect(usage.rows.map((r: any) => [r.orgCode, r.bytes])).toEqual(
      Object.entries(byGateway).filter(([, n]) => n > 0),
    );
    // Enough traffic for a bill in cents: 10 more downloads of the 5 MB file.
    for (let i = 0; i < 10; i++) {
      const res = await download(gateways[0].orgCode, downKey, cid);
      served += (await res.arrayBuffer()).byteLength;
      byGateway[gateways[0].orgCode] += data.length;
    }
    await ipfs.api.flushTraffic(service.services);
    const rows = await service.services.db
      .select()
      .from(ipfsTrafficDaily)
      .where(eq(ipfsTrafficDaily.serviceId, svc.ipfsServiceId));
    expect(rows.reduce((n, r) => n + r.bytes, 0)).toBe(served);
    // Per file too (docs/decisions/093), written with them: each day and gateway's files add up to its row.
    const files = await service.services.db
      .select()
      .from(ipfsTrafficFilesDaily)
      .where(eq(ipfsTrafficFilesDaily.serviceId, svc.ipfsServiceId));
    for (const r of rows) {
      const own = files.filter((f) => f.day === r.day && f.cityNodeId === r.cityNodeId);
      expect({ day: r.day, bytes: own.reduce((n, f) => n + f.bytes, 0) }).toEqual({ day: r.day, bytes: r.bytes });
    }
    expect(files.filter((f) => f.cid === cid).reduce((n, f) => n + f.bytes, 0)).toBeGreaterThanOrEqual(
      10 * data.length,
    );
    // The Traffic page's files served most: this one first, by its name.
    const top = (await ok("/sys/ipfsBusiness/ipfs/traffic", { ipfsServiceId: svc.ipfsServiceId })).topFiles;
    expect(top[0]).toMatchObject({ cid, name: "again.bin" });
    expect(top[0].bytes).toBe(files.filter((f) => f.cid === cid).reduce((n, f) => n + f.bytes, 0));
    // The weekly traffic job for this week (run now rather than next Monday).
    const weekStart = weekStartOf(service.services.now());
    await schedule(
      service.services.db,
      WEEKLY_TRAFFIC,
      { weekStart },
      {
        runAt: service.services.now(),
        dedupeKey: `${WEEKLY_TRAFFIC}:${weekStart}:ipfs-test-${randomBytes(4).toString("hex")}`,
      },
    );
    await service.runJobs();
    // The bill's auto-payment from the balance is a job of its own (docs/decisions/059: on for new accounts).
    await service.runJobs();
    const [bill] = await service.services.db
      .select()
      .from(bills)
      .where(and(eq(bills.userId, userId), eq(bills.dedupeKey, `ipfs-traffic:${userId}:${weekStart}`)));
    expect(bill).toMatchObject({ billType: 4, payMode: 2, cycle: 99, payState: 15, payType: "BALANCE" });
    const expected = gateways
      .slice(0, 2)
      .filter((g) => byGateway[g.orgCode] > 0)
      .map((g) => trafficLine(g.orgCode, byGateway[g.orgCode] / MiB, g.flowPriceCents));
    expect(bill.detail?.dataUsage).toEqual(expected);
    expect(bill.totalCents).toBe(expected.reduce((n, l) => n + l.amountCents, 0));
    expect(bill.totalCents).toBeGreaterThan(0);
  });

  it.skipIf(REMOTE)("keeps the files across a restart of the engine alone (embedded only: its own state)", async () => {
    // A second engine on the same state (read-only use here) finds the pins and the blocks: DATA_DIR/ipfs on the
    // embedded database, the shared file store and PostgreSQL with DATABASE_URL (docs/decisions/096).
    const other = ipfs.api.embeddedEngine(service.services);
    expect(other.stateKind).toBe(service.services.env.databaseUrl ? "shared" : "disk");
    const opened = await other.open();
    expect(opened).toMatchObject({ removed: 0 });
    expect(await other.stat(cid)).toMatchObject({ size: data.length });
    let n = 0;
    for await (const chunk of other.cat(cid, { offset: 10, length: 20 })) n += chunk.byteLength;
    expect(n).toBe(20);
    await other.close();
  });

  it("keeps the files across a restart of the whole service", async () => {
    // The whole service closed and opened again on the same DATA_DIR and database (and IPFS node).
    const env = service.services.env;
    await service.close();
    service = await createVueapi(env);
    const res = await download(gateways[0].orgCode, downKey, cid);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
    const health = (await service.health()).ipfs as any;
    expect(health).toMatchObject({ engine: REMOTE ? "remote" : "embedded", ok: true });
    expect(health.blocks).toBeGreaterThan(0);
    expect(health.bytes).toBeGreaterThan(data.length);
    // The free disk is DATA_DIR's: a remote node's repository is elsewhere.
    if (REMOTE) expect(health.freeDiskBytes).toBeNull();
    else expect(health.freeDiskBytes).toBeGreaterThan(0);
  });
});

describe.skipIf(REMOTE)("pins no file holds: the hourly pin sweep (embedded engine only; docs/decisions/108)", () => {
  it("takes at a second look the pins no file, unpin under way or owed unpin held at both, and no other", async () => {
    const deps = service.services;
    const gateway = (await ok<any[]>("/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices", {}))[0];
    const own = await newService(uniqueName("sweep"), [gateway.orgId]);
    const upKey = own.keys.find((k: any) => k.kind === "upload").apiKey;
    const put = async (bytes: Buffer, name: string) => {
      const answer = (await (await upload(gateway.orgCode, upKey, bytes, name)).json()) as any;
      expect(answer.cid, JSON.stringify(answer)).toBeTruthy();
      return { cid: answer.cid as string, fileId: answer.ipfsFileId as number };
    };
    // A pin whose upload's process died before its row committed: the engine pinned, nobody recorded it.
    const unrecorded = async (bytes: Buffer) =>
      (
        await engine().add(
          (async function* () {
            yield bytes;
          })(),
        )
      ).cid;
    const [kept, orphan, late, busy, deleting, owed] = Array.from({ length: 6 }, () => randomBytes(3000));
    // Two files, and one more pin of the same bytes nobody recorded.
    const keptCid = (await put(kept, "kept.bin")).cid;
    await put(kept, "kept-2.bin");
    await unrecorded(kept);
    // Only the pin nobody recorded.
    const orphanCid = await unrecorded(orphan);
    // An upload under way at the first look: its row commits after it.
    const lateCid = await unrecorded(late);
    // A pin nobody recorded, then the same bytes uploaded again between the looks.
    const busyCid = await unrecorded(busy);
    // A deletion that committed and whose unpin is still under way at the look (what unpinFile's transaction wrote).
    const deletingFile = await put(deleting, "deleting.bin");
    await deps.db.delete(ipfsFiles).where(eq(ipfsFiles.id, deletingFile.fileId));
    await deps.db
      .insert(ipfsUnpins)
      .values({ fileId: deletingFile.fileId, cid: deletingFile.cid, createdAt: deps.now() });
    // A deletion while the engine did not answer: its job owes the unpin (retried later).
    const owedFile = await put(owed, "owed.bin");
    await deps.db.delete(ipfsFiles).where(eq(ipfsFiles.id, owedFile.fileId));
    await schedule(deps.db, JOB_IPFS_UNPIN, { cid: owedFile.cid }, { runAt: new Date(Date.now() + 86_400_000) });
    // An unpin recorded as under way by a process that died two hours ago holds nothing any more.
    const hoursAgo = new Date(deps.now().getTime() - 2 * 3_600_000);
    await deps.db.insert(ipfsUnpins).values({ fileId: 2_000_000_000, cid: orphanCid, createdAt: hoursAgo });

    const trims = async () =>
      Object.fromEntries(
        (
          await deps.db
            .select()
            .from(jobs)
            .where(and(eq(jobs.kind, JOB_IPFS_TRIM_PIN), isNull(jobs.doneAt)))
        ).map((job) => [job.payload.cid as string, job]),
      );
    expect(await sweepPins(deps)).toBe(4);
    const booked = await trims();
    expect(Object.keys(booked).sort()).toEqual([keptCid, orphanCid, lateCid, busyCid].sort());
    for (const job of Object.values(booked)) {
      expect(job.payload.excess).toBe(1);
      expect(job.runAt.getTime()).toBeGreaterThanOrEqual(deps.now().getTime() + 3_500_000);
    }
    expect(await deps.db.select().from(ipfsUnpins).where(eq(ipfsUnpins.cid, orphanCid))).toEqual([]);

    // Between the looks: the late upload's row commits; the busy bytes are uploaded again.
    await deps.db.insert(ipfsFiles).values({
      serviceId: own.ipfsServiceId,
      name: "late.bin",
      cid: lateCid,
      size: late.length,
      contentType: "application/octet-stream",
      createdAt: deps.now(),
    });
    await put(busy, "busy.bin");
    const second = async (cid: string) => trimPin(deps, booked[cid].payload as any);
    const before = await engine().repoStats();
    expect(await second(keptCid)).toEqual({ trimmed: 1, removedBlocks: 0 });
    expect(await second(orphanCid)).toEqual({ trimmed: 1, removedBlocks: 1 });
    expect(await second(lateCid)).toEqual({ trimmed: 0, removedBlocks: 0 });
    expect(await second(busyCid)).toEqual({ trimmed: 0, removedBlocks: 0 });
    expect((await engine().repoStats()).blocks).toBe(before.blocks - 1);
    expect([await engine().pins(keptCid), await engine().pins(orphanCid)]).toEqual([2, 0]);
    expect([await engine().pins(lateCid), await engine().pins(busyCid)]).toEqual([1, 2]);
    // The deletion ends: its unpin finds its pin.
    expect(await engine().unpin(deletingFile.cid)).toEqual({ removedBlocks: 1 });
    await deps.db.delete(ipfsUnpins).where(eq(ipfsUnpins.fileId, deletingFile.fileId));

    // The next sweep finds the busy root still one pin over, and the owed unpin still held.
    await deps.db.update(jobs).set({ doneAt: deps.now() }).where(eq(jobs.kind, JOB_IPFS_TRIM_PIN));
    expect(await sweepPins(deps)).toBe(1);
    const again = await trims();
    expect(Object.keys(again)).toEqual([busyCid]);
    expect(await trimPin(deps, again[busyCid].payload as any)).toEqual({ trimmed: 1, removedBlocks: 0 });
    expect(await engine().pins(busyCid)).toBe(1);
    expect(await engine().pins(owedFile.cid)).toBe(1);
    for (const cid of [keptCid, lateCid, busyCid]) expect(await engine().stat(cid)).toMatchObject({ size: 3000 });
  });
});

describe("the gateways through the portal's HTTP server", () => {
  it("streams an upload in, and serves whole files and ranges untouched by compression", async () => {
    const base = inject("baseUrl");
    const user = await activeUser("ipfsh");
    expect((await call("/test/fixtures", { grantCents: 1_000 }, user.token)).code).toBe(0);
    const nodes = (await call<any[]>("/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices", {}, user.token)).data;
    const created = (
      await call<any>(
        "/sys/ipfsBusiness/ipfs/create",
        { name: "http", storeUnit: 1, orgIds: [nodes[0].orgId], idempotencyKey: idem() },
        user.token,
      )
    ).data;
    const key = (kind: string) => created.keys.find((k: any) => k.kind === kind).apiKey;
    const text = Buffer.from("hello IPFS ".repeat(200_000));
    const form = new FormData();
    form.append("file", new Blob([text]), "hello.txt");
    const up = await fetch(`${base}/ipfs-gw/${nodes[0].orgCode}/upload`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key("upload")}` },
      body: form,
    });
    const added = (await up.json()) as any;
    expect(up.status, JSON.stringify(added)).toBe(200);
    expect(added).toMatchObject({ name: "hello.txt", size: text.length, contentType: "text/plain; charset=utf-8" });
    const url = `${base}/ipfs-gw/${nodes[0].orgCode}/ipfs/${added.cid}`;
    const whole = await fetch(url, { headers: { "X-Api-Key": key("download"), "Accept-Encoding": "gzip" } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-encoding")).toBeNull();
    expect(whole.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(Buffer.from(await whole.arrayBuffer()).equals(text)).toBe(true);
    const part = await fetch(url, {
      headers: { "X-Api-Key": key("download"), "Accept-Encoding": "gzip", Range: "bytes=11-21" },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 11-21/${text.length}`);
    expect(await part.text()).toBe("hello IPFS ");
    // A raw body without Content-Length past the free capacity: the answer still reaches the client.
    expect(
      (
        await call(
          "/test/ipfs/capacity",
          { ipfsServiceId: created.ipfsServiceId, capacityBytes: text.length + 1000 },
          user.token,
        )
      ).code,
    ).toBe(0);
    const chunk = randomBytes(256 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 8 * MiB) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const over = await fetch(`${base}/ipfs-gw/${nodes[0].orgCode}/upload?name=big.bin`, {
      method: "POST",
      headers: { "X-Api-Key": key("upload") },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(over.status).toBe(413);
    expect(((await over.json()) as any).code).toBe(Msg.IPFS_OVER_CAPACITY);
    const bigForm = new FormData();
    bigForm.append("file", new Blob([randomBytes(8 * MiB)]), "big.bin");
    const overForm = await fetch(`${base}/ipfs-gw/${nodes[0].orgCode}/upload`, {
      method: "POST",
      headers: { "X-Api-Key": key("upload") },
      body: bigForm,
    });
    expect(overForm.status).toBe(413);
    expect(((await overForm.json()) as any).code).toBe(Msg.IPFS_OVER_CAPACITY);
    const health = (await (await fetch(`${base}/healthz`)).json()) as any;
    expect(JSON.stringify(health)).toContain(`"engine":"${REMOTE ? "remote" : "embedded"}"`);
  });
});
