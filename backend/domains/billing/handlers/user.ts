import { and, count, desc, eq, gte, inArray, lt, sum, type SQL } from "drizzle-orm";
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
} from "#contract/billing.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes, users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import type { Language } from "#backend/mail.ts";
import { isPayable } from "#backend/domains/billing/rules.ts";
import { totalsOf } from "#backend/domains/billing/ledger.ts";
import { blockingWhere, payableNowWhere } from "#backend/domains/billing/figures.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { addDays, startOfDay } from "#backend/domains/billing/time.ts";
import { hasBlockingBills, payInTx } from "#backend/domains/billing/settle.ts";

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
    awaitsFinance: b.awaitsFinance && UNPAID_STATES.includes(b.payState),
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

export async function listBills(input: z.output<typeof billListPayloadSchema>, { deps, user }: SignedInContext) {
  const me = user;
  const { pageSize, pageIndex, condition } = input.page;
  const where = whereOf(me.id, condition);
  const [rows, [{ total }]] = await Promise.all([
    deps.db
      .select()
      .from(bills)
      .where(where)
      .orderBy(...newestFirst)
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize),
    deps.db.select({ total: count() }).from(bills).where(where),
  ]);
  return { page: { rows: rows.map(toBillRow), total, pageIndex, pageSize } };
}

/** The same filter as the list, every row up to EXPORT_LIMIT (the CSV export). */
export async function exportBills(
  input: { condition: z.output<typeof billFilterSchema> },
  { deps, user }: SignedInContext,
) {
  const me = user;
  const where = whereOf(me.id, input.condition);
  const [rows, [{ total }]] = await Promise.all([
    deps.db
      .select()
      .from(bills)
      .where(where)
      .orderBy(...newestFirst)
      .limit(EXPORT_LIMIT),
    deps.db.select({ total: count() }).from(bills).where(where),
  ]);
  return { rows: rows.map(toBillRow), total, truncated: total > rows.length };
}

/** City node names in the caller's language, by node code. */
export async function nodeNames(db: Db | Tx, codes: string[], language: Language): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({ code: cityNodes.code, name: cityNodes.name, nameZh: cityNodes.nameZh })
    .from(cityNodes)
    .where(inArray(cityNodes.code, codes));
  return new Map(rows.map((r) => [r.code, language === "zh-CN" ? r.nameZh : r.name]));
}

/** Words older demo bills stored in English, in Chinese (issue 30 item 9). */
const STORED_ZH: Record<string, string> = { "Asia Pacific": "亚太地区", "BSN city nodes": "BSN 城市节点" };

/** A cloud provider as the catalogue names it in `language` (bills store the English name). */
async function cloudName(db: Db | Tx, cloud: string, language: Language): Promise<string> {
  if (language !== "zh-CN") return cloud;
  if (STORED_ZH[cloud]) return STORED_ZH[cloud];
  const [row] = await db
    .select({ zh: cityNodes.cloudProviderZh })
    .from(cityNodes)
    .where(eq(cityNodes.cloudProvider, cloud))
    .limit(1);
  return row?.zh ?? cloud;
}

async function loginName(db: Db | Tx, userId: number): Promise<string | null> {
  const [row] = await db.select({ userName: users.userName }).from(users).where(eq(users.id, userId));
  return row?.userName ?? null;
}

/** /sys/system/clientInfo/h5billDetail: every §3 Bill field and its usage detail; another user's bill is not found. */
export async function billDetail(
  input: { billId: number },
  { deps, user, language }: SignedInContext,
): Promise<BillDetail> {
  const me = user;
  const [bill] = await deps.db
    .select()
    .from(bills)
    .where(and(eq(bills.id, input.billId), eq(bills.userId, me.id)));
  if (!bill) throw new ApiError(Msg.NOT_FOUND);
  const d = bill.detail;
  const names = await nodeNames(
    deps.db,
    [...new Set([...(d.dataUsage ?? []), ...(d.resources ?? [])].map((l) => l.nodeCode).concat(d.region ?? []))],
    language,
  );
  const name = (code: string) => names.get(code) ?? code;
  const now = deps.now();
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
    cloudPlatform: d.cloudPlatform ? await cloudName(deps.db, d.cloudPlatform, language) : null,
    // A dedicated-node bill's region is a city node's code: shown as the node's name (issue 30 item 9).
    region: d.region ? (language === "zh-CN" ? (STORED_ZH[d.region] ?? name(d.region)) : name(d.region)) : null,
    payable: isPayable(bill, now),
    overdue: bill.payState === PayState.UNPAID && bill.deadline.getTime() <= now.getTime(),
    memberName: bill.memberUserId === null ? null : await loginName(deps.db, bill.memberUserId),
  };
}

/**
 * /sys/system/clientInfo/h5billPay: pays one of the caller's bills from the balance, in one transaction.
 * The bill row is locked first, so two payments of one bill run one after the other; the ledger entry
 * carries the idempotency key, so the same key pays once and answers success every time.
 */
export async function payBill(input: z.output<typeof billPayPayloadSchema>, { deps, user }: SignedInContext) {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const paid = await payInTx(tx, user.id, input.billId, `billpay:${input.idempotencyKey}`, now);
    return { ...paid, balanceCents: (await totalsOf(tx, user.id)).balanceCents };
  });
}

/**
 * /sys/system/clientInfo/h5billPayMany (Pay all, Pay and continue; docs/decisions/027): the caller's bills
 * paid from the balance in ONE transaction, in id order (so two payments of overlapping sets lock in the same
 * order): every bill is paid, or none is (insufficient balance, a bill no longer payable, another user's
 * bill). Each bill's ledger entry carries `billpay:<key>:<billId>`, so the same key pays once.
 */
export async function payBills(input: z.output<typeof billPayManyPayloadSchema>, { deps, user }: SignedInContext) {
  const now = deps.now();
  const ids = [...new Set(input.billIds)].sort((a, b) => a - b);
  return deps.db.transaction(async (tx) => {
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
 * /sys/system/clientInfo/h5billDue (docs/decisions/027): with payType, the bills that block it (the same
 * condition as hasBlockingBills); without, every unpaid bill that can be paid from the balance now.
 */
export async function dueBills(
  input: z.output<typeof dueBillsPayloadSchema>,
  { deps, user }: SignedInContext,
): Promise<DueBills> {
  const now = deps.now();
  const where = input.payType ? blockingWhere(user.id, input.payType, now) : payableNowWhere(user.id, now);
  const [rows, [sums]] = await Promise.all([
    deps.db
      .select()
      .from(bills)
      .where(where)
      .orderBy(...newestFirst)
      .limit(DUE_LIMIT),
    deps.db
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
export async function noUnpaidBills(input: { payType: 1 | 2 }, { deps, user }: SignedInContext): Promise<boolean> {
  return !(await hasBlockingBills(deps.db, user.id, input.payType, deps.now()));
}
