import { and, count, desc, eq, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { addresseeSchema, invoiceTitleSchema, updateInvoiceTitleSchema } from "#contract/invoices.ts";
import { Msg } from "#contract/messages.ts";
import type { pageRequestSchema } from "#contract/platform.ts";
import type { Tx } from "#backend/db/client.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { invoiceTitles, receiverAddresses } from "#backend/domains/invoices/tables.ts";
import { me, nullable } from "./shared.ts";

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
    ctx.deps.db
      .select()
      .from(invoiceTitles)
      .where(where)
      .orderBy(desc(invoiceTitles.isDefault), desc(invoiceTitles.createdAt), desc(invoiceTitles.id))
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize),
    ctx.deps.db.select({ total: count() }).from(invoiceTitles).where(where),
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
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
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
  return ctx.deps.db.transaction(async (tx) => {
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
  await ctx.deps.db.transaction(async (tx) => {
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
    ctx.deps.db
      .select()
      .from(receiverAddresses)
      .where(where)
      .orderBy(desc(receiverAddresses.isDefault), desc(receiverAddresses.createdAt), desc(receiverAddresses.id))
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize),
    ctx.deps.db.select({ total: count() }).from(receiverAddresses).where(where),
  ]);
  return { page: { rows: rows.map(toAddressee), total, pageIndex, pageSize } };
}

/** SPEC §7 addOrUpdateClientAddressee: with an addresseeId it edits that (own) address, else adds one. */
export async function saveAddressee(input: z.output<typeof addresseeSchema>, ctx: SignedInContext) {
  const userId = me(ctx).id;
  const now = ctx.deps.now();
  const values = {
    name: input.name,
    mobile: input.mobile,
    location: input.location,
    address: input.address,
    postalCode: nullable(input.postalCode),
    email: nullable(input.email),
  };
  return ctx.deps.db.transaction(async (tx) => {
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
  await ctx.deps.db.transaction(async (tx) => {
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
