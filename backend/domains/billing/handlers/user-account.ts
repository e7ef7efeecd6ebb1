import { and, asc, count, desc, eq, gte, inArray, lt, lte, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import {
  UNPAID_STATES,
  type LedgerEntryKind,
  type transactionFilterSchema,
  type transactionListPayloadSchema,
} from "#contract/billing.ts";
import { LIST_EXPORT_LIMIT } from "#contract/list-exports.ts";
import type { Db } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { invoiceApplications } from "#backend/domains/invoices/tables.ts";
import { cards, payments, withdrawals } from "#backend/domains/payments/tables.ts";
import { mbToGb } from "#backend/domains/billing/rules.ts";
import { totalsOf } from "#backend/domains/billing/ledger.ts";
import { trafficOf } from "#backend/domains/billing/figures.ts";
import { flushTraffic } from "#backend/domains/billing/meter.ts";
import { bills, ledgerEntries, usageDaily } from "#backend/domains/billing/tables.ts";
import { addDays, dayOf, daysBetween, startOfDay } from "#backend/domains/billing/time.ts";
import { autoPayOn, setAutoPay } from "#backend/domains/billing/auto-pay.ts";

const RECENT = 5;

/** /sys/account/summary: the wallet, the saved card, the last recharges and withdrawals, unpaid bills. */
export async function accountSummary(_input: unknown, { deps, user }: SignedInContext) {
  const me = user;
  const db = deps.db;
  const [totals, [card], recharges, cashOuts, [{ unpaid }], autoPay] = await Promise.all([
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
    autoPayOn(db, me.id),
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
    autoPay,
  };
}

/** /sys/account/autoPay: the caller turns auto-pay of usage bills on or off (docs/decisions/059). */
export async function setAccountAutoPay(input: { enabled: boolean }, { deps, user }: SignedInContext) {
  return { autoPay: await setAutoPay(deps.db, user.id, input.enabled, deps.now()) };
}

type TransactionFilter = z.output<typeof transactionFilterSchema>;

/** The caller's ledger entries matching the inquiry's filter, newest first, with the number of what each is about. */
async function transactionsOf(db: Db, userId: number, condition: TransactionFilter, limit: number, offset: number) {
  const filters: SQL[] = [eq(ledgerEntries.userId, userId)];
  if (condition.kind) filters.push(eq(ledgerEntries.kind, condition.kind));
  if (condition.dateFrom) filters.push(gte(ledgerEntries.createdAt, startOfDay(condition.dateFrom)));
  if (condition.dateTo) filters.push(lt(ledgerEntries.createdAt, startOfDay(addDays(condition.dateTo, 1))));
  const where = and(...filters);
  const ref = (
    type: string,
    id: typeof bills.id | typeof payments.id | typeof withdrawals.id | typeof invoiceApplications.id,
  ) => and(eq(ledgerEntries.refType, type), eq(id, ledgerEntries.refId));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        entry: ledgerEntries,
        billNo: bills.billNo,
        billId: bills.id,
        paymentNo: payments.paymentNo,
        withdrawalNo: withdrawals.withdrawalNo,
        applicationNo: invoiceApplications.applicationNo,
      })
      .from(ledgerEntries)
      .leftJoin(bills, and(ref("bill", bills.id), eq(bills.userId, userId)))
      .leftJoin(payments, and(ref("payment", payments.id), eq(payments.userId, userId)))
      .leftJoin(withdrawals, and(ref("withdrawal", withdrawals.id), eq(withdrawals.userId, userId)))
      .leftJoin(
        invoiceApplications,
        and(ref("invoice", invoiceApplications.id), eq(invoiceApplications.userId, userId)),
      )
      .where(where)
      .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(ledgerEntries).where(where),
  ]);
  return {
    total,
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
  };
}

/** /sys/account/transactions: a page of the caller's ledger entries. */
export async function listTransactions(
  input: z.output<typeof transactionListPayloadSchema>,
  { deps, user }: SignedInContext,
) {
  const { pageSize, pageIndex, condition } = input.page;
  const { rows, total } = await transactionsOf(deps.db, user.id, condition, pageSize, (pageIndex - 1) * pageSize);
  return { page: { rows, total, pageIndex, pageSize } };
}

/** /sys/account/transactionsExport: the same filter as the inquiry, every entry up to LIST_EXPORT_LIMIT (the CSV). */
export async function exportTransactions(input: { condition: TransactionFilter }, { deps, user }: SignedInContext) {
  const { rows, total } = await transactionsOf(deps.db, user.id, input.condition, LIST_EXPORT_LIMIT, 0);
  return { rows, total, truncated: total > rows.length };
}

/**
 * /sys/account/usage30: data traffic of the last 30 UTC+8 days (today included) per city node, in GB: the
 * traffic of the user's services and the user's own calls as a participant (docs/decisions/057).
 */
export async function usage30(_input: unknown, { deps, user, language }: SignedInContext) {
  const me = user;
  await flushTraffic(deps);
  const today = dayOf(deps.now());
  const days = daysBetween(addDays(today, -29), today);
  const rows = await deps.db
    .select({
      day: usageDaily.day,
      bytes: sql<string>`${usageDaily.bytesIn} + ${usageDaily.bytesOut}`,
      code: cityNodes.code,
      name: cityNodes.name,
      nameZh: cityNodes.nameZh,
      nodeId: cityNodes.id,
    })
    .from(usageDaily)
    .innerJoin(cityNodes, eq(cityNodes.id, usageDaily.cityNodeId))
    .where(and(trafficOf(me.id), gte(usageDaily.day, days[0]), lte(usageDaily.day, today)))
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
    node.mb[index.get(r.day)!] += Number(r.bytes) / (1024 * 1024);
  }
  const nodes = [...byNode.values()].map((n) => ({
    nodeCode: n.nodeCode,
    nodeName: n.nodeName,
    gb: n.mb.map(mbToGb),
    totalGb: mbToGb(n.mb.reduce((s, v) => s + v, 0)),
  }));
  return { days, nodes, totalGb: mbToGb(rows.reduce((s, r) => s + Number(r.bytes), 0) / (1024 * 1024)) };
}
