import { NEWSLETTER_RESEND_WAIT_SECONDS, supportFileProblem } from "#contract/support-codes.ts";
import type { SealPurpose } from "#backend/kit/sealed.ts";
import type { UploadRule } from "#backend/kit/uploads.ts";

/** The private links of visitors' tickets: the key sealed, so that each reply's mail carries the link again. */
export const VISITOR_KEYS: SealPurpose = { label: "bsn-support-visitor-key", fallbackFile: "support-secret" };
/** The newsletter's unsubscribe tokens, sealed so that every issue's mail carries its subscriber's link. */
export const UNSUBSCRIBE_KEYS: SealPurpose = { label: "bsn-newsletter-unsubscribe", fallbackFile: "support-secret" };

/** The page of a visitor's ticket (its private link); the page of a signed-in user's ticket; the newsletter's links. */
export const visitorTicketPath = (key: string) => `/g/main/supportTicket?key=${encodeURIComponent(key)}`;
export const userTicketPath = (ticketId: number) =>
  `/g/home/DeveloperCommunity/TechnicalSupportDetail?ticketId=${ticketId}`;
export const confirmPath = (token: string) => `/g/main/subscribes/confirm?token=${encodeURIComponent(token)}`;
export const unsubscribePath = (token: string) => `/g/main/subscribes/unsubscribe?token=${encodeURIComponent(token)}`;

/**
 * SPEC §9 "support file 60MB" (contract/uploads.ts kind "support"; docs/decisions/041): a ticket's attachment,
 * streamed and checked while it arrives. The allow-list: PNG and JPEG images, PDF, ZIP (every entry inflated and
 * counted: no bomb, no path outside its folder) and plain UTF-8 text, each by its bytes, as its extension says.
 */
export const supportUpload: UploadRule = {
  nameProblem: (name) => supportFileProblem({ name }),
  messages: {
    required: "support:validation.file.required",
    tooLarge: "support:validation.file.tooLarge",
    extension: "support:validation.file.type",
    wrongType: "support:validation.file.content",
    zip: {
      unsafePath: "support:validation.file.zip",
      bomb: "support:validation.file.zip",
      invalid: "support:validation.file.zip",
    },
  },
};

/**
 * SPEC §9 newsletter resend wait: the seconds still to wait before another confirmation mail to an address
 * whose last one went out at `lastSentAt` (0: it may go now).
 */
export function resendWaitSeconds(lastSentAt: Date | null, now: Date): number {
  if (!lastSentAt) return 0;
  const elapsed = now.getTime() - lastSentAt.getTime();
  const left = NEWSLETTER_RESEND_WAIT_SECONDS * 1000 - elapsed;
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

/** The contact of a ticket as one line (operations queue): email and/or mobile. */
export const contactLine = (t: { contactEmail: string | null; contactMobile: string | null }) =>
  [t.contactEmail, t.contactMobile].filter(Boolean).join(" · ");
