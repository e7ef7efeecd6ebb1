import type { DownloadSpec } from "./download-spec.ts";
import * as z from "zod";
import { captchaFields } from "./accounts.ts";
import type { PathSpec } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { email, MOBILE_RE, optionalText, required } from "./rules.ts";
import { NEWSLETTER_BODY_MAX, NEWSLETTER_SUBJECT_MAX, TICKET_SOURCES, TICKET_TEXT_MAX } from "./support-codes.ts";
import { uploadRefSchema } from "./uploads.ts";
export * from "./support-codes.ts";

/*
 * Technical support tickets, the contact form and the newsletter (SPEC §1, §2, §5 "Support ticket", §7
 * /sys/technicalSupport/insertTech, §9; docs/decisions/041).
 */

const id = () => z.number().int().positive();

/** A ticket's question or a reply: required, at most 500 characters (SPEC §5, §9). */
export const ticketText = () => required().max(TICKET_TEXT_MAX, "support:validation.text.tooLong");

/** An optional contact address: empty, or valid by the registration rules (contract/rules.ts). */
const optionalEmail = () =>
  optionalText().refine((v) => v === undefined || email().safeParse(v).success, "validation.email.format");
const optionalMobileNumber = () =>
  optionalText().refine((v) => v === undefined || MOBILE_RE.test(v), "validation.mobile.format");

/** SPEC §5: a contact email or mobile, valid; at least one of them. */
const contactFields = {
  contactEmail: optionalEmail(),
  contactMobile: optionalMobileNumber(),
};
function needsContact<T extends { contactEmail?: string; contactMobile?: string }>(value: T, ctx: z.RefinementCtx) {
  if (!value.contactEmail && !value.contactMobile)
    ctx.addIssue({ code: "custom", path: ["contactEmail"], message: "support:validation.contact.required" });
}

/** The console's new ticket (a signed-in user): question, contact, and an optional attachment (by its upload). */
export const ticketFormSchema = z.object({ question: ticketText(), ...contactFields }).superRefine(needsContact);
export const insertTechPayloadSchema = z
  .object({ question: ticketText(), ...contactFields, file: uploadRefSchema.optional() })
  .superRefine(needsContact);

/** A visitor's ticket from the support or contact page (no attachment: docs/decisions/041), with the captcha. */
export const visitorTicketFormSchema = z
  .object({
    question: ticketText(),
    contactName: optionalText().refine((v) => v === undefined || v.length <= 50, "validation.tooLong"),
    ...contactFields,
    source: z.enum(["support", "contact"]).default("support"),
    ...captchaFields,
  })
  .superRefine(needsContact);

export const replyFormSchema = z.object({ content: ticketText() });

/** The newsletter's subscription form (SPEC §2 subscribes): an address and the captcha. */
export const subscribeFormSchema = z.object({ email: email(), ...captchaFields });

const subjectText = () => required().max(NEWSLETTER_SUBJECT_MAX, "validation.tooLong");
const bodyText = () => required().max(NEWSLETTER_BODY_MAX, "validation.tooLong");
/** An operator's newsletter issue: subject and Markdown body in both languages. */
export const newsletterFormSchema = z.object({
  subjectEn: subjectText(),
  subjectZh: subjectText(),
  bodyEn: bodyText(),
  bodyZh: bodyText(),
});

/* ------------------------------------------------ data ------------------------------------------------ */

export const ticketSummarySchema = z.object({
  ticketId: z.number().int(),
  question: z.string(),
  status: z.number().int(),
  source: z.enum(TICKET_SOURCES),
  createdAt: z.string(),
  updatedAt: z.string(),
  messages: z.number().int(),
});
export type TicketSummary = z.infer<typeof ticketSummarySchema>;

export const ticketMessageSchema = z.object({
  messageId: z.number().int(),
  author: z.enum(["user", "operator"]),
  content: z.string(),
  createdAt: z.string(),
});

export const ticketDetailSchema = ticketSummarySchema.extend({
  contactName: z.string().nullable(),
  contactEmail: z.string().nullable(),
  contactMobile: z.string().nullable(),
  file: z.object({ name: z.string(), size: z.number().int(), mime: z.string() }).nullable(),
  conversation: z.array(ticketMessageSchema),
  closedAt: z.string().nullable(),
});
export type TicketDetail = z.infer<typeof ticketDetailSchema>;

export const ticketQueueItemSchema = ticketSummarySchema.extend({ owner: z.string().nullable(), contact: z.string() });

const statusOnly = z.object({ status: z.number().int() });
const statusFilter = z.number().int().min(1).max(3).optional();
const visitorKey = z.string().regex(/^[A-Za-z0-9_-]{32,64}$/, "validation.invalid");
const mailToken = z.string().regex(/^[A-Za-z0-9_-]{32,64}$/, "validation.invalid");

