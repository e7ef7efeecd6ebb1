import { and, count, desc, eq } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { TicketStatus } from "#contract/support-codes.ts";
import { fieldError } from "#backend/http/errors.ts";
import type { DownloadInput, Payload, SignedInContext } from "#backend/http/router.ts";
import { supportTickets } from "#backend/domains/support/tables.ts";
import { detailOf, fileOf, inTransaction, messageCounts, move, ownTicket, summaryOf } from "./shared.ts";

/* ----------------------------------------------------- the console ----------------------------------------------------- */

/** SPEC §7 insertTech: a signed-in user's ticket; the attachment (kind "support", checked by content while it arrived) is claimed here. */
export async function insertTech(input: Payload<"/sys/technicalSupport/insertTech">, ctx: SignedInContext) {
  const { deps } = ctx;
  const now = deps.now();
  return inTransaction(deps.db, async (tx) => {
    let fileId: number | null = null;
    if (input.file) {
      const claimed = await deps.files.claim(tx, input.file.uploadId, {
        kind: "support",
        ownerId: ctx.user.id,
        at: now,
      });
      if (!claimed) throw fieldError("file", `errors:${Msg.UPLOAD_FAILED}`, Msg.UPLOAD_FAILED);
      fileId = claimed.id;
    }
    const [row] = await tx
      .insert(supportTickets)
      .values({
        userId: ctx.user.id,
        source: "console",
        question: input.question,
        contactEmail: input.contactEmail ?? null,
        contactMobile: input.contactMobile ?? null,
        language: ctx.language,
        status: TicketStatus.OPEN,
        fileId,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: supportTickets.id });
    return { ticketId: row.id };
  });
}

export async function listTickets(input: Payload<"/sys/technicalSupport/list">, ctx: SignedInContext) {
  const db = ctx.deps.db;
  const where = and(
    eq(supportTickets.userId, ctx.user.id),
    input.status ? eq(supportTickets.status, input.status) : undefined,
  );
  const [{ total }] = await db.select({ total: count() }).from(supportTickets).where(where);
  const rows = await db
    .select()
    .from(supportTickets)
    .where(where)
    .orderBy(desc(supportTickets.updatedAt), desc(supportTickets.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const counts = await messageCounts(
    db,
    rows.map((r) => r.id),
  );
  return {
    page: {
      rows: rows.map((r) => summaryOf(r, counts.get(r.id) ?? 0)),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
}

export async function ticketDetail(input: Payload<"/sys/technicalSupport/detail">, ctx: SignedInContext) {
  return detailOf(ctx.deps.db, ctx.deps, await ownTicket(ctx.deps.db, ctx.user.id, input.ticketId));
}

export async function userReply(input: Payload<"/sys/technicalSupport/reply">, ctx: SignedInContext) {
  return inTransaction(ctx.deps.db, async (tx) =>
    move(tx, ctx.deps, await ownTicket(tx, ctx.user.id, input.ticketId, true), "reply", "user", input.content, null),
  );
}

export async function userClose(input: Payload<"/sys/technicalSupport/close">, ctx: SignedInContext) {
  return inTransaction(ctx.deps.db, async (tx) =>
    move(tx, ctx.deps, await ownTicket(tx, ctx.user.id, input.ticketId, true), "close", "user", null, null),
  );
}

export async function userFile(input: DownloadInput<"support-attachment">, ctx: SignedInContext) {
  return fileOf(ctx.deps, await ownTicket(ctx.deps.db, ctx.user.id, input.ticketId));
}
