import { and, asc, count, desc, eq, gte, inArray, lt, lte, sum, type SQL } from "drizzle-orm";

import type { z } from "zod";
import {
  DUE_LIMIT,
  EXPORT_LIMIT,
  type billPayManyPayloadSchema,
  type DueBills,
  type dueBillsPayloadSchema,
  PayState,
  UNPAID_STATES,
  type BillDetail,
  type billFilterSchema,
  type billListPayloadSchema,
  type billPayPayloadSchema,
  type BillRow,
  type LedgerEntryKind,
  type transactionListPayloadSchema,
} from "#contract/billing.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes, messages } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import type { Language } from "#backend/mail.ts";
import { invoiceApplications } from "#backend/domains/invoices/tables.ts";
import { cards, payments, withdrawals } from "#backend/domains/payments/tables.ts";
import { isPayable, mbToGb, usd } from "./rules.ts";
import { derivedTotals, post, totalsOf, type Totals } from "./ledger.ts";
import { blockingWhere, payableNowWhere } from "./figures.ts";
import { bills, ledgerEntries, usageDaily } from "./tables.ts";
import { addDays, dayOf, daysBetween, startOfDay } from "./time.ts";

const RECENT = 5;

/** /sys/account/summary: the wallet, the saved card, the last recharges and withdrawals, unpaid bills. */
export async function accountSummary(_input: unknown, { services, user }: SignedInContext) {
  const me = user;
  const db = services.db;
  const [totals, [card], recharges, cashOuts, [{ unpaid }]] = await Promise.all([
    totalsOf(db, me.id),
    db.select().from(cards).where(eq(cards.userId, me.id)),
    db
      .select()
      .from(payments)
      .where(and(eq(payments.userId, me.id), eq(payments.purpose, "recharge")))
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(RECENT),
    db
      .select()
      .from(withdrawals)
      .where(eq(withdrawals.userId, me.id))
      .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
      .limit(RECENT),
    db
      .select({ unpaid: count() })
      .from(bills)
      .where(and(eq(bills.userId, me.id), inArray(bills.payState, [...UNPAID_STATES]))),
  ]);
  return {
    ...totals,
    card: card ? { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear } : null,
    recharges: recharges.map((p) => ({
      paymentNo: p.paymentNo,
      amountCents: p.amountCents,
      payType: p.payType,
      status: p.status,
      createdAt: p.createdAt.toISOString(),
      paidAt: p.paidAt ? p.paidAt.toISOString() : null,
    })),
    withdrawals: cashOuts.map((w) => ({
      withdrawalNo: w.withdrawalNo,
      amountCents: w.amountCents,
      state: w.state,
      createdAt: w.createdAt.toISOString(),
      expectedArrival: w.expectedArrival,
    })),
    unpaidBills: unpaid,
  };
}