export const newsletterIssueSchema = z.object({
  issueId: z.number().int(),
  subjectEn: z.string(),
  subjectZh: z.string(),
  status: z.number().int(),
  recipients: z.number().int(),
  sent: z.number().int(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});

export const supportPaths = {
  /** SPEC §7: a signed-in user's new ticket (§5 rules); the attachment was streamed to /upload/support first. */
  "/sys/technicalSupport/insertTech": {
    auth: "user",
    permission: "write",
    payload: insertTechPayloadSchema,
    data: z.object({ ticketId: z.number().int() }),
  },
  "/sys/technicalSupport/list": {
    auth: "user",
    permission: "read",
    payload: z.object({ ...pagingFields, status: statusFilter }),
    data: pageOf(ticketSummarySchema),
  },
  "/sys/technicalSupport/detail": {
    auth: "user",
    permission: "read",
    payload: z.object({ ticketId: id() }),
    data: ticketDetailSchema,
  },
  /** The asker's reply: an answered ticket is open again (machine.ts). */
  "/sys/technicalSupport/reply": {
    auth: "user",
    permission: "write",
    payload: z.object({ ticketId: id(), content: ticketText() }),
    data: statusOnly,
  },
  "/sys/technicalSupport/close": {
    auth: "user",
    permission: "write",
    payload: z.object({ ticketId: id() }),
    data: statusOnly,
  },
  /** The ticket's attachment, for its owner. */
  /** A visitor's ticket (support or contact page): captcha and address limits; the private link is mailed. */
  "/anon/technicalSupport/insertTech": {
    auth: "anon",
    payload: visitorTicketFormSchema,
    data: z.object({ ticketId: z.number().int(), key: z.string(), mailed: z.boolean() }),
  },
  /** A visitor's ticket by its private link's key. */
  "/anon/technicalSupport/ticket": { auth: "anon", payload: z.object({ key: visitorKey }), data: ticketDetailSchema },
  "/anon/technicalSupport/reply": {
    auth: "anon",
    payload: z.object({ key: visitorKey, content: ticketText() }),
    data: statusOnly,
  },
  "/anon/technicalSupport/close": { auth: "anon", payload: z.object({ key: visitorKey }), data: statusOnly },
  /** Operations: tickets by status (open first by default), oldest waiting first. */
  "/sys/ops/tickets/list": {
    auth: "operator",
    payload: z.object({ ...pagingFields, status: statusFilter }),
    data: pageOf(ticketQueueItemSchema),
  },
  "/sys/ops/tickets/detail": {
    auth: "operator",
    payload: z.object({ ticketId: id() }),
    data: ticketDetailSchema.extend({ owner: z.string().nullable() }),
  },
  /** Operations: a reply (open|answered → answered); the contact gets a mail with the link to the conversation. */
  "/sys/ops/tickets/reply": {
    auth: "operator",
    payload: z.object({ ticketId: id(), content: ticketText() }),
    data: statusOnly,
  },
  "/sys/ops/tickets/close": { auth: "operator", payload: z.object({ ticketId: id() }), data: statusOnly },
  /** SPEC §2 subscribes: a confirmation mail (double opt-in); again at most once a minute (SPEC §9). */
  "/anon/newsletter/subscribe": {
    auth: "anon",
    payload: subscribeFormSchema,
    data: z.object({ email: z.string(), alreadyConfirmed: z.boolean() }),
  },
  "/anon/newsletter/confirm": {
    auth: "anon",
    payload: z.object({ token: mailToken }),
    data: z.object({ email: z.string() }),
  },
  /** The one-click unsubscribe of every newsletter mail. */
  "/anon/newsletter/unsubscribe": {
    auth: "anon",
    payload: z.object({ token: mailToken }),
    data: z.object({ email: z.string() }),
  },
  "/sys/ops/newsletter/list": {
    auth: "operator",
    payload: z.object({ ...pagingFields }),
    data: pageOf(newsletterIssueSchema).extend({ confirmed: z.number().int(), pending: z.number().int() }),
  },
  /** Operations: an issue sent to every confirmed subscriber in their language, by a background job. */
  "/sys/ops/newsletter/send": {
    auth: "operator",
    payload: newsletterFormSchema,
    data: z.object({ issueId: z.number().int(), recipients: z.number().int() }),
  },
} satisfies Record<string, PathSpec>;

/** A ticket's attachment as bytes (docs/decisions/053): the asker's own, or any for an operator. */
export const supportDownloads = {
  "support-attachment": { auth: "user", permission: "read", payload: z.object({ ticketId: id() }) },
  "ops-ticket-attachment": { auth: "operator", payload: z.object({ ticketId: id() }) },
} satisfies Record<string, DownloadSpec>;
