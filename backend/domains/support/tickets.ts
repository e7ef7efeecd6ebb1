import { and, asc, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { TicketStatus } from "#contract/support-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import { newSecret, sha256 } from "#backend/http/auth.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { CallContext, Payload, SignedInContext } from "#backend/http/router.ts";
import { schedule } from "#backend/jobs/runner.ts";
import { sealWith } from "#backend/kit/sealed.ts";
import accounts from "#backend/domains/accounts/index.ts";
import { ticketMachine, type TicketActor, type TicketEvent } from "./machine.ts";
import { contactLine, VISITOR_KEYS, visitorTicketPath } from "./rules.ts";
import { supportMessages, supportTickets } from "./tables.ts";
import { SUPPORT_REPLY_MAIL } from "./jobs.ts";
import type { Deps } from "#backend/deps.ts";

/** The handlers of support tickets (contract/support.ts; docs/decisions/041). A ticket is looked up with its owner: another's is not found. */

type TicketRow = typeof supportTickets.$inferSelect;
type Q = Db | Tx;

async function messageCounts(q: Q, ids: number[]) {
  if (!ids.length) return new Map<number, number>();
  const rows = await q
    .select({ ticketId: supportMessages.ticketId, n: count() })
    .from(supportMessages)
    .where(inArray(supportMessages.ticketId, ids))
    .groupBy(supportMessages.ticketId);
  return new Map(rows.map((r) => [r.ticketId, r.n]));
}

const summaryOf = (t: TicketRow, messages: number) => ({
  ticketId: t.id,
  question: t.question,
  status: t.status,
  source: t.source as "console" | "support" | "contact",
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
  messages,
});

async function detailOf(q: Q, services: Deps, t: TicketRow) {
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
const ownTicket = (q: Q, userId: number, ticketId: number, lock = false) =>
  ticketWhere(q, and(eq(supportTickets.id, ticketId), eq(supportTickets.userId, userId)), lock);
const keyTicket = (q: Q, key: string, lock = false) => ticketWhere(q, eq(supportTickets.keyHash, sha256(key)), lock);
const anyTicket = (q: Q, ticketId: number, lock = false) => ticketWhere(q, eq(supportTickets.id, ticketId), lock);

/**
 * Moves a ticket by the machine and adds the reply to its conversation; an operator's reply schedules the mail to
 * the contact (jobs.ts), in the same transaction, so it goes out once the reply is committed.
 */
async function move(
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
const inTransaction = <T>(db: Db, work: (tx: Tx) => Promise<T>) => db.transaction(work);

/* ----------------------------------------------------- the console ----------------------------------------------------- */

/** SPEC §7 insertTech: a signed-in user's ticket; the attachment (kind "support", checked by content while it arrived) is claimed here. */
export async function insertTech(input: Payload<"/sys/technicalSupport/insertTech">, ctx: SignedInContext) {
  const { services } = ctx;
  const now = services.now();
  return inTransaction(services.db, async (tx) => {
    let fileId: number | null = null;
    if (input.file) {
      const claimed = await services.files.claim(tx, input.file.uploadId, {
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
  const db = ctx.services.db;
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
  return detailOf(ctx.services.db, ctx.services, await ownTicket(ctx.services.db, ctx.user.id, input.ticketId));
}

export async function userReply(input: Payload<"/sys/technicalSupport/reply">, ctx: SignedInContext) {
  return inTransaction(ctx.services.db, async (tx) =>
    move(
      tx,
      ctx.services,
      await ownTicket(tx, ctx.user.id, input.ticketId, true),
      "reply",
      "user",
      input.content,
      null,
    ),
  );
}

export async function userClose(input: Payload<"/sys/technicalSupport/close">, ctx: SignedInContext) {
  return inTransaction(ctx.services.db, async (tx) =>
    move(tx, ctx.services, await ownTicket(tx, ctx.user.id, input.ticketId, true), "close", "user", null, null),
  );
}

async function fileOf(services: Deps, ticket: TicketRow) {
  if (!ticket.fileId) throw new ApiError(Msg.NOT_FOUND);
  const file = await services.files.read(services.db, ticket.fileId);
  if (!file) throw new ApiError(Msg.NOT_FOUND);
  return { name: file.name, mime: file.mime, dataBase64: file.bytes.toString("base64") };
}

export async function userFile(input: Payload<"/sys/technicalSupport/file">, ctx: SignedInContext) {
  return fileOf(ctx.services, await ownTicket(ctx.services.db, ctx.user.id, input.ticketId));
}

/* ------------------------------------------------------ visitors ------------------------------------------------------ */

/**
 * A visitor's ticket from the support or contact page: the address's limit, the captcha, then (with an email) the
 * mail limits; the private link's key is answered once (the page opens it) and mailed to the contact email.
 */
export async function visitorInsert(input: Payload<"/anon/technicalSupport/insertTech">, ctx: CallContext) {
  const { services } = ctx;
  await services.limits.consume("support.ip", services.limits.subjectOf(ctx.clientAddress));
  await accounts.api.checkCaptcha(services, input.captchaKey, input.captcha);
  const permit = input.contactEmail ? await services.limits.mailPermit(input.contactEmail, ctx.clientAddress) : null;
  const now = services.now();
  const key = newSecret(32);
  const [row] = await services.db
    .insert(supportTickets)
    .values({
      userId: null,
      source: input.source,
      question: input.question,
      contactName: input.contactName ?? null,
      contactEmail: input.contactEmail ?? null,
      contactMobile: input.contactMobile ?? null,
      language: ctx.language,
      status: TicketStatus.OPEN,
      keyHash: sha256(key),
      keySealed: sealWith(services.env, VISITOR_KEYS, key),
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: supportTickets.id });
  if (permit) {
    await services.mailer.send(permit, "supportTicketLink", ctx.language, {
      ticketId: String(row.id),
      link: `${services.env.publicUrl}${visitorTicketPath(key)}`,
      question: input.question,
    });
  }
  return { ticketId: row.id, key, mailed: permit !== null };
}

export async function visitorTicket(input: Payload<"/anon/technicalSupport/ticket">, ctx: CallContext) {
  return detailOf(ctx.services.db, ctx.services, await keyTicket(ctx.services.db, input.key));
}

export async function visitorReply(input: Payload<"/anon/technicalSupport/reply">, ctx: CallContext) {
  await ctx.services.limits.consume("support.ip", ctx.services.limits.subjectOf(ctx.clientAddress));
  return inTransaction(ctx.services.db, async (tx) =>
    move(tx, ctx.services, await keyTicket(tx, input.key, true), "reply", "user", input.content, null),
  );
}

export async function visitorClose(input: Payload<"/anon/technicalSupport/close">, ctx: CallContext) {
  return inTransaction(ctx.services.db, async (tx) =>
    move(tx, ctx.services, await keyTicket(tx, input.key, true), "close", "user", null, null),
  );
}

/* ----------------------------------------------------- operations ----------------------------------------------------- */

/** Operations: the tickets of a status, or those waiting (open, then answered), the longest waiting first. */
export async function opsList(input: Payload<"/sys/ops/tickets/list">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const where = input.status
    ? eq(supportTickets.status, input.status)
    : inArray(supportTickets.status, [TicketStatus.OPEN, TicketStatus.ANSWERED]);
  const [{ total }] = await db.select({ total: count() }).from(supportTickets).where(where);
  const rows = await db
    .select({ t: supportTickets, owner: users.userName })
    .from(supportTickets)
    .leftJoin(users, eq(users.id, supportTickets.userId))
    .where(where)
    .orderBy(asc(supportTickets.status), asc(supportTickets.updatedAt), asc(supportTickets.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const counts = await messageCounts(
    db,
    rows.map((r) => r.t.id),
  );
  return {
    page: {
      rows: rows.map(({ t, owner }) => ({ ...summaryOf(t, counts.get(t.id) ?? 0), owner, contact: contactLine(t) })),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
}

export async function opsDetail(input: Payload<"/sys/ops/tickets/detail">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const ticket = await anyTicket(db, input.ticketId);
  const [owner] = ticket.userId
    ? await db.select({ userName: users.userName }).from(users).where(eq(users.id, ticket.userId))
    : [];
  return { ...(await detailOf(db, ctx.services, ticket)), owner: owner?.userName ?? null };
}

/** Operations: a reply (the router runs it in the transaction of its audit entry). */
export async function opsReply(input: Payload<"/sys/ops/tickets/reply">, ctx: SignedInContext) {
  const tx = ctx.services.db as unknown as Tx;
  return move(
    tx,
    ctx.services,
    await anyTicket(tx, input.ticketId, true),
    "reply",
    "operator",
    input.content,
    ctx.user.id,
  );
}

export async function opsClose(input: Payload<"/sys/ops/tickets/close">, ctx: SignedInContext) {
  const tx = ctx.services.db as unknown as Tx;
  return move(tx, ctx.services, await anyTicket(tx, input.ticketId, true), "close", "operator", null, ctx.user.id);
}

export async function opsFile(input: Payload<"/sys/ops/tickets/file">, ctx: SignedInContext) {
  return fileOf(ctx.services, await anyTicket(ctx.services.db, input.ticketId));
}

/** The waiting items of the operations queue (platform dashboard): open tickets. */
export async function ticketsWaiting(db: Db) {
  const [{ n }] = await db
    .select({ n: count() })
    .from(supportTickets)
    .where(eq(supportTickets.status, TicketStatus.OPEN));
  return { Tickets: n };
}
