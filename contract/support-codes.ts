/*
 * Technical support and the newsletter (SPEC §1, §2, §5 "Support ticket", §9; docs/decisions/041), the constants
 * and pure rules the portal needs too (Zod-free).
 */

/** A support ticket's status (docs/decisions/041): 1 open (waiting for support), 2 answered (waiting for the asker), 3 closed. */
export const TicketStatus = { OPEN: 1, ANSWERED: 2, CLOSED: 3 } as const;
export type TicketStatusCode = (typeof TicketStatus)[keyof typeof TicketStatus];
export const TICKET_STATUSES: readonly TicketStatusCode[] = [
  TicketStatus.OPEN,
  TicketStatus.ANSWERED,
  TicketStatus.CLOSED,
];

/** SPEC §5, §9: a ticket's question at most 500 characters; a reply is held to the same length. */
export const TICKET_TEXT_MAX = 500;

/** Where a ticket came from: the console, the public support page, or the contact page. */
export const TICKET_SOURCES = ["console", "support", "contact"] as const;
export type TicketSource = (typeof TICKET_SOURCES)[number];

/** Who wrote a message of a ticket's conversation. */
export const TICKET_AUTHORS = ["user", "operator"] as const;

/** The attachment of a ticket (SPEC §9 support file 60 MB): what the upload kind "support" accepts by extension. */
export const SUPPORT_FILE_EXTENSIONS = [".png", ".jpg", ".jpeg", ".pdf", ".zip", ".txt"] as const;
export const SUPPORT_FILE_NAME_MAX = 50;

/** The extension problem of a chosen attachment (an i18n key), or null. */
export function supportFileProblem(file: { name: string }): string | null {
  const name = file.name.trim();
  if (!name) return "support:validation.file.required";
  if (name.length > SUPPORT_FILE_NAME_MAX) return "support:validation.file.nameTooLong";
  const lower = name.toLowerCase();
  return SUPPORT_FILE_EXTENSIONS.some((ext) => lower.endsWith(ext)) ? null : "support:validation.file.type";
}

/** A newsletter subscriber: 1 waiting for the confirmation, 2 confirmed, 3 unsubscribed. */
export const SubscriberStatus = { PENDING: 1, CONFIRMED: 2, UNSUBSCRIBED: 3 } as const;

/** SPEC §9: a confirmation mail is sent again at most once in 60 seconds. */
export const NEWSLETTER_RESEND_WAIT_SECONDS = 60;

/** A newsletter issue: 1 sending (the background job is under way), 2 sent. */
export const IssueStatus = { SENDING: 1, SENT: 2 } as const;
export const NEWSLETTER_SUBJECT_MAX = 150;
export const NEWSLETTER_BODY_MAX = 20_000;

/* ------------------------------------------------ support hours ------------------------------------------------ */

/**
 * SPEC §9 support hours: weekdays 8:00-17:30 in UTC+8 (the time zone of every date here: app/lib/format.ts).
 * Public holidays are not known to the product (docs/decisions/041). A reply is expected within
 * REPLY_WITHIN_WORKING_MINUTES of support hours after a question arrives.
 */
export const SUPPORT_HOURS = { offsetMinutes: 8 * 60, openMinute: 8 * 60, closeMinute: 17 * 60 + 30 } as const;
export const REPLY_WITHIN_WORKING_MINUTES = 4 * 60;

const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;

/** Minutes since midnight and weekday (0 Sunday) of an instant in UTC+8. */
function local(at: Date) {
  const shifted = new Date(at.getTime() + SUPPORT_HOURS.offsetMinutes * MINUTE_MS);
  return {
    weekday: shifted.getUTCDay(),
    minute:
      shifted.getUTCHours() * 60 +
      shifted.getUTCMinutes() +
      shifted.getUTCSeconds() / 60 +
      shifted.getUTCMilliseconds() / MINUTE_MS,
  };
}

const isWorkday = (weekday: number) => weekday >= 1 && weekday <= 5;

/** Whether support is staffed at `at`. */
export function isSupportOpen(at: Date): boolean {
  const { weekday, minute } = local(at);
  return isWorkday(weekday) && minute >= SUPPORT_HOURS.openMinute && minute < SUPPORT_HOURS.closeMinute;
}

/** The next opening of support after `at` (at itself excluded when support is open: the next day's opening). */
export function nextOpening(at: Date): Date {
  const { weekday, minute } = local(at);
  // Midnight (UTC+8) of the day of `at`, as an instant.
  const midnight = at.getTime() - minute * MINUTE_MS;
  for (let day = 0; day <= 7; day++) {
    const opening = midnight + (day * DAY_MINUTES + SUPPORT_HOURS.openMinute) * MINUTE_MS;
    if (isWorkday((weekday + day) % 7) && opening > at.getTime()) return new Date(opening);
  }
  throw new Error("unreachable: a workday comes within a week");
}

/** The instant `minutes` of support hours after `from` (time outside support hours does not count). */
export function addSupportMinutes(from: Date, minutes: number): Date {
  let at = from;
  let left = minutes;
  for (;;) {
    if (!isSupportOpen(at)) at = nextOpening(at);
    const untilClose = SUPPORT_HOURS.closeMinute - local(at).minute;
    if (left <= untilClose) return new Date(at.getTime() + left * MINUTE_MS);
    left -= untilClose;
    at = new Date(at.getTime() + untilClose * MINUTE_MS);
  }
}

/** The notice of the support page: open now or not, when it opens next, when a question asked now gets a reply. */
export function supportNotice(now: Date): { open: boolean; opensAt: string | null; replyBy: string } {
  const open = isSupportOpen(now);
  return {
    open,
    opensAt: open ? null : nextOpening(now).toISOString(),
    replyBy: addSupportMinutes(now, REPLY_WITHIN_WORKING_MINUTES).toISOString(),
  };
}
