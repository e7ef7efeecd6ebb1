import { and, asc, eq, gt } from "drizzle-orm";
import { renderMarkdown } from "#app/lib/markdown.server.ts";
import { IssueStatus, SubscriberStatus } from "#contract/support-codes.ts";
import { users } from "#backend/db/tables.ts";
import { schedule, type JobHandler } from "#backend/jobs/runner.ts";
import { openWith } from "#backend/kit/sealed.ts";
import { mailLanguage } from "#backend/mail.ts";
import { UNSUBSCRIBE_KEYS, unsubscribePath, userTicketPath, VISITOR_KEYS, visitorTicketPath } from "./rules.ts";
import { newsletterIssues, newsletterSubscribers, supportMessages, supportTickets } from "./tables.ts";

/** The background jobs of support (docs/decisions/041): the mail of an operator's reply, and a newsletter issue's mails. */

export const SUPPORT_REPLY_MAIL = "support.replyMail";
export const NEWSLETTER_SEND = "newsletter.send";
/** Mails of an issue sent by one run of its job; the next run continues from the cursor. */
export const NEWSLETTER_BATCH = 50;

/**
 * An operator's reply, mailed to the ticket's contact email (or, for a signed-in user who gave only a mobile, the
 * account's email) with the link to the conversation: the console page, or the visitor's private link. A visitor who
 * gave only a mobile number gets no mail (the product sends no SMS); the private page shows the reply.
 */
const replyMail: JobHandler = async (payload, services) => {
  const ticketId = Number(payload.ticketId);
  const messageId = Number(payload.messageId);
  const [ticket] = await services.db.select().from(supportTickets).where(eq(supportTickets.id, ticketId));
  const [message] = await services.db
    .select()
    .from(supportMessages)
    .where(and(eq(supportMessages.id, messageId), eq(supportMessages.ticketId, ticketId)));
  if (!ticket || !message) return;
  let to = ticket.contactEmail;
  if (!to && ticket.userId)
    [{ email: to }] = await services.db.select({ email: users.email }).from(users).where(eq(users.id, ticket.userId));
  if (!to) return;
  const path = ticket.keySealed
    ? visitorTicketPath(openWith(services.env, VISITOR_KEYS, ticket.keySealed))
    : userTicketPath(ticket.id);
  await services.mailer.send(services.limits.requestedMailPermit(to), "supportReply", mailLanguage(ticket.language), {
    ticketId: String(ticket.id),
    reply: message.content,
    link: `${services.env.publicUrl}${path}`,
  });
};

/**
 * One batch of a newsletter issue: the next confirmed subscribers after the cursor, each in their language (subject,
 * Markdown as text and as sanitised HTML), each mail with its one-click unsubscribe link (in the text, the HTML
 * footer and the List-Unsubscribe header). The cursor moves after each mail, so a run that dies mails nobody twice
 * but the one it was sending; a full batch schedules the next.
 */
const sendIssue: JobHandler = async (payload, services) => {
  const issueId = Number(payload.issueId);
  const [issue] = await services.db.select().from(newsletterIssues).where(eq(newsletterIssues.id, issueId));
  if (!issue || issue.status !== IssueStatus.SENDING) return;
  const batch = await services.db
    .select()
    .from(newsletterSubscribers)
    .where(
      and(eq(newsletterSubscribers.status, SubscriberStatus.CONFIRMED), gt(newsletterSubscribers.id, issue.cursor)),
    )
    .orderBy(asc(newsletterSubscribers.id))
    .limit(NEWSLETTER_BATCH);
  let { cursor, sent } = issue;
  for (const subscriber of batch) {
    const language = mailLanguage(subscriber.language);
    const zh = language === "zh-CN";
    const body = zh ? issue.bodyZh : issue.bodyEn;
    const link = `${services.env.publicUrl}${unsubscribePath(openWith(services.env, UNSUBSCRIBE_KEYS, subscriber.unsubscribeSealed))}`;
    await services.mailer.send(
      services.limits.requestedMailPermit(subscriber.email),
      "newsletter",
      language,
      { subject: zh ? issue.subjectZh : issue.subjectEn, body, unsubscribe: link },
      { html: renderMarkdown(body), headers: { "List-Unsubscribe": `<${link}>` } },
    );
    cursor = subscriber.id;
    sent += 1;
    await services.db.update(newsletterIssues).set({ cursor, sent }).where(eq(newsletterIssues.id, issue.id));
  }
  const now = services.now();
  if (batch.length < NEWSLETTER_BATCH) {
    await services.db
      .update(newsletterIssues)
      .set({ status: IssueStatus.SENT, sentAt: now })
      .where(eq(newsletterIssues.id, issue.id));
  } else {
    await schedule(
      services.db,
      NEWSLETTER_SEND,
      { issueId },
      { runAt: now, dedupeKey: `${NEWSLETTER_SEND}:${issueId}:${cursor}` },
    );
  }
};

export const supportJobs = { [SUPPORT_REPLY_MAIL]: replyMail, [NEWSLETTER_SEND]: sendIssue };
