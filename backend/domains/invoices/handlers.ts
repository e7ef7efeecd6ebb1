import billing from "#backend/domains/billing/index.ts";
import { and, asc, count, desc, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { addresseeSchema, invoiceTitleSchema, updateInvoiceTitleSchema } from "#contract/invoices.ts";
import {
  BILL_INVOICE_STATE,
  INVOICE_STATUS,
  INVOICE_TYPE,
  INVOICEABLE_PAY_STATES,
  ISSUANCE,
  titleAllowsSpecialVat,
  type approveInvoiceSchema,
  type deliverInvoiceSchema,
  type invoiceApplicationSchema,
  type rejectInvoiceSchema,
} from "#contract/invoices.ts";
import { Msg } from "#contract/messages.ts";
import type { pageRequestSchema } from "#contract/platform.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { messages, users } from "#backend/db/tables.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import { invoiceMachine, type InvoiceDecision } from "./machine.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { invoiceApplicationBills, invoiceApplications, invoiceTitles, receiverAddresses } from "./tables.ts";

/*
 * The caller's invoice titles and receiving addresses (SPEC §3). Every query is filtered by the caller,
 * so another user's record by id is "not found" and stays untouched. One default per user: the partial
 * unique index holds it; switching the default clears the old one in the same transaction, under a
 * per-user advisory lock so two concurrent saves cannot both try to be the default.
 */

/** Per-user advisory lock keys (first int: the record kind). */
const LOCK_TITLES = 8001;

const LOCK_ADDRESSES = 8002;

export async function lockUserBook(tx: Tx, kind: number, userId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${kind}, ${userId})`);
}

/** At most this many titles and addresses per user (docs/decisions/008). */
export const MAX_BOOK_ENTRIES = 50;

function me(ctx: SignedInContext) {
  return ctx.user;
}

function nullable(v: string | undefined) {
  return v === undefined || v === "" ? null : v;
}

/* ------------------------------------------------------------------------------------- titles */

export function toTitle(row: typeof invoiceTitles.$inferSelect) {
  return {
    titleId: row.id,
    titleType: row.titleType,
    title: row.title,
    taxNo: row.taxNo,
    bank: row.bank,
    bankAccount: row.bankAccount,
    registeredAddress: row.registeredAddress,
    registeredPhone: row.registeredPhone,
    isDefault: row.isDefault,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listTitles(input: z.output<typeof pageRequestSchema>, ctx: SignedInContext) {
  const { pageSize, pageIndex } = input.page;
  const where = eq(invoiceTitles.userId, me(ctx).id);
  const [rows, [{ total }]] = await Promise.all([
    ctx.services.db
      .select()
      .from(invoiceTitles)
      .where(where)
      .orderBy(desc(invoiceTitles.isDefault), desc(invoiceTitles.createdAt), desc(invoiceTitles.id))
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize),
    ctx.services.db.select({ total: count() }).from(invoiceTitles).where(where),
  ]);
  return { page: { rows: rows.map(toTitle), total, pageIndex, pageSize } };
}

function titleValues(input: z.output<typeof invoiceTitleSchema>) {
  return {
    titleType: Number(input.titleType),
    title: input.title,
    taxNo: nullable(input.taxNo),
    bank: nullable(input.bank),
    bankAccount: nullable(input.bankAccount),
    registeredAddress: nullable(input.registeredAddress),
    registeredPhone: nullable(input.registeredPhone),
  };
}

export async function insertTitle(input: z.output<typeof invoiceTitleSchema>, ctx: SignedInContext) {
  const userId = me(ctx).id;
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    await lockUserBook(tx, LOCK_TITLES, userId);
    const [{ n }] = await tx.select({ n: count() }).from(invoiceTitles).where(eq(invoiceTitles.userId, userId));
    if (n >= MAX_BOOK_ENTRIES) throw new ApiError(Msg.INVOICE_BOOK_FULL);
    // The first title becomes the default by itself.
    const isDefault = input.isDefault === "on" || n === 0;
    if (isDefault)
      await tx
        .update(invoiceTitles)
        .set({ isDefault: false })
        .where(and(eq(invoiceTitles.userId, userId), eq(invoiceTitles.isDefault, true)));
    const [row] = await tx
      .insert(invoiceTitles)
      .values({ userId, ...titleValues(input), isDefault, createdAt: now })
      .returning({ id: invoiceTitles.id });
    return { titleId: row.id };
  });
}

export async function updateTitle(input: z.output<typeof updateInvoiceTitleSchema>, ctx: SignedInContext) {
  const userId = me(ctx).id;
  const titleId = Number(input.titleId);
  return ctx.services.db.transaction(async (tx) => {
    await lockUserBook(tx, LOCK_TITLES, userId);
    const [existing] = await tx
      .select()
      .from(invoiceTitles)
      .where(and(eq(invoiceTitles.id, titleId), eq(invoiceTitles.userId, userId)));
    if (!existing) throw new ApiError(Msg.NOT_FOUND);
    const isDefault = input.isDefault === "on";
    if (isDefault) {
      await tx
        .update(invoiceTitles)
        .set({ isDefault: false })
        .where(and(eq(invoiceTitles.userId, userId), eq(invoiceTitles.isDefault, true), ne(invoiceTitles.id, titleId)));
    }
    await tx
      .update(invoiceTitles)
      .set({ ...titleValues(input), isDefault })
      .where(and(eq(invoiceTitles.id, titleId), eq(invoiceTitles.userId, userId)));
    return { titleId };
  });
}

export async function deleteTitle(input: { titleId: number }, ctx: SignedInContext) {
  const userId = me(ctx).id;
  await ctx.services.db.transaction(async (tx) => {
    await lockUserBook(tx, LOCK_TITLES, userId);
    const deleted = await tx
      .delete(invoiceTitles)
      .where(and(eq(invoiceTitles.id, input.titleId), eq(invoiceTitles.userId, userId)))
      .returning({ isDefault: invoiceTitles.isDefault });
    if (deleted.length === 0) throw new ApiError(Msg.NOT_FOUND);
    if (deleted[0].isDefault) await promoteNewest(tx, "titles", userId);
  });
  return null;
}

/* ---------------------------------------------------------------------------------- addresses */

export function toAddressee(row: typeof receiverAddresses.$inferSelect) {
  return {
    addresseeId: row.id,
    name: row.name,
    mobile: row.mobile,
    location: row.location,
    address: row.address,
    postalCode: row.postalCode,
    email: row.email,
    isDefault: row.isDefault,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listAddressees(input: z.output<typeof pageRequestSchema>, ctx: SignedInContext) {
  const { pageSize, pageIndex } = input.page;
  const where = eq(receiverAddresses.userId, me(ctx).id);
  const [rows, [{ total }]] = await Promise.all([
    ctx.services.db
      .select()
      .from(receiverAddresses)
      .where(where)
      .orderBy(desc(receiverAddresses.isDefault), desc(receiverAddresses.createdAt), desc(receiverAddresses.id))
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize),
    ctx.services.db.select({ total: count() }).from(receiverAddresses).where(where),
  ]);
  return { page: { rows: rows.map(toAddressee), total, pageIndex, pageSize } };
}

/** SPEC §7 addOrUpdateClientAddressee: with an addresseeId it edits that (own) address, else adds one. */
export async function saveAddressee(input: z.output<typeof addresseeSchema>, ctx: SignedInContext) {
  const userId = me(ctx).id;
  const now = ctx.services.now();
  const values = {
    name: input.name,
    mobile: input.mobile,
    location: input.location,
    address: input.address,
    postalCode: nullable(input.postalCode),
    email: nullable(input.email),
  };
  return ctx.services.db.transaction(async (tx) => {
    await lockUserBook(tx, LOCK_ADDRESSES, userId);
    const own = and(eq(receiverAddresses.userId, userId), eq(receiverAddresses.isDefault, true));
    if (input.addresseeId) {
      const addresseeId = Number(input.addresseeId);
      const [existing] = await tx
        .select({ id: receiverAddresses.id })
        .from(receiverAddresses)
        .where(and(eq(receiverAddresses.id, addresseeId), eq(receiverAddresses.userId, userId)));
      if (!existing) throw new ApiError(Msg.NOT_FOUND);
      const isDefault = input.isDefault === "on";
      if (isDefault)
        await tx
          .update(receiverAddresses)
          .set({ isDefault: false })
          .where(and(own, ne(receiverAddresses.id, addresseeId)));
      await tx
        .update(receiverAddresses)
        .set({ ...values, isDefault })
        .where(and(eq(receiverAddresses.id, addresseeId), eq(receiverAddresses.userId, userId)));
      return { addresseeId };
    }
    const [{ n }] = await tx.select({ n: count() }).from(receiverAddresses).where(eq(receiverAddresses.userId, userId));
    if (n >= MAX_BOOK_ENTRIES) throw new ApiError(Msg.INVOICE_BOOK_FULL);
    const isDefault = input.isDefault === "on" || n === 0;
    if (isDefault) await tx.update(receiverAddresses).set({ isDefault: false }).where(own);
    const [row] = await tx
      .insert(receiverAddresses)
      .values({ userId, ...values, isDefault, createdAt: now })
      .returning({ id: receiverAddresses.id });
    return { addresseeId: row.id };
  });
}

export async function deleteAddressee(input: { addresseeId: number }, ctx: SignedInContext) {
  const userId = me(ctx).id;
  await ctx.services.db.transaction(async (tx) => {
    await lockUserBook(tx, LOCK_ADDRESSES, userId);
    const deleted = await tx
      .delete(receiverAddresses)
      .where(and(eq(receiverAddresses.id, input.addresseeId), eq(receiverAddresses.userId, userId)))
      .returning({ isDefault: receiverAddresses.isDefault });
    if (deleted.length === 0) throw new ApiError(Msg.NOT_FOUND);
    if (deleted[0].isDefault) await promoteNewest(tx, "addresses", userId);
  });
  return null;
}

/** When the default is deleted, the newest remaining record becomes the default. */
async function promoteNewest(tx: Tx, kind: "titles" | "addresses", userId: number) {
  const table = kind === "titles" ? invoiceTitles : receiverAddresses;
  const [newest] = await tx
    .select({ id: table.id })
    .from(table)
    .where(eq(table.userId, userId))
    .orderBy(desc(table.createdAt), desc(table.id))
    .limit(1);
  if (newest) await tx.update(table).set({ isDefault: true }).where(eq(table.id, newest.id));
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

type ApplicationRow = typeof invoiceApplications.$inferSelect;

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
    ctx.services.db
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
    billing.api.totalsOf(ctx.services.db, me.id),
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

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
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
  const now = ctx.services.now();
  const billIds = [...new Set(input.billIds.map(Number))].sort((a, b) => a - b);
  const previous = await byIdempotencyKey(ctx.services.db, me.id, input.idempotencyKey);
  if (previous) return { invoiceId: previous.id, applicationNo: previous.applicationNo, replayed: true };
  try {
    return await ctx.services.db.transaction(async (tx) => {
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
      await tx
        .update(bills)
        .set({ invoiceState: BILL_INVOICE_STATE.IN_PROGRESS })
        .where(and(inArray(bills.id, billIds), eq(bills.userId, me.id)));
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
      const row = await byIdempotencyKey(ctx.services.db, me.id, input.idempotencyKey);
      if (row) return { invoiceId: row.id, applicationNo: row.applicationNo, replayed: true };
    }
    throw error;
  }
}

/* --------------------------------------------------------------------------------- reading */

type ListInput = { page: { pageSize: number; pageIndex: number; condition: { status?: number } } };

function toSummary(row: ApplicationRow, userName?: string) {
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

async function listApplications(db: Db, input: ListInput, userId: number | null) {
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

export async function myApplications(input: ListInput, ctx: SignedInContext) {
  const me = ctx.user;
  const [list, totals] = await Promise.all([
    listApplications(ctx.services.db, input, me.id),
    billing.api.totalsOf(ctx.services.db, me.id),
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

async function detailOf(db: Db, invoiceId: number, userId: number | null) {
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

export async function myApplication(input: { invoiceId: number }, ctx: SignedInContext) {
  return detailOf(ctx.services.db, input.invoiceId, ctx.user.id);
}

/* ------------------------------------------------------------------------------ operators */

export async function operatorApplications(input: ListInput, ctx: SignedInContext) {
  const list = await listApplications(ctx.services.db, input, null);
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
  return detailOf(ctx.services.db, input.invoiceId, null);
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
  await tx
    .update(bills)
    .set({ invoiceState: state })
    .where(
      and(
        inArray(
          bills.id,
          linked.map((l) => l.billId),
        ),
        eq(bills.userId, row.userId),
        from === undefined ? undefined : eq(bills.invoiceState, from),
      ),
    );
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
  const now = ctx.services.now();
  await ctx.services.db.transaction(async (tx) => {
    const { row, to } = await lockForDecision(tx, invoiceId, decision);
    const columns = await work(tx, row, operator.id, now);
    await tx
      .update(invoiceApplications)
      .set({ ...columns, status: to })
      .where(eq(invoiceApplications.id, row.id));
    await tx.insert(messages).values({
      userId: row.userId,
      textKey: DECIDED_MESSAGE[decision],
      params: { applicationNo: row.applicationNo, ...params },
      refKind: "invoice",
      refId: row.id,
      createdAt: now,
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
