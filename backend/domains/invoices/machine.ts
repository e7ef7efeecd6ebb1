import { INVOICE_STATUS, INVOICE_STATUSES } from "#contract/invoice-codes.ts";
import { Msg } from "#contract/messages.ts";
import { defineMachine } from "#contract/state-machine.ts";

/**
 * An invoice application (SPEC §4 invoice status: 1 pending review, 3 not approved, 5 pending delivery,
 * 10 delivered) as a state machine; docs/decisions/008 is the reading of §4's "not shown":
 *
 * | event   | actor    | from | to | refusal                                   |
 * |---------|----------|------|----|-------------------------------------------|
 * | approve | operator | 1    | 5  |                                           |
 * | reject  | operator | 1    | 3  |                                           |
 * | deliver | operator | 5    | 10 |                                           |
 * | deliver | operator | 1    | —  | not approved yet (MSG of INVOICE_NOT_APPROVED) |
 *
 * Any other decision on a decided application is "already reviewed".
 */
export type InvoiceDecision = "approve" | "reject" | "deliver";
type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
const S = INVOICE_STATUS;

export const invoiceMachine = defineMachine<InvoiceStatus, InvoiceDecision, "operator", { comments?: string | null }>({
  name: "invoice application",
  states: INVOICE_STATUSES,
  actors: ["operator"],
  rules: [
    { event: "approve", actor: "operator", from: [S.PENDING_REVIEW], to: S.PENDING_DELIVERY },
    { event: "reject", actor: "operator", from: [S.PENDING_REVIEW], to: S.NOT_APPROVED },
    { event: "deliver", actor: "operator", from: [S.PENDING_DELIVERY], to: S.DELIVERED },
    {
      event: "deliver",
      actor: "operator",
      from: [S.PENDING_REVIEW],
      to: S.PENDING_REVIEW,
      guard: () => Msg.INVOICE_NOT_APPROVED,
    },
  ],
  refusals: {
    notAvailable: Msg.ALREADY_REVIEWED,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.COMMENTS_REQUIRED,
  },
});
