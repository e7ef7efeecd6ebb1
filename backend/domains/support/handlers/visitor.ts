import { and, eq, sql } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { TicketStatus, NEWSLETTER_RESEND_WAIT_SECONDS, SubscriberStatus } from "#contract/support-codes.ts";
import { newSecret, sha256 } from "#backend/http/auth.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { CallContext, Payload } from "#backend/http/router.ts";
import { sealWith } from "#backend/kit/sealed.ts";
import accounts from "#backend/domains/accounts/index.ts";
import {
  VISITOR_KEYS,
  visitorTicketPath,
  confirmPath,
  resendWaitSeconds,
  UNSUBSCRIBE_KEYS,
} from "#backend/domains/support/rules.ts";
import { supportTickets, newsletterSubscribers } from "#backend/domains/support/tables.ts";
import { detailOf, inTransaction, keyTicket, move } from "./shared.ts";

/* ------------------------------------------------------ visitors ------------------------------------------------------ */

/**
 * A visitor's ticket from the support or contact page: the address's limit, the captcha, then (with an email) the
 * mail limits; the private link's key is answered once (the page opens it) and mailed to the contact email.
 */
export async function visitorInsert(input: Payload<"/anon/technicalSupport/insertTech">, ctx: CallContext) {
  const { deps } = ctx;
  await deps.limits.consume("support.ip", deps.limits.subjectOf(ctx.clientAddress));
  await accounts.api.checkCaptcha(deps, input.captchaKey, input.captcha);
  const permit = input.contactEmail
    ? await deps.limits.mailPermit("supportTicket", input.contactEmail, ctx.clientAddress)
    : null;
  const now = deps.now();
  const key = newSecret(32);
  const [row] = await deps.db
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
      keySealed: sealWith(deps.env, VISITOR_KEYS, key),
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: supportTickets.id });
  if (permit) {
    await deps.mailer.send(permit, "supportTicketLink", ctx.language, {
      ticketId: String(row.id),
      link: `${deps.env.publicUrl}${visitorTicketPath(key)}`,
      question: input.question,
    });
  }
  return { ticketId: row.id, key, mailed: permit !== null };
}

export async function visitorTicket(input: Payload<"/anon/technicalSupport/ticket">, ctx: CallContext) {
  return detailOf(ctx.deps.db, ctx.deps, await keyTicket(ctx.deps.db, input.key));
}

export async function visitorReply(input: Payload<"/anon/technicalSupport/reply">, ctx: CallContext) {
  await ctx.deps.limits.consume("support.ip", ctx.deps.limits.subjectOf(ctx.clientAddress));
  return inTransaction(ctx.deps.db, async (tx) =>
    move(tx, ctx.deps, await keyTicket(tx, input.key, true), "reply", "user", input.content, null),
  );
}

export async function visitorClose(input: Payload<"/anon/technicalSupport/close">, ctx: CallContext) {
  return inTransaction(ctx.deps.db, async (tx) =>
    move(tx, ctx.deps, await keyTicket(tx, input.key, true), "close", "user", null, null),
  );
}

/** The newsletter (SPEC §2 subscribes, §9 resend wait 60 s; docs/decisions/041): double opt-in, one-click unsubscribe, issues by job. */

/** A confirmation link is valid for two days after its mail. */
export const CONFIRM_TTL_MS = 2 * 86_400_000;

function resendWait(seconds: number) {
  return new ApiError(
    Msg.NEWSLETTER_RESEND_WAIT,
    { retryAfterSeconds: seconds, fieldErrors: { email: [`errors:${Msg.NEWSLETTER_RESEND_WAIT}`] } },
    undefined,
    { status: 429, retryAfterSeconds: seconds },
  );
}

/**
 * A subscription: the address's limit and the captcha, then the address itself: confirmed already (nothing sent),
 * or a confirmation mail with a new one-time link, at most once in 60 seconds per address (SPEC §9; refused with
 * the wait in seconds). An address that unsubscribed subscribes again the same way.
 */
