import { and, count, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { post as ledgerPost } from "#backend/domains/billing/ledger.ts";
import { makeTrafficBills, WEEKLY_TRAFFIC } from "#backend/domains/billing/jobs.ts";
import { billingSettings, bills, ledgerEntries, usageDaily } from "#backend/domains/billing/tables.ts";
import { AUTO_PAY, AUTO_PAY_OFFER, autoPayBill, sendAutoPayOffers } from "#backend/domains/billing/auto-pay.ts";
import { cityNodes, jobs, messages } from "#backend/db/tables.ts";
import { callVueapi, inProcessVueapi, insertedUser, sessionOf } from "./in-process.ts";

// The weekly traffic bills and the expiry rule depend on time: the service runs in-process with a clock
// the test moves (like expiry.test.ts), on its own embedded database.
// 2026-06-03 is a Wednesday; 12:00 in UTC+8.
let clock = new Date("2026-06-03T04:00:00Z");
const service = inProcessVueapi("billing-jobs", { DEMO: "0" }, () => clock);
let userId: number;
let operatorId: number;
const at = (iso: string) => {
  clock = new Date(iso);
};

/** Calls a path as a user, with a token issued at the current clock (a login lasts 12 hours). */
async function post(p: string, body: object = {}, as = userId) {
  return callVueapi(service, p, body, await sessionOf(service, as));
}

const newUser = (userName: string, role?: string) => insertedUser(service, userName, role);

async function nodeId(code: string) {
  const [row] = await service.services.db.select({ id: cityNodes.id }).from(cityNodes).where(eq(cityNodes.code, code));
  return row.id;
}

async function usage(day: string, code: string, trafficMb: number) {
  await service.services.db
    .insert(usageDaily)
    .values({ userId, day, cityNodeId: await nodeId(code), bytesIn: trafficMb * 1024 * 1024 });
}

async function trafficBills() {
  return service.services.db
    .select()
    .from(bills)
    .where(and(eq(bills.userId, userId), eq(bills.billType, 3)))
    .orderBy(bills.periodStart);
}

async function prepaidBill(billType: number, deadline: Date) {
  const [row] = await service.services.db
    .insert(bills)
    .values({
      billNo: `J${billType}${deadline.getTime()}`,
      userId,
      serviceName: "Clock service",
      billType,
      payMode: 1,
      cycle: 2,
      periodStart: clock,
      periodEnd: deadline,
      createdAt: clock,
      deadline,
      totalCents: 500,
      payCents: 500,
    })
    .returning();
  return row;
}

const pay = (billId: number, key = `k${Math.random().toString(36).slice(2)}`.padEnd(20, "0")) =>
  post("/sys/system/clientInfo/h5billPay", { billId, idempotencyKey: key });
const guard = async (payType: 1 | 2) => (await post("/sys/product/h5isHasNoPayBillV2", { payType })).data;
const consistent = async () => (await post("/ops/ledger/verify", { userId }, operatorId)).data.consistent;

beforeAll(async () => {
  userId = await newUser("clockuser1");
  operatorId = await newUser("clockoperator1", "operator");
  await service.services.db.transaction((tx) =>
    ledgerPost(tx, { userId, kind: "grant", amountCents: 10_000, refType: "grant", refId: userId }, clock),
  );
  // This user pays its bills by hand: auto-pay (on for a new account, ADR 059) is turned off.
  expect((await post("/sys/account/autoPay", { enabled: false })).data).toEqual({ autoPay: false });
});

describe("weekly data-traffic bills (SPEC §9 Billing, ADR 006)", () => {
  it("is scheduled at start and bills the last completed week it finds", async () => {
    const scheduled = await service.services.db.select().from(jobs).where(eq(jobs.kind, WEEKLY_TRAFFIC));
    // Started on Wednesday 3 June: the week of Monday 25 May is the last completed one.
    expect(scheduled.map((j) => j.dedupeKey)).toEqual([`${WEEKLY_TRAFFIC}:2026-05-25`]);
    await usage("2026-05-31", "CN-BJ-01", 2_048); // Sunday of that week
    await service.runJobs();
    const [bill] = await trafficBills();
    expect(bill).toMatchObject({
      totalCents: 24,
      payState: 1,
      payMode: 2,
      cycle: 99,
      billType: 3,
      dedupeKey: `traffic:${userId}:2026-05-25`,
    });
    expect(bill.periodStart.toISOString()).toBe("2026-05-24T16:00:00.000Z");
    expect(bill.periodEnd.toISOString()).toBe("2026-05-31T16:00:00.000Z");
    // The job scheduled the next week, once.
    const next = await service.services.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `${WEEKLY_TRAFFIC}:2026-06-01`));
    expect(next).toHaveLength(1);
    expect(next[0].runAt.toISOString()).toBe("2026-06-07T17:00:00.000Z"); // Monday 8 June 01:00 UTC+8
  });

  it("makes one bill per user and week from Monday to Sunday in UTC+8, each once", async () => {
    await usage("2026-06-01", "CN-BJ-01", 1_024);
    await usage("2026-06-02", "CN-BJ-01", 2_048);
    await usage("2026-06-02", "CN-SH-01", 512);
    await usage("2026-06-07", "CN-SH-01", 1_536);
    await usage("2026-06-07", "SG-01", 100);
    await usage("2026-06-08", "CN-BJ-01", 999); // next week
    at("2026-06-07T16:30:00Z"); // Monday 00:30 UTC+8: the run is at 01:00
    await service.runJobs();
    expect(await trafficBills()).toHaveLength(1);
    at("2026-06-07T17:30:00Z");
    await service.runJobs();
    await service.runJobs();
    const week = (await trafficBills())[1];
    expect(week.detail.dataUsage).toEqual([
      { nodeCode: "CN-BJ-01", usedGb: 3, pricePerGbCents: 12, amountCents: 36 },
      { nodeCode: "CN-SH-01", usedGb: 2, pricePerGbCents: 12, amountCents: 24 },
      { nodeCode: "SG-01", usedGb: 0.1, pricePerGbCents: 16, amountCents: 2 },
    ]);
    expect(week).toMatchObject({ totalCents: 62, payCents: 62, dedupeKey: `traffic:${userId}:2026-06-01` });
    expect(week.deadline.toISOString()).toBe("2026-06-14T17:30:00.000Z");
    // Running the week again makes nothing new.
    expect(await makeTrafficBills(service.services.db, "2026-06-01", clock)).toBe(0);
    expect(await trafficBills()).toHaveLength(2);
    const [{ n }] = await service.services.db
      .select({ n: count() })
      .from(jobs)
      .where(like(jobs.dedupeKey, `${WEEKLY_TRAFFIC}:%`));
    expect(n).toBe(3);
    const notices = await service.services.db
      .select()
      .from(messages)
      .where(and(eq(messages.userId, userId), eq(messages.textKey, "messages.trafficBill")));
    expect(notices).toHaveLength(2);
    // The detail names the city nodes in the caller's language.
    const zh = await post("/sys/system/clientInfo/h5billDetail", { billId: week.id, userLanguage: "zh-CN" });
    expect(zh.data.dataUsage.map((l: { nodeName: string }) => l.nodeName)).toEqual(["北京", "上海", "新加坡"]);
  });
});

