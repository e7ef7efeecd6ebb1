import { asc, count, desc, eq, inArray } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { TicketStatus, IssueStatus, SubscriberStatus } from "#contract/support-codes.ts";
import type { Tx } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { DownloadInput, Payload, SignedInContext } from "#backend/http/router.ts";
import { schedule } from "#backend/jobs/runner.ts";
import { contactLine } from "#backend/domains/support/rules.ts";
import { supportTickets, newsletterIssues, newsletterSubscribers } from "#backend/domains/support/tables.ts";
import { NEWSLETTER_SEND } from "#backend/domains/support/jobs.ts";
import { anyTicket, detailOf, fileOf, messageCounts, move, summaryOf } from "./shared.ts";

/* ----------------------------------------------------- operations ----------------------------------------------------- */

/** Operations: the tickets of a status, or those waiting (open, then answered), the longest waiting first. */
export async function opsList(input: Payload<"/sys/ops/tickets/list">, ctx: SignedInContext) {
  const db = ctx.deps.db;
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
  const db = ctx.deps.db;
  const ticket = await anyTicket(db, input.ticketId);
  const [owner] = ticket.userId
    ? await db.select({ userName: users.userName }).from(users).where(eq(users.id, ticket.userId))
    : [];
  return { ...(await detailOf(db, ctx.deps, ticket)), owner: owner?.userName ?? null };
}

/** Operations: a reply (the router runs it in the transaction of its audit entry). */
export async function opsReply(input: Payload<"/sys/ops/tickets/reply">, ctx: SignedInContext) {
  const tx = ctx.deps.db as unknown as Tx;
  return move(tx, ctx.deps, await anyTicket(tx, input.ticketId, true), "reply", "operator", input.content, ctx.user.id);
}

export async function opsClose(input: Payload<"/sys/ops/tickets/close">, ctx: SignedInContext) {
  const tx = ctx.deps.db as unknown as Tx;
  return move(tx, ctx.deps, await anyTicket(tx, input.ticketId, true), "close", "operator", null, ctx.user.id);
}

export async function opsFile(input: DownloadInput<"ops-ticket-attachment">, ctx: SignedInContext) {
  return fileOf(ctx.deps, await anyTicket(ctx.deps.db, input.ticketId));
}

async function subscriberCounts(ctx: SignedInContext) {
  const rows = await ctx.deps.db
    .select({ status: newsletterSubscribers.status, n: count() })
    .from(newsletterSubscribers)
    .groupBy(newsletterSubscribers.status);
  const of = (s: number) => rows.find((r) => r.status === s)?.n ?? 0;
  return { confirmed: of(SubscriberStatus.CONFIRMED), pending: of(SubscriberStatus.PENDING) };
}

export async function opsNewsletterList(input: Payload<"/sys/ops/newsletter/list">, ctx: SignedInContext) {
  const db = ctx.deps.db;
  const [{ total }] = await db.select({ total: count() }).from(newsletterIssues);
  const rows = await db
    .select()
    .from(newsletterIssues)
    .orderBy(desc(newsletterIssues.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return {
    ...(await subscriberCounts(ctx)),
    page: {
      rows: rows.map((r) => ({
        issueId: r.id,
        subjectEn: r.subjectEn,
        subjectZh: r.subjectZh,
        status: r.status,
        recipients: r.recipients,
        sent: r.sent,
        createdAt: r.createdAt.toISOString(),
        sentAt: r.sentAt?.toISOString() ?? null,
      })),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
}

/** Operations: a new issue to every confirmed subscriber, sent by the background job (in the audit entry's transaction). */
export async function opsNewsletterSend(input: Payload<"/sys/ops/newsletter/send">, ctx: SignedInContext) {
  const { confirmed } = await subscriberCounts(ctx);
  if (confirmed === 0) throw new ApiError(Msg.NEWSLETTER_NO_SUBSCRIBERS);
  const now = ctx.deps.now();
  const [issue] = await ctx.deps.db
    .insert(newsletterIssues)
    .values({ ...input, status: IssueStatus.SENDING, recipients: confirmed, createdBy: ctx.user.id, createdAt: now })
    .returning({ id: newsletterIssues.id });
  await schedule(
    ctx.deps.db,
    NEWSLETTER_SEND,
    { issueId: issue.id },
    { runAt: now, dedupeKey: `${NEWSLETTER_SEND}:${issue.id}:0` },
  );
  return { issueId: issue.id, recipients: confirmed };
}
