import billing from "#backend/domains/billing/index.ts";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import {
  BILL_INVOICE_STATE,
  ISSUANCE,
  type approveInvoiceSchema,
  type deliverInvoiceSchema,
  type rejectInvoiceSchema,
} from "#contract/invoices.ts";
import { Msg } from "#contract/messages.ts";
import type { Tx } from "#backend/db/client.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import { invoiceMachine, type InvoiceDecision } from "#backend/domains/invoices/machine.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { invoiceApplicationBills, invoiceApplications } from "#backend/domains/invoices/tables.ts";
import { type ApplicationRow, type ListInput, toSummary, listApplications, detailOf } from "./shared.ts";
import inbox from "#backend/domains/inbox/index.ts";

/* ------------------------------------------------------------------------------ operators */

export async function operatorApplications(input: ListInput, ctx: SignedInContext) {
  const list = await listApplications(ctx.deps.db, input, null);
  return {
    page: {
      rows: list.rows.map((r) => toSummary(r.app, r.userName)),
      total: list.total,
      pageIndex: list.pageIndex,
      pageSize: list.pageSize,
    },
  };
}

export async function operatorApplication(input: { invoiceId: number }, ctx: SignedInContext) {
  return detailOf(ctx.deps.db, input.invoiceId, null);
}

/** The application locked for a decision, refused unless the invoice machine (machine.ts) lets the decision move it. */
async function lockForDecision(tx: Tx, invoiceId: number, decision: InvoiceDecision) {
  const [row] = await tx.select().from(invoiceApplications).where(eq(invoiceApplications.id, invoiceId)).for("update");
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  const result = invoiceMachine.transition(row.status, decision, "operator");
  if (!result.ok)
    throw new ApiError(result.messageKey, result.messageKey === Msg.ALREADY_REVIEWED ? { status: row.status } : null);
  return { row, to: result.to };
}

/** The application's bills move to `state` (with `from`, only those still in that state). */
async function setBillsInvoiceState(tx: Tx, row: ApplicationRow, state: number, from?: number) {
  const linked = await tx
    .select({ billId: invoiceApplicationBills.billId })
    .from(invoiceApplicationBills)
    .where(eq(invoiceApplicationBills.applicationId, row.id));
  if (linked.length === 0) return;
  await billing.api.setBillsInvoiceState(tx, {
    userId: row.userId,
    billIds: linked.map((l) => l.billId),
    state,
    from,
  });
}

type Decision = InvoiceDecision;

const DECIDED_MESSAGE: Record<Decision, string> = {
  approve: "messages.invoiceApproved",
  reject: "messages.invoiceRejected",
  deliver: "messages.invoiceDelivered",
};

/**
 * One operator decision, in one transaction: the application is locked (refused unless TRANSITIONS lets
 * the decision move it: machine.ts), `work` checks the input, does what the decision does besides and returns the
 * columns it records, the application moves on, and the applicant is told (with `params` in the message).
 */
async function decide(
  ctx: SignedInContext,
  invoiceId: number,
  decision: Decision,
  work: (tx: Tx, row: ApplicationRow, operatorId: number, now: Date) => Promise<Partial<ApplicationRow>>,
  params: Record<string, string> = {},
) {
  const operator = ctx.user;
  const now = ctx.deps.now();
  await ctx.deps.db.transaction(async (tx) => {
    const { row, to } = await lockForDecision(tx, invoiceId, decision);
    const columns = await work(tx, row, operator.id, now);
    await tx
      .update(invoiceApplications)
      .set({ ...columns, status: to })
      .where(eq(invoiceApplications.id, row.id));
    await inbox.api.notify(tx, {
      userId: row.userId,
      textKey: DECIDED_MESSAGE[decision],
      params: { applicationNo: row.applicationNo, ...params },
      ref: { kind: "invoice", id: row.id },
      at: now,
    });
  });
  return null;
}

export async function approveApplication(input: z.output<typeof approveInvoiceSchema>, ctx: SignedInContext) {
  return decide(ctx, Number(input.invoiceId), "approve", async (_tx, _row, operatorId, now) => ({
    reviewedBy: operatorId,
    reviewedAt: now,
    reviewComments: input.comments ?? null,
  }));
}

/** Rejected: the bills can be invoiced again and the amount is invoiceable again. */
export async function rejectApplication(input: z.output<typeof rejectInvoiceSchema>, ctx: SignedInContext) {
  return decide(
    ctx,
    Number(input.invoiceId),
    "reject",
    async (tx, row, operatorId, now) => {
      await setBillsInvoiceState(tx, row, BILL_INVOICE_STATE.NOT_INVOICED, BILL_INVOICE_STATE.IN_PROGRESS);
      await billing.api.post(
        tx,
        {
          userId: row.userId,
          kind: "invoice_release",
          amountCents: row.amountCents,
          refType: "invoice",
          refId: row.id,
        },
        now,
      );
      return { reviewedBy: operatorId, reviewedAt: now, reviewComments: input.comments };
    },
    { comments: input.comments },
  );
}

/** Delivered by courier (paper) or by email (electronic); the bills are invoiced. */
export async function deliverApplication(input: z.output<typeof deliverInvoiceSchema>, ctx: SignedInContext) {
  return decide(ctx, Number(input.invoiceId), "deliver", async (tx, row, operatorId, now) => {
    let delivery: { courierName: string | null; courierNo: string | null; deliveryEmail: string | null };
    if (row.issuance === ISSUANCE.PAPER) {
      if (!input.courierName) throw fieldError("courierName", "invoices:validation.courierNameRequired");
      if (!input.courierNo) throw fieldError("courierNo", "invoices:validation.courierNoRequired");
      delivery = { courierName: input.courierName, courierNo: input.courierNo, deliveryEmail: null };
    } else {
      if (!input.deliveryEmail) throw fieldError("deliveryEmail", "invoices:validation.emailRequired");
      delivery = { courierName: null, courierNo: null, deliveryEmail: input.deliveryEmail };
    }
    await setBillsInvoiceState(tx, row, BILL_INVOICE_STATE.INVOICED);
    return { deliveredBy: operatorId, deliveredAt: now, ...delivery };
  });
}
