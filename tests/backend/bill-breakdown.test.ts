import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { BillType, NAMED_BILL_TYPES } from "#contract/billing-codes.ts";
import { Msg } from "#contract/messages.ts";
import billing from "#backend/domains/billing/index.ts";
import { makeCrossChainBills, makeIpfsTrafficBills, makeTrafficBills } from "#backend/domains/billing/jobs.ts";
import { post as ledgerPost } from "#backend/domains/billing/ledger.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { weekStartOf } from "#backend/domains/billing/time.ts";
import { crossChainCalls } from "#backend/domains/cross-chain/tables.ts";
import { meterOf as ipfsMeterOf } from "#backend/domains/ipfs/meter.ts";
import { ipfsServices } from "#backend/domains/ipfs/tables.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { callVueapi, inProcessVueapi, insertedUser, sessionOf } from "./in-process.ts";

// issue 35 §3 "Money traced end to end" (docs/decisions/093): every bill type's breakdown adds up to the bill to
// the cent. The weekly usage bills are made by the billing jobs from what the meters counted, on this file's own
// database (embedded, or PostgreSQL when DATABASE_URL is set: it runs in both backend stages); the others come from
// the bill fixtures. 2026-06-03 is a Wednesday, 12:00 UTC+8.
let clock = new Date("2026-06-03T04:00:00Z");
const service = inProcessVueapi("bill-breakdown", { DEMO: "0", TEST_FIXTURES: "1" }, () => clock);
let userId: number;
let otherId: number;

const post = async (p: string, body: object, as = userId) => callVueapi(service, p, body, await sessionOf(service, as));
const breakdown = (billId: number, as = userId) => post("/sys/system/clientInfo/billBreakdown", { billId }, as);

async function nodes() {
  return service.services.db.select().from(cityNodes).orderBy(cityNodes.id).limit(2);
}

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

  it("IPFS traffic (4, weekly): a line per day, gateway and IPFS service", async () => {
    const [a, b] = await nodes();
    const [svc] = await service.services.db
      .insert(ipfsServices)
      .values({
        userId,
        name: "Breakdown files",
        storeUnit: 1,
        capacityBytes: 1024 ** 3,
        idempotencyKey: "breakdown-ipfs",
        createdAt: clock,
        expiresAt: new Date(clock.getTime() + 30 * 86_400_000),
      })
      .returning();
    const meter = ipfsMeterOf(service.services);
    meter.add(svc.id, a.id, "2026-06-01", "bafyone", 5_555_555_555);
    meter.add(svc.id, b.id, "2026-06-03", "bafyone", 4_444_444_443);
    meter.add(svc.id, a.id, "2026-06-07", "bafytwo", 999_999_999);
    await meter.flush();
    expect(await makeIpfsTrafficBills(service.services.db, weekStart, clock, [userId])).toBe(1);
    const [bill] = await service.services.db
      .select()
      .from(bills)
      .where(and(eq(bills.userId, userId), eq(bills.dedupeKey, `ipfs-traffic:${userId}:${weekStart}`)));
    const data = await addsUp(bill.id);
    const lines = data.lines.filter((l: any) => l.kind === "ipfsTraffic");
    expect(lines.map((l: any) => l.day)).toEqual(["2026-06-01", "2026-06-03", "2026-06-07"]);
    expect(lines[0]).toMatchObject({ subject: "Breakdown files", ref: { kind: "ipfsService", ipfsServiceId: svc.id } });
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

  it("every other bill type: its one cause or its period, all of its amount", async () => {
    const others = NAMED_BILL_TYPES.filter((t) => t !== BillType.DATA_TRAFFIC && t !== BillType.CROSS_CHAIN);
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