/** /sys/account/transactions: the caller's ledger entries, newest first, with the number of what each is about. */
export async function listTransactions(
  input: z.output<typeof transactionListPayloadSchema>,
  { services, user }: SignedInContext,
) {
  const me = user;
  const { pageSize, pageIndex, condition } = input.page;
  const filters: SQL[] = [eq(ledgerEntries.userId, me.id)];
  if (condition.kind) filters.push(eq(ledgerEntries.kind, condition.kind));
  if (condition.dateFrom) filters.push(gte(ledgerEntries.createdAt, startOfDay(condition.dateFrom)));
  if (condition.dateTo) filters.push(lt(ledgerEntries.createdAt, startOfDay(addDays(condition.dateTo, 1))));
  const where = and(...filters);
  const ref = (
    type: string,
    id: typeof bills.id | typeof payments.id | typeof withdrawals.id | typeof invoiceApplications.id,
  ) => and(eq(ledgerEntries.refType, type), eq(id, ledgerEntries.refId));
  const [rows, [{ total }]] = await Promise.all([
    services.db
      .select({
        entry: ledgerEntries,
        billNo: bills.billNo,
        billId: bills.id,
        paymentNo: payments.paymentNo,
        withdrawalNo: withdrawals.withdrawalNo,
        applicationNo: invoiceApplications.applicationNo,
      })
      .from(ledgerEntries)
      .leftJoin(bills, and(ref("bill", bills.id), eq(bills.userId, me.id)))
      .leftJoin(payments, and(ref("payment", payments.id), eq(payments.userId, me.id)))
      .leftJoin(withdrawals, and(ref("withdrawal", withdrawals.id), eq(withdrawals.userId, me.id)))
      .leftJoin(invoiceApplications, and(ref("invoice", invoiceApplications.id), eq(invoiceApplications.userId, me.id)))
      .where(where)
      .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize),
    services.db.select({ total: count() }).from(ledgerEntries).where(where),
  ]);
  return {
    page: {
      rows: rows.map(({ entry: e, billNo, billId, paymentNo, withdrawalNo, applicationNo }) => ({
        entryId: e.id,
        kind: e.kind as LedgerEntryKind,
        balanceDelta: e.balanceDelta,
        withdrawableDelta: e.withdrawableDelta,
        invoiceableDelta: e.invoiceableDelta,
        balanceAfter: e.balanceAfter,
        refType: e.refType,
        refId: e.refId,
        reference: billNo ?? paymentNo ?? withdrawalNo ?? applicationNo ?? null,
        billId: billId ?? null,
        createdAt: e.createdAt.toISOString(),
      })),
      total,
      pageIndex,
      pageSize,
    },
  };
}

/** /sys/account/usage30: data traffic of the last 30 UTC+8 days (today included) per city node, in GB. */
export async function usage30(_input: unknown, { services, user, language }: SignedInContext) {
  const me = user;
  const today = dayOf(services.now());
  const days = daysBetween(addDays(today, -29), today);
  const rows = await services.db
    .select({
      day: usageDaily.day,
      mb: usageDaily.trafficMb,
      code: cityNodes.code,
      name: cityNodes.name,
      nameZh: cityNodes.nameZh,
      nodeId: cityNodes.id,
    })
    .from(usageDaily)
    .innerJoin(cityNodes, eq(cityNodes.id, usageDaily.cityNodeId))
    .where(and(eq(usageDaily.userId, me.id), gte(usageDaily.day, days[0]), lte(usageDaily.day, today)))
    .orderBy(asc(cityNodes.id));
  const index = new Map(days.map((d, i) => [d, i]));
  const byNode = new Map<string, { nodeCode: string; nodeName: string; mb: number[] }>();
  for (const r of rows) {
    let node = byNode.get(r.code);
    if (!node)
      byNode.set(
        r.code,
        (node = { nodeCode: r.code, nodeName: language === "zh-CN" ? r.nameZh : r.name, mb: days.map(() => 0) }),
      );
    node.mb[index.get(r.day)!] += r.mb;
  }
  const nodes = [...byNode.values()].map((n) => ({
    nodeCode: n.nodeCode,
    nodeName: n.nodeName,
    gb: n.mb.map(mbToGb),
    totalGb: mbToGb(n.mb.reduce((s, v) => s + v, 0)),
  }));
  return { days, nodes, totalGb: mbToGb(rows.reduce((s, r) => s + r.mb, 0)) };
}

const same = (a: Totals, b: Totals) =>
  a.balanceCents === b.balanceCents &&
  a.withdrawableCents === b.withdrawableCents &&
  a.invoiceableCents === b.invoiceableCents;

/**
 * /ops/ledger/verify (operators): the wallet against the sums of the user's ledger entries and against
 * the running totals of the last entry. `consistent` is true when all three agree.
 */
export async function verifyLedger(input: { userId: number }, { services }: SignedInContext) {
  const db = services.db;
  const [wallet, derived, [last], [{ entries }]] = await Promise.all([
    totalsOf(db, input.userId),
    derivedTotals(db, input.userId),
    db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, input.userId))
      .orderBy(desc(ledgerEntries.id))
      .limit(1),
    db.select({ entries: count() }).from(ledgerEntries).where(eq(ledgerEntries.userId, input.userId)),
  ]);
  const running: Totals = last
    ? {
        balanceCents: last.balanceAfter,
        withdrawableCents: last.withdrawableAfter,
        invoiceableCents: last.invoiceableAfter,
      }
    : { balanceCents: 0, withdrawableCents: 0, invoiceableCents: 0 };
  return { userId: input.userId, wallet, derived, entries, consistent: same(wallet, derived) && same(wallet, running) };
}

