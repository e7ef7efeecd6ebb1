import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { BillType, NAMED_BILL_TYPES } from "#contract/billing-codes.ts";
import { Msg } from "#contract/messages.ts";
import billing from "#backend/domains/billing/index.ts";
import { makeCrossChainBills, makeIpfsTrafficBills, makeTrafficBills } from "#backend/domains/billing/jobs.ts";
import { post as ledgerPost } from "#backend/domains/billing/ledger.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { weekStartOf } from "#backend/domains/billing/time.ts";
import chain from "#backend/domains/chain/index.ts";
import { crossChainCalls } from "#backend/domains/cross-chain/tables.ts";
import { ddcs, ddcTransfers } from "#backend/domains/ddc/tables.ts";
import { meterOf as ipfsMeterOf } from "#backend/domains/ipfs/meter.ts";
import { ipfsTrafficDaily, ipfsTrafficFilesDaily } from "#backend/domains/ipfs/tables.ts";
import { pubChainGas } from "#backend/domains/public-chain/tables.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { callVueapi, inProcessVueapi, insertedUser, ownDatabase, sessionOf, uploadVueapi } from "./in-process.ts";
import { idempotencyKeys } from "../support/ids.ts";

// issue 35 §3 "Money traced end to end" (docs/decisions/093): every bill type's breakdown adds up to the bill to
// the cent. The weekly usage bills are made by the billing jobs from what the meters counted (the IPFS traffic from
// files really downloaded through the gateways), the gas and DDC bills by assigning gas and minting and transferring
// a DDC on the embedded chain, the others come from the bill fixtures. On this file's own database (embedded, or a
// PostgreSQL database of its own when DATABASE_URL is set: its clock is held still, and the blocks its chain seals
// under that clock must not meet another file's): it runs in both backend stages. 2026-06-03 is a Wednesday, 12:00
// UTC+8.
let clock = new Date("2026-06-03T04:00:00Z");
const service = inProcessVueapi(
  "bill-breakdown",
  {
    DEMO: "0",
    TEST_FIXTURES: "1",
    DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
    PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
  },
  () => clock,
);
const idem = idempotencyKeys("breakdown");
let userId: number;
let otherId: number;

const post = async (p: string, body: object, as = userId) => callVueapi(service, p, body, await sessionOf(service, as));
const breakdown = (billId: number, as = userId) => post("/sys/system/clientInfo/billBreakdown", { billId }, as);

async function nodes() {
  return service.services.db.select().from(cityNodes).orderBy(cityNodes.id).limit(2);
}

/** A request to an IPFS gateway (backend/domains/ipfs/gateway.ts), as the portal's server hands it over. */
const gateway = (method: string, p: string, headers: Record<string, string>, body?: Uint8Array) =>
  service.serveEndpoint(
    new Request(`http://test.invalid${p}`, {
      method,
      headers,
      ...(body ? { body: Buffer.from(body), duplex: "half" } : {}),
    } as RequestInit),
  );

/** A transaction's receipt from the embedded open-alliance chain. */
const receiptOf = async (hash: string) =>
  (await chain.api.request(service.services, chain.api.OPEN_ALLIANCE, {
    method: "eth_getTransactionReceipt",
    params: [hash],
  })) as { status: string; transactionHash: string; to: string | null } | null;

/** The breakdown of a bill, checked: lines sum to its total exactly, every amount an integer of cents. */
async function addsUp(billId: number) {
  const reply = await breakdown(billId);
  expect(reply.code, reply.message).toBe(0);
  const [bill] = await service.services.db.select().from(bills).where(eq(bills.id, billId));
  const sum = reply.data.lines.reduce((s: number, l: { amountCents: number }) => s + l.amountCents, 0);
  expect(sum).toBe(bill.totalCents);
  expect(reply.data.totalCents).toBe(bill.totalCents);
  for (const l of reply.data.lines) expect(Number.isInteger(l.amountCents)).toBe(true);
  return reply.data;
}

const weekStart = weekStartOf(clock);

beforeAll(async () => {
  userId = await insertedUser(service, "breakdown1");
  otherId = await insertedUser(service, "breakdown2");
  await service.services.db.transaction((tx) =>
    ledgerPost(tx, { userId, kind: "grant", amountCents: 100_000, refType: "grant", refId: userId }, clock),
  );
});

