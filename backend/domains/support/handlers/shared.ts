import { and, asc, count, eq, inArray, type SQL } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { TicketStatus } from "#contract/support-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { sha256 } from "#backend/http/auth.ts";
import { ApiError } from "#backend/http/errors.ts";
import { schedule } from "#backend/jobs/runner.ts";
import { ticketMachine, type TicketActor, type TicketEvent } from "#backend/domains/support/machine.ts";
import { supportMessages, supportTickets } from "#backend/domains/support/tables.ts";
import { SUPPORT_REPLY_MAIL } from "#backend/domains/support/jobs.ts";
import type { Deps } from "#backend/deps.ts";

/** The handlers of support tickets (contract/support.ts; docs/decisions/041). A ticket is looked up with its owner: another's is not found. */

type TicketRow = typeof supportTickets.$inferSelect;
type Q = Db | Tx;

export async function messageCounts(q: Q, ids: number[]) {
  if (!ids.length) return new Map<number, number>();
  const rows = await q
    .select({ ticketId: supportMessages.ticketId, n: count() })
    .from(supportMessages)
    .where(inArray(supportMessages.ticketId, ids))
    .groupBy(supportMessages.ticketId);
  return new Map(rows.map((r) => [r.ticketId, r.n]));
}

export const summaryOf = (t: TicketRow, messages: number) => ({
  ticketId: t.id,
  question: t.question,
  status: t.status,
  source: t.source as "console" | "support" | "contact",
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
  messages,
});

export async function detailOf(q: Q, services: Deps, t: TicketRow) {
  const conversation = await q
    .select()
    .from(supportMessages)
    .where(eq(supportMessages.ticketId, t.id))
    .orderBy(asc(supportMessages.id));
  let file: { name: string; size: number; mime: string } | null = null;
  if (t.fileId) {
    const stored = await services.files.read(q, t.fileId);
    if (stored) file = { name: stored.name, size: stored.size, mime: stored.mime };
  }
  return {
    ...summaryOf(t, conversation.length),
    contactName: t.contactName,
    contactEmail: t.contactEmail,
    contactMobile: t.contactMobile,
    file,
    conversation: conversation.map((m) => ({
      messageId: m.id,
      author: m.author as "user" | "operator",
      content: m.content,
      createdAt: m.createdAt.toISOString(),
    })),
    closedAt: t.closedAt?.toISOString() ?? null,
  };
}

/** A ticket by a condition (its owner's id, or its private key), locked for the caller's transaction when asked. */
async function ticketWhere(q: Q, where: SQL | undefined, lock = false): Promise<TicketRow> {
  const query = q.select().from(supportTickets).where(where);
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}
export const ownTicket = (q: Q, userId: number, ticketId: number, lock = false) =>
  ticketWhere(q, and(eq(supportTickets.id, ticketId), eq(supportTickets.userId, userId)), lock);
export const keyTicket = (q: Q, key: string, lock = false) =>
  ticketWhere(q, eq(supportTickets.keyHash, sha256(key)), lock);
export const anyTicket = (q: Q, ticketId: number, lock = false) =>
  ticketWhere(q, eq(supportTickets.id, ticketId), lock);

/**
 * Moves a ticket by the machine and adds the reply to its conversation; an operator's reply schedules the mail to
 * the contact (jobs.ts), in the same transaction, so it goes out once the reply is committed.
 */
export async function move(
  tx: Tx,
  services: Deps,
  ticket: TicketRow,
  event: TicketEvent,
  actor: TicketActor,
  content: string | null,
  operatorId: number | null,
) {
  const outcome = ticketMachine.transition(ticket.status, event, actor);
  if (!outcome.ok) throw new ApiError(outcome.messageKey);
  const now = services.now();
  await tx
    .update(supportTickets)
    .set({ status: outcome.to, updatedAt: now, ...(outcome.to === TicketStatus.CLOSED ? { closedAt: now } : {}) })
    .where(eq(supportTickets.id, ticket.id));
  if (content !== null) {
    const [message] = await tx
      .insert(supportMessages)
      .values({ ticketId: ticket.id, author: actor, operatorId, content, createdAt: now })
      .returning({ id: supportMessages.id });
    if (actor === "operator")
      await schedule(
        tx,
        SUPPORT_REPLY_MAIL,
        { ticketId: ticket.id, messageId: message.id },
        { runAt: now, dedupeKey: `${SUPPORT_REPLY_MAIL}:${message.id}` },
      );
  }
  return { status: outcome.to };
}

/** Runs `work` in a transaction of its own, or in the router's (an operator path already runs in one). */
export const inTransaction = <T>(db: Db, work: (tx: Tx) => Promise<T>) => db.transaction(work);

export async function fileOf(services: Deps, ticket: TicketRow) {
  if (!ticket.fileId) throw new ApiError(Msg.NOT_FOUND);
  // The bytes are streamed by the download (docs/decisions/053).
  return { fileId: ticket.fileId };
}