type BillRecord = typeof bills.$inferSelect;

export function toBillRow(b: BillRecord): BillRow {
  return {
    billId: b.id,
    billNo: b.billNo,
    appId: b.appId,
    serviceName: b.serviceName,
    billType: b.billType,
    payState: b.payState,
    payMode: b.payMode,
    payType: b.payType,
    cycle: b.cycle,
    createdAt: b.createdAt.toISOString(),
    deadline: b.deadline.toISOString(),
    paidAt: b.paidAt ? b.paidAt.toISOString() : null,
    totalCents: b.totalCents,
    payCents: b.payCents,
    refundCents: b.refundCents,
    invoiceState: b.invoiceState,
  };
}

/** The caller's bills matching a filter; created dates are UTC+8 days, both ends included. */
function whereOf(userId: number, filter: z.output<typeof billFilterSchema>): SQL {
  const conditions: SQL[] = [eq(bills.userId, userId)];
  if (filter.billType !== undefined) conditions.push(eq(bills.billType, filter.billType));
  if (filter.payState !== undefined) conditions.push(eq(bills.payState, filter.payState));
  if (filter.dateFrom) conditions.push(gte(bills.createdAt, startOfDay(filter.dateFrom)));
  if (filter.dateTo) conditions.push(lt(bills.createdAt, startOfDay(addDays(filter.dateTo, 1))));
  return and(...conditions)!;
}

const newestFirst = [desc(bills.createdAt), desc(bills.id)];

export async function listBills(input: z.output<typeof billListPayloadSchema>, { services, user }: SignedInContext) {
  const me = user;
  const { pageSize, pageIndex, condition } = input.page;
  const where = whereOf(me.id, condition);
  const [rows, [{ total }]] = await Promise.all([
    services.db
      .select()
      .from(bills)
      .where(where)
      .orderBy(...newestFirst)
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize),
    services.db.select({ total: count() }).from(bills).where(where),
  ]);
  return { page: { rows: rows.map(toBillRow), total, pageIndex, pageSize } };
}

/** The same filter as the list, every row up to EXPORT_LIMIT (the CSV export). */
export async function exportBills(
  input: { condition: z.output<typeof billFilterSchema> },
  { services, user }: SignedInContext,
) {
  const me = user;
  const where = whereOf(me.id, input.condition);
  const [rows, [{ total }]] = await Promise.all([
    services.db
      .select()
      .from(bills)
      .where(where)
      .orderBy(...newestFirst)
      .limit(EXPORT_LIMIT),
    services.db.select({ total: count() }).from(bills).where(where),
  ]);
  return { rows: rows.map(toBillRow), total, truncated: total > rows.length };
}

/** City node names in the caller's language, by node code. */
async function nodeNames(db: Db | Tx, codes: string[], language: Language): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({ code: cityNodes.code, name: cityNodes.name, nameZh: cityNodes.nameZh })
    .from(cityNodes)
    .where(inArray(cityNodes.code, codes));
  return new Map(rows.map((r) => [r.code, language === "zh-CN" ? r.nameZh : r.name]));
}