describe("expiry and blocking (SPEC §4 status 10, §5 Blocking by bills, §8)", () => {
  it("expires unpaid prepaid bills at their deadline; unpaid usage bills block from their deadline and stay payable", async () => {
    // Pay the first week's bill; the second (62 cents) stays unpaid, and blocks nothing before its deadline (ADR 059).
    const [first, week] = await trafficBills();
    expect((await pay(first.id)).code).toBe(0);
    expect(await guard(1)).toBe(true);
    expect(await guard(2)).toBe(true);

    const publish = await prepaidBill(1, new Date(clock.getTime() + 3 * 86_400_000));
    const node = await prepaidBill(10, new Date(clock.getTime() + 3 * 86_400_000));
    const late = await prepaidBill(2, new Date(clock.getTime() - 60_000));
    // A prepaid bill past its deadline cannot be paid, even before the expiry job has run.
    expect((await pay(late.id)).message).toBe("MSG_30010");
    // The dedicated-node bill waiting for payment blocks dedicated nodes only.
    expect(await guard(1)).toBe(true);
    expect(await guard(2)).toBe(false);

    at(new Date(clock.getTime() + 3 * 86_400_000 + 2 * 3_600_000).toISOString());
    await service.runJobs();
    const states = await service.services.db
      .select({ id: bills.id, payState: bills.payState, releaseTime: bills.releaseTime })
      .from(bills)
      .where(eq(bills.userId, userId));
    const state = (id: number) => states.find((s) => s.id === id)!;
    expect(state(publish.id).payState).toBe(10);
    expect(state(publish.id).releaseTime).not.toBeNull();
    expect(state(node.id).payState).toBe(10);
    expect(state(late.id).payState).toBe(10);
    expect(state(week.id).payState).toBe(1);
    expect((await pay(publish.id)).message).toBe("MSG_30010");
    // The usage bill is not due yet (its deadline is 14 June): nothing blocks.
    expect(await guard(1)).toBe(true);
    expect(await guard(2)).toBe(true);
    const expiredNotices = await service.services.db
      .select()
      .from(messages)
      .where(and(eq(messages.userId, userId), eq(messages.textKey, "messages.billExpired")));
    expect(expiredNotices).toHaveLength(3);

    // Past its own deadline the usage bill does not expire: overdue, blocking from then on, still payable.
    at("2026-06-20T04:00:00Z");
    await service.runJobs();
    const detail = (await post("/sys/system/clientInfo/h5billDetail", { billId: week.id })).data;
    expect(detail).toMatchObject({ payState: 1, overdue: true, payable: true });
    expect(await guard(1)).toBe(false);
    expect(await guard(2)).toBe(false);
    expect((await pay(week.id)).code).toBe(0);
    // Meanwhile the week of 8 June was billed (999 MB in Beijing): within its 7 days it blocks nothing yet.
    const third = (await trafficBills())[2];
    expect(third).toMatchObject({ totalCents: 12, payState: 1, dedupeKey: `traffic:${userId}:2026-06-08` });
    expect(await guard(1)).toBe(true);
    at(third.deadline.toISOString());
    expect(await guard(1)).toBe(false);
    expect((await pay(third.id)).code).toBe(0);
    expect(await guard(1)).toBe(true);
    expect(await guard(2)).toBe(true);
    expect(await consistent()).toBe(true);
    expect((await post("/sys/account/summary")).data).toMatchObject({
      balanceCents: 10_000 - 24 - 62 - 12,
      unpaidBills: 0,
    });
  });
});