describe("a bill's breakdown adds up to the bill", () => {
  it("data traffic (3): a line per day, city node, service and method, and the rounding", async () => {
    const [a, b] = await nodes();
    const app = (await post("/test/services", { name: "Breakdown chain" })).data;
    // Odd byte counts, so that the rows rounded one by one differ from the node's rounded total.
    const meter = (day: string, cityNodeId: number, method: string, bytesIn: number) => {
      clock = new Date(`${day}T04:00:00Z`);
      billing.api.meterTraffic(service.services, {
        userId,
        cityNodeId,
        appId: app.appId,
        joinId: 0,
        callerId: null,
        method,
        calls: 3,
        bytesIn,
        bytesOut: 17,
      });
    };
    meter("2026-06-01", a.id, "eth_call", 3_333_333_337);
    meter("2026-06-01", a.id, "eth_getBalance", 1_111_111_111);
    meter("2026-06-02", a.id, "eth_call", 2_222_222_229);
    meter("2026-06-02", b.id, "eth_sendRawTransaction", 7_777_777_771);
    await billing.api.flushTraffic(service.services);
    clock = new Date("2026-06-08T02:00:00Z");
    expect(await makeTrafficBills(service.services.db, weekStart, clock, [userId])).toBe(1);
    const [bill] = await service.services.db
      .select()
      .from(bills)
      .where(and(eq(bills.userId, userId), eq(bills.billType, BillType.DATA_TRAFFIC)));
    const data = await addsUp(bill.id);
    const traffic = data.lines.filter((l: any) => l.kind === "traffic");
    expect(traffic).toHaveLength(4);
    expect(traffic.map((l: any) => [l.day, l.method, l.subject])).toContainEqual([
      "2026-06-02",
      "eth_sendRawTransaction",
      "Breakdown chain",
    ]);
    expect(traffic[0]).toMatchObject({ calls: 3, ref: { kind: "service", appId: app.appId } });
    expect(data.lines.filter((l: any) => l.kind === "unitemised")).toEqual([]);
  });

  it("IPFS traffic (4, weekly): a line per day, gateway, IPFS service and file downloaded; older traffic not by file", async () => {
    clock = new Date("2026-06-03T04:00:00Z");
    const db = service.services.db;
    const gateways = (await post("/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices", {})).data.slice(0, 2) as {
      orgId: number;
      orgCode: string;
    }[];
    const created = await post("/sys/ipfsBusiness/ipfs/create", {
      name: "Breakdown files",
      storeUnit: 1,
      orgIds: gateways.map((g) => g.orgId),
      idempotencyKey: idem(),
    });
    expect(created.code, created.message).toBe(0);
    const svc = created.data;
    const key = (kind: string) => svc.keys.find((k: any) => k.kind === kind).apiKey as string;
    const node = async (code: string) => (await db.select().from(cityNodes).where(eq(cityNodes.code, code)))[0];
    const [nodeA, nodeB] = [await node(gateways[0].orgCode), await node(gateways[1].orgCode)];
    // Traffic metered before the meter kept files (migration 0050): day rows without file rows, one of them on the
    // day and gateway the files below are served from.
    await db.insert(ipfsTrafficDaily).values([
      { serviceId: svc.ipfsServiceId, cityNodeId: nodeA.id, day: "2026-06-01", bytes: 5_555_555_555 },
      { serviceId: svc.ipfsServiceId, cityNodeId: nodeB.id, day: "2026-06-03", bytes: 4_444_444_443 },
    ]);
    const upload = async (name: string, bytes: Uint8Array) => {
      const res = await gateway(
        "POST",
        `/ipfs-gw/${gateways[0].orgCode}/upload`,
        {
          Authorization: `Bearer ${key("upload")}`,
          "X-File-Name": encodeURIComponent(name),
          "Content-Type": "application/octet-stream",
        },
        bytes,
      );
      expect(res.status).toBe(200);
      return (await res.json()) as { cid: string; ipfsFileId: number; size: number };
    };
    const report = await upload("report.pdf", randomBytes(300_007));
    const photo = await upload("photo.bin", randomBytes(200_003));
    const served = new Map<string, number>();
    const download = async (code: string, cid: string) => {
      const res = await gateway("GET", `/ipfs-gw/${code}/ipfs/${cid}`, { "X-Api-Key": key("download") });
      expect(res.status).toBe(200);
      const n = (await res.arrayBuffer()).byteLength;
      served.set(`${code} ${cid}`, (served.get(`${code} ${cid}`) ?? 0) + n);
    };
    for (let i = 0; i < 3; i++) await download(gateways[0].orgCode, report.cid);
    await download(gateways[1].orgCode, report.cid);
    for (let i = 0; i < 2; i++) await download(gateways[1].orgCode, photo.cid);
    await ipfsMeterOf(service.services).flush();
    // Written together: each day and gateway's files add up to its row, but for the older traffic.
    const files = await db
      .select()
      .from(ipfsTrafficFilesDaily)
      .where(eq(ipfsTrafficFilesDaily.serviceId, svc.ipfsServiceId));
    expect(files.map((f) => [f.cityNodeId, f.cid, f.bytes]).sort()).toEqual(
      [
        [nodeA.id, report.cid, 3 * 300_007],
        [nodeB.id, report.cid, 300_007],
        [nodeB.id, photo.cid, 2 * 200_003],
      ].sort(),
    );
    // The service no longer keeps the photo: its line names the CID.
    const files0 = await post("/sys/ipfsBusiness/ipfs/files", {
      ipfsServiceId: svc.ipfsServiceId,
      pageIndex: 1,
      pageSize: 10,
    });
    const photoId = files0.data.page.rows.find((f: any) => f.cid === photo.cid).ipfsFileId;
    expect(
      (await post("/sys/ipfsBusiness/ipfs/unpin", { ipfsServiceId: svc.ipfsServiceId, ipfsFileId: photoId })).code,
    ).toBe(0);

    expect(await makeIpfsTrafficBills(db, weekStart, new Date("2026-06-08T02:00:00Z"), [userId])).toBe(1);
    const [bill] = await db
      .select()
      .from(bills)
      .where(and(eq(bills.userId, userId), eq(bills.dedupeKey, `ipfs-traffic:${userId}:${weekStart}`)));
    const data = await addsUp(bill.id);
    const lines = data.lines.filter((l: any) => l.kind === "ipfsTraffic");
    expect(lines.every((l: any) => l.subject === "Breakdown files" && l.ref.ipfsServiceId === svc.ipfsServiceId)).toBe(
      true,
    );
    // The files downloaded, by gateway, with their bytes; the older traffic one line per day and gateway, without a CID.
    const byFile = lines.filter((l: any) => l.cid !== null);
    expect(new Set(byFile.map((l: any) => l.cid))).toEqual(new Set([report.cid, photo.cid]));
    const placeOf = { [nodeA.name]: gateways[0].orgCode, [nodeB.name]: gateways[1].orgCode };
    expect(byFile.map((l: any) => [`${placeOf[l.place]} ${l.cid}`, l.bytes]).sort()).toEqual([...served].sort());
    expect(byFile.find((l: any) => l.cid === report.cid).fileName).toBe("report.pdf");
    expect(byFile.find((l: any) => l.cid === photo.cid).fileName).toBeNull();
    expect(lines.filter((l: any) => l.cid === null).map((l: any) => [l.day, l.place, l.bytes])).toEqual([
      ["2026-06-01", nodeA.name, 5_555_555_555],
      ["2026-06-03", nodeB.name, 4_444_444_443],
    ]);
    expect(data.lines.filter((l: any) => l.kind === "unitemised")).toEqual([]);
  });

  it("cross-chain calls (5): a line per call, with its transaction hash", async () => {
    clock = new Date("2026-06-03T04:00:00Z");
    const app = (await post("/test/services", { name: "Breakdown source" })).data;
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await post("/test/crossChain/call", { appId: app.appId })).data);
    for (const c of made)
      await service.services.db.update(crossChainCalls).set({ feeCents: 7 }).where(eq(crossChainCalls.id, c.callId));
    expect(await makeCrossChainBills(service.services.db, weekStart, new Date("2026-06-08T02:00:00Z"), [userId])).toBe(
      1,
    );
    const [bill] = await service.services.db
      .select()
      .from(bills)
      .where(and(eq(bills.userId, userId), eq(bills.billType, BillType.CROSS_CHAIN)));
    expect(bill.totalCents).toBe(21);
    const data = await addsUp(bill.id);
    expect(data.lines).toHaveLength(3);
    expect(data.lines.every((l: any) => /^0x[0-9a-f]{64}$/.test(l.txHash) && l.ref.kind === "crossChainCall")).toBe(
      true,
    );
  });

  it("assign gas (50), mint and transfer a DDC (91, 92): each line the transaction the chain returned", async () => {
    // After every other clock of this file: the chain's blocks go forward in time.
    clock = new Date("2026-06-10T04:00:00Z");
    const ok = async (p: string, body: object) => {
      const reply = await post(p, body);
      expect(reply.code, `${p}: ${reply.message}`).toBe(0);
      return reply.data;
    };
    const orgs = await ok("/sys/pubChainOrg/queryPubOrgList", { page: { pageSize: 10, pageIndex: 1, condition: {} } });
    const plan = await ok("/sys/opc/plan/buy", { orgId: orgs.page.rows[0].orgId, idempotencyKey: idem() });
    const project = await ok("/sys/opc/project/create", {
      planId: plan.planId,
      name: "Breakdown project",
      framework: "evm",
      dailyRequests: "1000",
    });
    for (let i = 0; i < 20 && (await ok("/sys/opc/project/detail", project)).status !== 11; i++)
      await service.runJobs();
    const account = await ok("/sys/opc/account/create", {
      projectId: project.projectId,
      name: "Breakdown wallet",
      keyType: "1",
      gasWarning: "0.01",
    });
    const { address } = await ok("/sys/opc/account/detail", { accountId: account.accountId });

    // Gas: the transfer's hash, mined on the chain to the account.
    const gas = await ok("/sys/opc/account/assignGas", {
      accountId: account.accountId,
      amount: "5.00",
      idempotencyKey: idem(),
    });
    const [gasRow] = await service.services.db.select().from(pubChainGas).where(eq(pubChainGas.billId, gas.billId));
    expect(gasRow.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const gasLines = (await addsUp(gas.billId)).lines;
    expect(gasLines).toHaveLength(1);
    expect(gasLines[0]).toMatchObject({
      kind: "gas",
      txHash: gasRow.txHash,
      subject: "Breakdown wallet",
      place: address,
    });
    const gasReceipt = await receiptOf(gasLines[0].txHash);
    expect(gasReceipt).toMatchObject({ status: "0x1", transactionHash: gasRow.txHash });
    expect(gasReceipt!.to?.toLowerCase()).toBe(address.toLowerCase());

    // A DDC minted, then transferred: each bill's line is its token and the transaction that made it.
    const upload = await uploadVueapi(
      service,
      "ddc",
      "note.txt",
      Buffer.from("a plain note"),
      await sessionOf(service, userId),
    );
    expect(upload.code, upload.message).toBe(0);
    const minted = await ok("/sys/ddc/mint", {
      projectId: project.projectId,
      accountId: account.accountId,
      name: "Breakdown certificate",
      description: "Traced to its transaction",
      metadata: [],
      storage: "product",
      file: { uploadId: upload.data.uploadId },
      idempotencyKey: idem(),
    });
    const moved = await ok("/sys/ddc/transfer", {
      ddcId: minted.ddcId,
      to: privateKeyToAccount(generatePrivateKey()).address,
    });
    expect(moved.owner).not.toBe(address);
    const [ddc] = await service.services.db.select().from(ddcs).where(eq(ddcs.id, minted.ddcId));
    const [sent] = await service.services.db.select().from(ddcTransfers).where(eq(ddcTransfers.ddcId, minted.ddcId));
    expect(ddc.billId).not.toBeNull();
    expect(sent.billId).not.toBeNull();
    for (const [billId, kind, hash] of [
      [ddc.billId!, "ddcMint", minted.mintTxHash],
      [sent.billId!, "ddcTransfer", sent.txHash],
    ] as const) {
      expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
      const lines = (await addsUp(billId)).lines;
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ kind, txHash: hash, ref: { kind: "ddc", ddcId: minted.ddcId } });
      expect(await receiptOf(lines[0].txHash)).toMatchObject({ status: "0x1", transactionHash: hash });
    }
    const [mintBill] = await service.services.db.select().from(bills).where(eq(bills.id, ddc.billId!));
    expect(mintBill.billType).toBe(BillType.MINT_DDC);
  });

  it("every other bill type: its one cause or its period, all of its amount", async () => {
    const real: number[] = [BillType.DATA_TRAFFIC, BillType.CROSS_CHAIN, BillType.ASSIGN_GAS, BillType.MINT_DDC];
    const others = NAMED_BILL_TYPES.filter((t) => !real.includes(t) && t !== BillType.TRANSFER_DDC);
    const { billIds } = (
      await post("/test/fixtures", {
        bills: [
          ...others.map((billType, i) => ({ billType, totalCents: 1_234 + i, cycle: 2 as const })),
          // An IPFS bill paid by use that no meter row explains (made by hand): shown as not itemised.
          { billType: BillType.IPFS, totalCents: 999, cycle: 99 as const },
        ],
      })
    ).data;
    expect(billIds).toHaveLength(others.length + 1);
    for (const [i, billId] of billIds.entries()) {
      const data = await addsUp(billId);
      const kinds = data.lines.map((l: any) => l.kind);
      if (i === others.length) expect(kinds).toEqual(["unitemised"]);
      else expect(kinds).toHaveLength(1);
    }
  });
});

describe("only the owner's bills", () => {
  it("another account's bill is not found, exactly like an unknown id", async () => {
    const [bill] = await service.services.db.select().from(bills).where(eq(bills.userId, userId)).limit(1);
    const foreign = await breakdown(bill.id, otherId);
    const unknown = await breakdown(2_000_000_000, otherId);
    expect(foreign.message).toBe(Msg.NOT_FOUND);
    expect({ ...foreign, data: null }).toEqual({ ...unknown, data: null });
    expect(foreign.data ?? null).toBeNull();
  });
});