export async function subscribe(input: Payload<"/anon/newsletter/subscribe">, ctx: CallContext) {
  const { deps } = ctx;
  await deps.limits.consume("newsletter.ip", deps.limits.subjectOf(ctx.clientAddress));
  await accounts.api.checkCaptcha(deps, input.captchaKey, input.captcha);
  const now = deps.now();
  const email = input.email.trim();
  const byAddress = sql`lower(${newsletterSubscribers.email}) = ${email.toLowerCase()}`;
  const [existing] = await deps.db.select().from(newsletterSubscribers).where(byAddress);
  if (existing?.status === SubscriberStatus.CONFIRMED) return { email: existing.email, alreadyConfirmed: true };
  const wait = resendWaitSeconds(existing?.confirmSentAt ?? null, now);
  if (wait > 0) throw resendWait(wait);
  const permit = await deps.limits.mailPermit("newsletter", email, ctx.clientAddress);
  const token = newSecret(32);
  if (existing) {
    // Taken only if no other request sent one within the wait meanwhile.
    const cutoff = new Date(now.getTime() - NEWSLETTER_RESEND_WAIT_SECONDS * 1000);
    const [row] = await deps.db
      .update(newsletterSubscribers)
      .set({ status: SubscriberStatus.PENDING, confirmHash: sha256(token), confirmSentAt: now, language: ctx.language })
      .where(
        and(
          eq(newsletterSubscribers.id, existing.id),
          sql`(${newsletterSubscribers.confirmSentAt} is null or ${newsletterSubscribers.confirmSentAt} <= ${cutoff.toISOString()})`,
        ),
      )
      .returning({ id: newsletterSubscribers.id });
    if (!row) throw resendWait(NEWSLETTER_RESEND_WAIT_SECONDS);
  } else {
    const unsubscribe = newSecret(32);
    const [row] = await deps.db
      .insert(newsletterSubscribers)
      .values({
        email,
        language: ctx.language,
        status: SubscriberStatus.PENDING,
        confirmHash: sha256(token),
        confirmSentAt: now,
        unsubscribeHash: sha256(unsubscribe),
        unsubscribeSealed: sealWith(deps.env, UNSUBSCRIBE_KEYS, unsubscribe),
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: newsletterSubscribers.id });
    // Another request for the same address won the race: it sent the mail.
    if (!row) throw resendWait(NEWSLETTER_RESEND_WAIT_SECONDS);
  }
  await deps.mailer.send(permit, "newsletterConfirm", ctx.language, {
    link: `${deps.env.publicUrl}${confirmPath(token)}`,
  });
  return { email, alreadyConfirmed: false };
}

/** The confirmation link (one-time, two days): the subscriber is confirmed and receives the next issues. */
export async function confirm(input: Payload<"/anon/newsletter/confirm">, ctx: CallContext) {
  const now = ctx.deps.now();
  const [row] = await ctx.deps.db
    .update(newsletterSubscribers)
    .set({ status: SubscriberStatus.CONFIRMED, confirmedAt: now, confirmHash: null })
    .where(
      and(
        eq(newsletterSubscribers.confirmHash, sha256(input.token)),
        eq(newsletterSubscribers.status, SubscriberStatus.PENDING),
        sql`${newsletterSubscribers.confirmSentAt} > ${new Date(now.getTime() - CONFIRM_TTL_MS).toISOString()}`,
      ),
    )
    .returning({ email: newsletterSubscribers.email });
  if (!row) throw new ApiError(Msg.NEWSLETTER_LINK_INVALID);
  return row;
}

/** The one-click unsubscribe of every issue: no login; the same link answers again once done. */
export async function unsubscribe(input: Payload<"/anon/newsletter/unsubscribe">, ctx: CallContext) {
  const [row] = await ctx.deps.db
    .update(newsletterSubscribers)
    .set({ status: SubscriberStatus.UNSUBSCRIBED, confirmHash: null })
    .where(eq(newsletterSubscribers.unsubscribeHash, sha256(input.token)))
    .returning({ email: newsletterSubscribers.email });
  if (!row) throw new ApiError(Msg.NEWSLETTER_LINK_INVALID);
  return row;
}
