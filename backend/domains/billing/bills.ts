import { randomInt } from "node:crypto";
import { and, count, desc, eq, gte, inArray, lt, type SQL } from "drizzle-orm";
import type { z } from "zod";
import {
  EXPORT_LIMIT,
  PayState,
  type billFilterSchema,
  type billListPayloadSchema,
  type billPayPayloadSchema,
  type BillDetail,
  type BillRow,
} from "../../../contract/billing";
import { Msg } from "../../../contract/messages";
import type { Db, Tx } from "../../db/client";
import { appJoins } from "../participation/tables";
import { appVersions } from "../services/tables";
import { bills, ledgerEntries } from "./tables";
import { cityNodes, messages } from "../../db/tables";
import { payOrder } from "../participation/audit";
import { payPublishBill } from "../services/payment";
import { ApiError } from "../../http/errors";
import type { SignedInContext } from "../../http/router";
import type { Language } from "../../mail";
import { post, totalsOf } from "./ledger";
import { addDays, dayOf, startOfDay } from "./time";

type BillRecord = typeof bills.$inferSelect;

/** A new bill number: B, the UTC+8 day, and six random digits (unique in the table). */
export function newBillNo(now: Date, prefix = "B"): string {
  return `${prefix}${dayOf(now).replaceAll("-", "")}${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
}

/** USD from cents with 2 decimals, as message parameters and CSV cells show it. */
export function usd(cents: number): string {
  return (cents / 100).toFixed(2);
}

/**
 * Whether a bill may be paid from the balance now: unpaid, something to pay, and, for prepaid bills
 * (applications, resource fees), before its deadline. Postpaid usage bills never expire: they stay
 * payable when overdue, and keep blocking until paid (docs/decisions/006).
 */
export function isPayable(bill: Pick<BillRecord, "payState" | "payMode" | "deadline" | "payCents">, now: Date): boolean {
  if (bill.payState !== PayState.UNPAID || bill.payCents <= 0) return false;
  return bill.payMode === 2 || bill.deadline.getTime() > now.getTime();
}

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
    services.db.select().from(bills).where(where).orderBy(...newestFirst).limit(pageSize).offset((pageIndex - 1) * pageSize),
    services.db.select({ total: count() }).from(bills).where(where),
  ]);
  return { page: { rows: rows.map(toBillRow), total, pageIndex, pageSize } };
}

/** The same filter as the list, every row up to EXPORT_LIMIT (the CSV export). */
export async function exportBills(input: { condition: z.output<typeof billFilterSchema> }, { services, user }: SignedInContext) {
  const me = user;
  const where = whereOf(me.id, input.condition);
  const [rows, [{ total }]] = await Promise.all([
    services.db.select().from(bills).where(where).orderBy(...newestFirst).limit(EXPORT_LIMIT),
    services.db.select({ total: count() }).from(bills).where(where),
  ]);
  return { rows: rows.map(toBillRow), total, truncated: total > rows.length };
}

/** City node names in the caller's language, by node code. */
async function nodeNames(db: Db | Tx, codes: string[], language: Language): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await db.select({ code: cityNodes.code, name: cityNodes.name, nameZh: cityNodes.nameZh }).from(cityNodes).where(inArray(cityNodes.code, codes));
  return new Map(rows.map((r) => [r.code, language === "zh-CN" ? r.nameZh : r.name]));
}

/** /sys/system/clientInfo/h5billDetail: every §3 Bill field and its usage detail; another user's bill is not found. */
export async function billDetail(input: { billId: number }, { services, user, language }: SignedInContext): Promise<BillDetail> {
  const me = user;
  const [bill] = await services.db.select().from(bills).where(and(eq(bills.id, input.billId), eq(bills.userId, me.id)));
  if (!bill) throw new ApiError(Msg.NOT_FOUND);
  const d = bill.detail;
  const names = await nodeNames(services.db, [...new Set([...(d.dataUsage ?? []), ...(d.resources ?? [])].map((l) => l.nodeCode))], language);
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

/**
 * /sys/system/clientInfo/h5billPay: pays one of the caller's bills from the balance, in one transaction.
 * The bill row is locked first, so two payments of one bill run one after the other; the ledger entry
 * carries the idempotency key, so the same key pays once and answers success every time.
 */
export async function payBill(input: z.output<typeof billPayPayloadSchema>, { services, user }: SignedInContext) {
  const me = user;
  const now = services.now();
  const key = `billpay:${input.idempotencyKey}`;
  return services.db.transaction(async (tx) => {
    // A service's publish bill is paid by the services area, which also moves the service on (23 → 24) and
    // schedules its deployment; it locks the version before the bill, so this path does not lock first.
    const [publish] = await tx.select({ verId: appVersions.id }).from(appVersions).where(eq(appVersions.billId, input.billId));
    if (publish) {
      const paid = await payPublishBill(tx, { userId: me.id, billId: input.billId, idempotencyKey: key, now });
      const [bill] = await tx.select().from(bills).where(eq(bills.id, paid.billId));
      const totals = await totalsOf(tx, me.id);
      return { billId: bill.id, billNo: bill.billNo, payState: bill.payState, paidCents: bill.payCents, balanceCents: totals.balanceCents, replayed: paid.replayed };
    }
    // A participation's node order is paid by the participation area, which also moves it on (5 → 10) and
    // schedules the work order; it locks the participation before the bill (docs/decisions/013).
    const [order] = await tx.select({ joinId: appJoins.id }).from(appJoins).where(eq(appJoins.orderBillId, input.billId));
    const [orderBill] = order ? await tx.select().from(bills).where(and(eq(bills.id, input.billId), eq(bills.userId, me.id))) : [];
    if (order && orderBill && isPayable(orderBill, now)) {
      const paid = await payOrder(tx, { userId: me.id, joinId: order.joinId, idempotencyKey: key, now });
      const totals = await totalsOf(tx, me.id);
      return { billId: orderBill.id, billNo: orderBill.billNo, payState: PayState.PAID as number, paidCents: orderBill.payCents, balanceCents: totals.balanceCents, replayed: paid.replayed };
    }
    const [bill] = await tx.select().from(bills).where(and(eq(bills.id, input.billId), eq(bills.userId, me.id))).for("update");
    if (!bill) throw new ApiError(Msg.NOT_FOUND);
    const [done] = await tx
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, me.id), eq(ledgerEntries.idempotencyKey, key)))
      .limit(1);
    if (done) {
      if (done.refType !== "bill" || done.refId !== bill.id) throw new ApiError(Msg.IDEMPOTENCY_KEY_REUSED);
      const totals = await totalsOf(tx, me.id);
      return { billId: bill.id, billNo: bill.billNo, payState: bill.payState, paidCents: -done.balanceDelta, balanceCents: totals.balanceCents, replayed: true };
    }
    if (!isPayable(bill, now)) throw new ApiError(Msg.BILL_NOT_PAYABLE, { payState: bill.payState });
    const { totals } = await post(
      tx,
      { userId: me.id, kind: "bill_payment", amountCents: bill.payCents, refType: "bill", refId: bill.id, idempotencyKey: key },
      now,
    );
    await tx.update(bills).set({ payState: PayState.PAID, payType: "BALANCE", paidAt: now }).where(eq(bills.id, bill.id));
    await tx.insert(messages).values({ userId: me.id, textKey: "messages.billPaid", params: { billNo: bill.billNo, amount: usd(bill.payCents) }, createdAt: now });
    return { billId: bill.id, billNo: bill.billNo, payState: PayState.PAID as number, paidCents: bill.payCents, balanceCents: totals.balanceCents, replayed: false };
  });
}