/** /sys/system/clientInfo/h5billDetail: every §3 Bill field and its usage detail; another user's bill is not found. */
export async function billDetail(
  input: { billId: number },
  { services, user, language }: SignedInContext,
): Promise<BillDetail> {
  const me = user;
  const [bill] = await services.db
    .select()
    .from(bills)
    .where(and(eq(bills.id, input.billId), eq(bills.userId, me.id)));
  if (!bill) throw new ApiError(Msg.NOT_FOUND);
  const d = bill.detail;
  const names = await nodeNames(
    services.db,
    [...new Set([...(d.dataUsage ?? []), ...(d.resources ?? [])].map((l) => l.nodeCode))],
    language,
  );
  const name = (code: string) => names.get(code) ?? code;
  const now = services.now();
  return {
    ...toBillRow(bill),
    periodStart: bill.periodStart.toISOString(),
    periodEnd: bill.periodEnd.toISOString(),
    releaseTime: bill.releaseTime ? bill.releaseTime.toISOString() : null,
    refundNo: bill.refundNo,
    dataUsage: (d.dataUsage ?? []).map((l) => ({ ...l, nodeName: name(l.nodeCode) })),
    resources: (d.resources ?? []).map((l) => ({ ...l, nodeName: name(l.nodeCode) })),
    nodeCount: d.nodeCount ?? null,
    hostConfiguration: d.hostConfiguration ?? null,
    dataCapacityGb: d.dataCapacityGb ?? null,
    cloudPlatform: d.cloudPlatform ?? null,
    region: d.region ?? null,
    payable: isPayable(bill, now),
    overdue: bill.payState === PayState.UNPAID && bill.deadline.getTime() <= now.getTime(),
  };
}

/** What a domain that settles its own bills answers for a bill it settled (payBill adds the balance). */
export type SettledBill = { billId: number; billNo: string; payState: number; paidCents: number; replayed: boolean };

/**
 * Pays one bill that belongs to another domain's record and moves that record on, inside `tx`; null when the
 * bill is not one of that domain's. Registered at start through the billing api (`settleBillsWith`).
 */
export type BillSettler = (
  tx: Tx,
  bill: { userId: number; billId: number; idempotencyKey: string; now: Date },
) => Promise<SettledBill | null>;

const settlers = new Map<string, BillSettler>();

/** Lets the domain `name` settle its own bills when they are paid from My bills or BillDetail. */
export function settleBillsWith(name: string, settler: BillSettler): void {
  settlers.set(name, settler);
}

/**
 * /sys/system/clientInfo/h5billPay: pays one of the caller's bills from the balance, in one transaction.
 * The bill row is locked first, so two payments of one bill run one after the other; the ledger entry
 * carries the idempotency key, so the same key pays once and answers success every time.
 */
export async function payBill(input: z.output<typeof billPayPayloadSchema>, { services, user }: SignedInContext) {
  const now = services.now();
  return services.db.transaction(async (tx) => {
    const paid = await payInTx(tx, user.id, input.billId, `billpay:${input.idempotencyKey}`, now);
    return { ...paid, balanceCents: (await totalsOf(tx, user.id)).balanceCents };
  });
}

/**
 * Pays one bill inside the caller's transaction; `key` is the ledger entry's idempotency key. The same key
 * again answers the first payment (`replayed`); the same key for another bill is MSG_31001.
 */
async function payInTx(tx: Tx, userId: number, billId: number, key: string, now: Date) {
  // A bill another domain settles (a service's publish bill, a participation's node order) is paid by that
  // domain, which also moves its own record on; it locks its record before the bill, so this path does not
  // lock first.
  for (const settle of settlers.values()) {
    const paid = await settle(tx, { userId, billId, idempotencyKey: key, now });
    if (paid) return paid;
  }
  const [bill] = await tx
    .select()
    .from(bills)
    .where(and(eq(bills.id, billId), eq(bills.userId, userId)))
    .for("update");
  if (!bill) throw new ApiError(Msg.NOT_FOUND);
  const [done] = await tx
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.idempotencyKey, key)))
    .limit(1);
  if (done) {
    if (done.refType !== "bill" || done.refId !== bill.id) throw new ApiError(Msg.IDEMPOTENCY_KEY_REUSED);
    return {
      billId: bill.id,
      billNo: bill.billNo,
      payState: bill.payState,
      paidCents: -done.balanceDelta,
      replayed: true,
    };
  }
  if (!isPayable(bill, now)) throw new ApiError(Msg.BILL_NOT_PAYABLE, { payState: bill.payState });
  await post(
    tx,
    { userId, kind: "bill_payment", amountCents: bill.payCents, refType: "bill", refId: bill.id, idempotencyKey: key },
    now,
  );
  await tx.update(bills).set({ payState: PayState.PAID, payType: "BALANCE", paidAt: now }).where(eq(bills.id, bill.id));
  await tx.insert(messages).values({
    userId,
    textKey: "messages.billPaid",
    params: { billNo: bill.billNo, amount: usd(bill.payCents) },
    refKind: "bill",
    refId: bill.id,
    createdAt: now,
  });
  return {
    billId: bill.id,
    billNo: bill.billNo,
    payState: PayState.PAID as number,
    paidCents: bill.payCents,
    replayed: false,
  };
}

