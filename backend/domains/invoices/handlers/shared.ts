import { and, asc, count, desc, eq, type SQL } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import type { Db } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { invoiceApplicationBills, invoiceApplications } from "#backend/domains/invoices/tables.ts";

export function me(ctx: SignedInContext) {
  return ctx.user;
}

export function nullable(v: string | undefined) {
  return v === undefined || v === "" ? null : v;
}

/*
 * Invoice applications (SPEC §3, §4) and their operator review (docs/decisions/005, 008).
 *
 *   1 pending review ──approve──▶ 5 pending delivery ──deliver──▶ 10 delivered
 *          └────────reject (comments)──▶ 3 not approved (amount and bills released)
 *
 * Bills: invoiceState 1 → 2 when applied for, back to 1 on rejection, 5 when delivered.
 * Invoiceable amount: invoice_hold on applying, invoice_release on rejection (backend/domains/billing/ledger.ts).
 */

export type ApplicationRow = typeof invoiceApplications.$inferSelect;

/* --------------------------------------------------------------------------------- reading */

export type ListInput = { page: { pageSize: number; pageIndex: number; condition: { status?: number } } };

export function toSummary(row: ApplicationRow, userName?: string) {
  return {
    invoiceId: row.id,
    applicationNo: row.applicationNo,
    title: row.title.title,
    titleType: row.title.titleType,
    invoiceType: row.invoiceType,
    issuance: row.issuance,
    amountCents: row.amountCents,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    ...(userName !== undefined ? { userName } : {}),
  };
}

export async function listApplications(db: Db, input: ListInput, userId: number | null) {
  const { pageSize, pageIndex, condition } = input.page;
  const filters: SQL[] = [];
  if (userId !== null) filters.push(eq(invoiceApplications.userId, userId));
  if (condition.status !== undefined) filters.push(eq(invoiceApplications.status, condition.status));
  const where = filters.length ? and(...filters) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ app: invoiceApplications, userName: users.userName })
      .from(invoiceApplications)
      .innerJoin(users, eq(users.id, invoiceApplications.userId))
      .where(where)
      .orderBy(desc(invoiceApplications.createdAt), desc(invoiceApplications.id))
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize),
    db.select({ total: count() }).from(invoiceApplications).where(where),
  ]);
  return { rows, total, pageIndex, pageSize };
}

export async function detailOf(db: Db, invoiceId: number, userId: number | null) {
  const filters: SQL[] = [eq(invoiceApplications.id, invoiceId)];
  if (userId !== null) filters.push(eq(invoiceApplications.userId, userId));
  const [row] = await db
    .select({ app: invoiceApplications, userName: users.userName })
    .from(invoiceApplications)
    .innerJoin(users, eq(users.id, invoiceApplications.userId))
    .where(and(...filters));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  const billed = await db
    .select({
      billId: bills.id,
      billNo: bills.billNo,
      serviceName: bills.serviceName,
      billType: bills.billType,
      amountCents: invoiceApplicationBills.amountCents,
      invoiceState: bills.invoiceState,
    })
    .from(invoiceApplicationBills)
    .innerJoin(bills, eq(bills.id, invoiceApplicationBills.billId))
    .where(eq(invoiceApplicationBills.applicationId, invoiceId))
    .orderBy(asc(bills.id));
  const a = row.app;
  return {
    ...toSummary(a, userId === null ? row.userName : undefined),
    titleInfo: a.title,
    recipient: a.recipient,
    deliveryEmail: a.deliveryEmail,
    courierName: a.courierName,
    courierNo: a.courierNo,
    reviewedAt: a.reviewedAt ? a.reviewedAt.toISOString() : null,
    reviewComments: a.reviewComments,
    deliveredAt: a.deliveredAt ? a.deliveredAt.toISOString() : null,
    bills: billed,
  };
}