describe("auto-pay of usage bills from the balance (docs/decisions/059)", () => {
  let rich: number;
  let poor: number;
  const grant = (to: number, cents: number) =>
    service.services.db.transaction((tx) =>
      ledgerPost(tx, { userId: to, kind: "grant", amountCents: cents, refType: "grant", refId: to }, clock),
    );
  const billOf = async (owner: number) =>
    (
      await service.services.db
        .select()
        .from(bills)
        .where(and(eq(bills.userId, owner), eq(bills.dedupeKey, `traffic:${owner}:2026-06-15`)))
    )[0];
  const messagesOf = (owner: number, textKey: string) =>
    service.services.db
      .select()
      .from(messages)
      .where(and(eq(messages.userId, owner), eq(messages.textKey, textKey)));
  const paymentsOf = (billId: number) =>
    service.services.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refType, "bill"), eq(ledgerEntries.refId, billId)));

  it("pays a new account's usage bill when it is issued; a short balance says 'Deduction failed' at once; off means by hand", async () => {
    rich = await newUser("autopayrich");
    poor = await newUser("autopaypoor");
    await grant(rich, 1_000);
    await grant(poor, 5);
    // New accounts have auto-pay on (no settings row); the account summary says so.
    expect((await post("/sys/account/summary", {}, rich)).data.autoPay).toBe(true);
    const beijing = await nodeId("CN-BJ-01");
    await service.services.db.insert(usageDaily).values([
      { userId: rich, day: "2026-06-16", cityNodeId: beijing, bytesIn: 2_048 * 1024 * 1024 },
      { userId: poor, day: "2026-06-16", cityNodeId: beijing, bytesIn: 2_048 * 1024 * 1024 },
      { userId, day: "2026-06-16", cityNodeId: beijing, bytesIn: 2_048 * 1024 * 1024 },
    ]);
    // The week of 15 June is billed (its run was due on the 22nd); each bill's auto-payment is a job of its own.
    await service.runJobs();
    await service.runJobs();
    const paid = await billOf(rich);
    expect(paid).toMatchObject({ totalCents: 24, payState: 15, payType: "BALANCE" });
    const said = await messagesOf(rich, "messages.billAutoPaid");
    expect(said.map((m) => m.params)).toEqual([{ billNo: paid.billNo, amount: "0.24" }]);
    expect((await post("/sys/account/summary", {}, rich)).data).toMatchObject({ balanceCents: 976, unpaidBills: 0 });

    const unpaid = await billOf(poor);
    expect(unpaid).toMatchObject({ totalCents: 24, payState: 1 });
    const failed = await messagesOf(poor, "messages.autoPayFailed");
    expect(failed.map((m) => m.params)).toEqual([
      { billNo: unpaid.billNo, amount: "0.24", balance: "0.05", deadline: unpaid.deadline.toISOString() },
    ]);
    expect(await paymentsOf(unpaid.id)).toEqual([]);
    // Not due yet: it blocks nothing until its deadline.
    expect((await post("/sys/product/h5isHasNoPayBillV2", { payType: 1 }, poor)).data).toBe(true);

    // Auto-pay off: no auto-payment was scheduled and the bill waits to be paid by hand.
    const byHand = await billOf(userId);
    expect(byHand.payState).toBe(1);
    const scheduled = await service.services.db.select().from(jobs).where(eq(jobs.kind, AUTO_PAY));
    expect(scheduled.map((j) => j.dedupeKey).sort()).toEqual(
      [`${AUTO_PAY}:${paid.id}`, `${AUTO_PAY}:${unpaid.id}`].sort(),
    );
    expect(await consistent()).toBe(true);
  });

  it("never debits twice: a second run, or two at once, pay the bill once", async () => {
    const paid = await billOf(rich);
    expect(await autoPayBill(service.services.db, paid.id, clock)).toBe("skipped");
    expect(await paymentsOf(paid.id)).toHaveLength(1);
    // The short account recharges; two processes run its auto-payment at once: one pays, the other finds it paid.
    const unpaid = await billOf(poor);
    await grant(poor, 100);
    const outcomes = await Promise.all([
      autoPayBill(service.services.db, unpaid.id, clock),
      autoPayBill(service.services.db, unpaid.id, clock),
    ]);
    expect(outcomes.sort()).toEqual(["paid", "skipped"]);
    expect(await paymentsOf(unpaid.id)).toHaveLength(1);
    expect((await billOf(poor)).payState).toBe(15);
    // Turned off in the meantime, a pending auto-payment pays nothing.
    expect((await post("/sys/account/autoPay", { enabled: false }, rich)).data).toEqual({ autoPay: false });
    expect((await post("/sys/account/summary", {}, rich)).data.autoPay).toBe(false);
  });

  it("offers auto-pay once to the accounts that existed before it", async () => {
    const [scheduled] = await service.services.db.select().from(jobs).where(eq(jobs.kind, AUTO_PAY_OFFER));
    expect(scheduled.dedupeKey).toBe(AUTO_PAY_OFFER);
    const old = await newUser("autopayold");
    const decided = await newUser("autopaydecided");
    // As migration 0031 leaves them: off, the offer pending; one account turned it on before the offer went out.
    await service.services.db.insert(billingSettings).values([
      { userId: old, autoPay: false, offerPending: true },
      { userId: decided, autoPay: false, offerPending: true },
    ]);
    expect((await post("/sys/account/autoPay", { enabled: true }, decided)).data).toEqual({ autoPay: true });
    expect(await sendAutoPayOffers(service.services.db, clock)).toBe(1);
    expect(await sendAutoPayOffers(service.services.db, clock)).toBe(0);
    expect(await messagesOf(old, "messages.autoPayOffer")).toHaveLength(1);
    expect(await messagesOf(decided, "messages.autoPayOffer")).toHaveLength(0);
    expect((await post("/sys/account/summary", {}, old)).data.autoPay).toBe(false);
  });
});
