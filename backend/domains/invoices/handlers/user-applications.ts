import { isUniqueViolation } from "#backend/db/errors.ts";
import billing from "#backend/domains/billing/index.ts";
import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import {
  BILL_INVOICE_STATE,
  INVOICE_STATUS,
  INVOICE_TYPE,
  INVOICEABLE_PAY_STATES,
  ISSUANCE,
  titleAllowsSpecialVat,
  type invoiceApplicationSchema,
} from "#contract/invoices.ts";
import { LIST_EXPORT_LIMIT } from "#contract/list-exports.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import {
  invoiceApplicationBills,
  invoiceApplications,
  invoiceTitles,
  receiverAddresses,
} from "#backend/domains/invoices/tables.ts";
import { type ApplicationRow, type ListInput, toSummary, listApplications, detailOf } from "./shared.ts";

/** The state machine of an application: which decision may move it from which status, to which. */

/** What a bill can still be invoiced for: paid amount minus refunds. */
const billAmount = sql<number>`(${bills.payCents} - ${bills.refundCents})`;

function invoiceableBillFilter(userId: number): SQL {
  return and(
    eq(bills.userId, userId),
    inArray(bills.payState, [...INVOICEABLE_PAY_STATES]),
    eq(bills.invoiceState, BILL_INVOICE_STATE.NOT_INVOICED),
    sql`${bills.payCents} - ${bills.refundCents} > 0`,
  )!;
}

/** Select billing (SPEC §2): the caller's paid bills not invoiced yet, and the invoiceable amount. */
export async function invoiceableBills(_input: unknown, ctx: SignedInContext) {
  const me = ctx.user;
  const [rows, totals] = await Promise.all([
    ctx.deps.db
      .select({
        id: bills.id,
        billNo: bills.billNo,
        serviceName: bills.serviceName,
        billType: bills.billType,
        payState: bills.payState,
        paidAt: bills.paidAt,
        amount: billAmount,
      })
      .from(bills)
      .where(invoiceableBillFilter(me.id))
      .orderBy(desc(bills.paidAt), desc(bills.id))
      .limit(500),
    billing.api.totalsOf(ctx.deps.db, me.id),
  ]);
  return {
    invoiceableCents: totals.invoiceableCents,
    bills: rows.map((b) => ({
      billId: b.id,
      billNo: b.billNo,
      serviceName: b.serviceName,
      billType: b.billType,
      payState: b.payState,
      paidAt: b.paidAt ? b.paidAt.toISOString() : null,
      amountCents: Number(b.amount),
    })),
  };
}

function newApplicationNo(now: Date) {
  const day = now.toISOString().slice(0, 10).replace(/-/g, "");
  return `INV${day}${randomBytes(4).toString("hex").toUpperCase()}`;
}

async function byIdempotencyKey(db: Db | Tx, userId: number, key: string) {
  const [row] = await db
    .select({ id: invoiceApplications.id, applicationNo: invoiceApplications.applicationNo })
    .from(invoiceApplications)
    .where(and(eq(invoiceApplications.userId, userId), eq(invoiceApplications.idempotencyKey, key)));
  return row;
}

/**
 * SPEC §7 h5insertInvoiceAccountTrade. In one transaction: the wallet is locked first (so applications of
 * one user run one after the other and a replay is seen), then the bills FOR UPDATE; every bill must be
 * the caller's, paid, and not invoiced; the amount is their sum and never above the invoiceable amount.
 */