/**
 * /sys/system/clientInfo/h5billPayMany (Pay all, Pay and continue; docs/decisions/027): the caller's bills
 * paid from the balance in ONE transaction, in id order (so two payments of overlapping sets lock in the same
 * order): every bill is paid, or none is (insufficient balance, a bill no longer payable, another user's
 * bill). Each bill's ledger entry carries `billpay:<key>:<billId>`, so the same key pays once.
 */
export async function payBills(input: z.output<typeof billPayManyPayloadSchema>, { services, user }: SignedInContext) {
  const now = services.now();
  const ids = [...new Set(input.billIds)].sort((a, b) => a - b);
  return services.db.transaction(async (tx) => {
    const paid = [];
    for (const id of ids) paid.push(await payInTx(tx, user.id, id, `billpay:${input.idempotencyKey}:${id}`, now));
    return {
      paid: paid.map((p) => ({ billId: p.billId, billNo: p.billNo, paidCents: p.paidCents })),
      paidCents: paid.reduce((sum, p) => sum + p.paidCents, 0),
      balanceCents: (await totalsOf(tx, user.id)).balanceCents,
      replayed: paid.every((p) => p.replayed),
    };
  });
}

/**
 * SPEC §5 "Blocking by bills" and §7 h5isHasNoPayBillV2 (docs/decisions/006):
 * - every payType is blocked by an unpaid postpaid usage bill (payMode 2: weekly data traffic,
 *   cross-chain calls), overdue or not: usage bills never expire, they are owed until paid;
 * - payType 2 (dedicated node) is also blocked by a dedicated-node bill still waiting for payment
 *   before its deadline (one node application at a time);
 * - unpaid prepaid bills (publish, config upgrade, IPFS ...) are applications waiting for payment:
 *   they do not block, and expire at their deadline (§4 status 10, §8 "valid for 3 days").
 * Other domains call `hasBlockingBills` on the server before creating or upgrading anything.
 */
export async function hasBlockingBills(db: Db | Tx, userId: number, payType: 1 | 2, now: Date): Promise<boolean> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(bills)
    .where(blockingWhere(userId, payType, now));
  return n > 0;
}

/**
 * /sys/system/clientInfo/h5billDue (docs/decisions/027): with payType, the bills that block it (the same
 * condition as hasBlockingBills); without, every unpaid bill that can be paid from the balance now.
 */
export async function dueBills(
  input: z.output<typeof dueBillsPayloadSchema>,
  { services, user }: SignedInContext,
): Promise<DueBills> {
  const now = services.now();
  const where = input.payType ? blockingWhere(user.id, input.payType, now) : payableNowWhere(user.id, now);
  const [rows, [sums]] = await Promise.all([
    services.db
      .select()
      .from(bills)
      .where(where)
      .orderBy(...newestFirst)
      .limit(DUE_LIMIT),
    services.db
      .select({ n: count(), total: sum(bills.payCents) })
      .from(bills)
      .where(where),
  ]);
  const listed = rows.map((b) => ({ ...toBillRow(b), payable: isPayable(b, now) }));
  const payableCents = input.payType
    ? listed.filter((b) => b.payable).reduce((s, b) => s + b.payCents, 0)
    : Number(sums.total ?? 0);
  return { bills: listed, count: sums.n, totalCents: Number(sums.total ?? 0), payableCents };
}

/** /sys/product/h5isHasNoPayBillV2: true allows entry, false means unpaid bills block it. */
export async function noUnpaidBills(input: { payType: 1 | 2 }, { services, user }: SignedInContext): Promise<boolean> {
  return !(await hasBlockingBills(services.db, user.id, input.payType, services.now()));
}