export async function applyForInvoice(input: z.output<typeof invoiceApplicationSchema>, ctx: SignedInContext) {
  const me = ctx.user;
  const now = ctx.deps.now();
  const billIds = [...new Set(input.billIds.map(Number))].sort((a, b) => a - b);
  const previous = await byIdempotencyKey(ctx.deps.db, me.id, input.idempotencyKey);
  if (previous) return { invoiceId: previous.id, applicationNo: previous.applicationNo, replayed: true };
  try {
    return await ctx.deps.db.transaction(async (tx) => {
      const totals = await billing.api.lockWallet(tx, me.id, now);
      const replay = await byIdempotencyKey(tx, me.id, input.idempotencyKey);
      if (replay) return { invoiceId: replay.id, applicationNo: replay.applicationNo, replayed: true };

      const [title] = await tx
        .select()
        .from(invoiceTitles)
        .where(and(eq(invoiceTitles.id, Number(input.titleId)), eq(invoiceTitles.userId, me.id)));
      if (!title) throw fieldError("titleId", "invoices:validation.titleRequired");
      const invoiceType = Number(input.invoiceType);
      if (invoiceType === INVOICE_TYPE.SPECIAL && !titleAllowsSpecialVat(title)) {
        throw fieldError("invoiceType", "invoices:validation.specialNeedsTitle");
      }
      const issuance = Number(input.issuance);
      let recipient: ApplicationRow["recipient"] = { remark: input.remark ?? null };
      if (issuance === ISSUANCE.PAPER) {
        const [addressee] = await tx
          .select()
          .from(receiverAddresses)
          .where(and(eq(receiverAddresses.id, Number(input.addresseeId)), eq(receiverAddresses.userId, me.id)));
        if (!addressee) throw fieldError("addresseeId", "invoices:validation.addresseeRequired");
        recipient = {
          name: addressee.name,
          mobile: addressee.mobile,
          location: addressee.location,
          address: addressee.address,
          postalCode: addressee.postalCode,
          email: addressee.email,
          remark: input.remark ?? null,
        };
      } else {
        recipient = { email: input.email ?? null, remark: input.remark ?? null };
      }

      const locked = await tx
        .select({
          id: bills.id,
          userId: bills.userId,
          payState: bills.payState,
          invoiceState: bills.invoiceState,
          payCents: bills.payCents,
          refundCents: bills.refundCents,
        })
        .from(bills)
        .where(and(inArray(bills.id, billIds), eq(bills.userId, me.id)))
        .orderBy(asc(bills.id))
        .for("update");
      const usable = locked.filter(
        (b) =>
          (INVOICEABLE_PAY_STATES as readonly number[]).includes(b.payState) &&
          b.invoiceState === BILL_INVOICE_STATE.NOT_INVOICED &&
          b.payCents - b.refundCents > 0,
      );
      if (usable.length !== billIds.length) {
        const ok = new Set(usable.map((b) => b.id));
        throw new ApiError(Msg.BILL_NOT_INVOICEABLE, { billIds: billIds.filter((id) => !ok.has(id)) });
      }
      const amountCents = usable.reduce((sum, b) => sum + (b.payCents - b.refundCents), 0);
      if (amountCents > totals.invoiceableCents)
        throw new ApiError(Msg.OVER_INVOICEABLE, { invoiceableCents: totals.invoiceableCents, amountCents });

      const [application] = await tx
        .insert(invoiceApplications)
        .values({
          applicationNo: newApplicationNo(now),
          userId: me.id,
          title: {
            titleType: title.titleType,
            title: title.title,
            taxNo: title.taxNo,
            bank: title.bank,
            bankAccount: title.bankAccount,
            registeredAddress: title.registeredAddress,
            registeredPhone: title.registeredPhone,
          },
          invoiceType,
          amountCents,
          status: INVOICE_STATUS.PENDING_REVIEW,
          issuance,
          recipient,
          idempotencyKey: input.idempotencyKey,
          createdAt: now,
        })
        .returning({ id: invoiceApplications.id, applicationNo: invoiceApplications.applicationNo });
      await tx
        .insert(invoiceApplicationBills)
        .values(
          usable.map((b) => ({ applicationId: application.id, billId: b.id, amountCents: b.payCents - b.refundCents })),
        );
      await billing.api.setBillsInvoiceState(tx, {
        userId: me.id,
        billIds,
        state: BILL_INVOICE_STATE.IN_PROGRESS,
      });
      await billing.api.post(
        tx,
        { userId: me.id, kind: "invoice_hold", amountCents, refType: "invoice", refId: application.id },
        now,
      );
      return { invoiceId: application.id, applicationNo: application.applicationNo, replayed: false };
    });
  } catch (error) {
    // Two submits of one form that raced past the lock (several processes): the first one's application.
    if (isUniqueViolation(error)) {
      const row = await byIdempotencyKey(ctx.deps.db, me.id, input.idempotencyKey);
      if (row) return { invoiceId: row.id, applicationNo: row.applicationNo, replayed: true };
    }
    throw error;
  }
}

export async function myApplications(input: ListInput, ctx: SignedInContext) {
  const me = ctx.user;
  const [list, totals] = await Promise.all([
    listApplications(ctx.deps.db, input, me.id),
    billing.api.totalsOf(ctx.deps.db, me.id),
  ]);
  return {
    page: {
      rows: list.rows.map((r) => toSummary(r.app)),
      total: list.total,
      pageIndex: list.pageIndex,
      pageSize: list.pageSize,
    },
    invoiceableCents: totals.invoiceableCents,
  };
}

export async function myApplication(input: { invoiceId: number }, ctx: SignedInContext) {
  return detailOf(ctx.deps.db, input.invoiceId, ctx.user.id);
}

/** The list's status filter, every application of the caller up to LIST_EXPORT_LIMIT, newest first (the CSV). */
export async function exportMyApplications(input: { condition: { status?: number } }, ctx: SignedInContext) {
  const list = await listApplications(
    ctx.deps.db,
    { page: { pageSize: LIST_EXPORT_LIMIT, pageIndex: 1, condition: input.condition } },
    ctx.user.id,
  );
  const rows = list.rows.map((r) => toSummary(r.app));
  return { rows, total: list.total, truncated: list.total > rows.length };
}
