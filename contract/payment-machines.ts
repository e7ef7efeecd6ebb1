import { Msg } from "./messages.ts";
import { PaymentStatus, WithdrawalState } from "./payments.ts";
import { defineMachine } from "./state-machine.ts";

/**
 * The money queues of operations (docs/decisions/007, 019) as state machines (contract/state-machine.ts), in
 * contract/ so that the portal offers the decisions the same tables allow (as contract/store-codes.ts does for
 * products); the backend's backend/domains/payments/machine.ts re-exports them.
 * Every refusal is a §8 key: a decision on a record that no longer waits for it is "already reviewed"
 * (MSG_30013), a rejection without comments MSG_30014.
 *
 * Withdrawals (SPEC §4 Refund review, WithdrawalState):
 *
 * | event   | actor    | from | to | comments |
 * |---------|----------|------|----|----------|
 * | approve | operator | 1    | 10 |          |
 * | reject  | operator | 1    | 5  | required |
 * | confirm | operator | 10   | 15 |          |
 *
 * Offline remittances (the payment's SPEC §4 status, pay type offline):
 *
 * | event   | actor    | from | to | comments |
 * |---------|----------|------|----|----------|
 * | confirm | operator | 2    | 15 |          |
 * | reject  | operator | 2    | 5  | required |
 *
 * Payments in review (the review row: 0 open while it has no decision, 1 credited, 2 rejected):
 *
 * | event  | actor    | from | to | comments |
 * |--------|----------|------|----|----------|
 * | credit | operator | 0    | 1  |          |
 * | reject | operator | 0    | 2  | required |
 */
type Ctx = { comments?: string | null };

const refusals = {
  notAvailable: Msg.ALREADY_REVIEWED,
  notAllowed: Msg.NO_PERMISSION,
  commentsRequired: Msg.COMMENTS_REQUIRED,
} as const;

const W = WithdrawalState;
type WithdrawalStateValue = (typeof W)[keyof typeof W];

export const withdrawalMachine = defineMachine<WithdrawalStateValue, "approve" | "reject" | "confirm", "operator", Ctx>(
  {
    name: "withdrawal review",
    states: [W.PENDING, W.REJECTED, W.APPROVED, W.CONFIRMED],
    actors: ["operator"],
    rules: [
      { event: "approve", actor: "operator", from: [W.PENDING], to: W.APPROVED },
      { event: "reject", actor: "operator", from: [W.PENDING], to: W.REJECTED, commentsRequired: true },
      { event: "confirm", actor: "operator", from: [W.APPROVED], to: W.CONFIRMED },
    ],
    refusals,
  },
);

type RemittanceState = typeof PaymentStatus.IN_PAYMENT | typeof PaymentStatus.PAID | typeof PaymentStatus.FAILED;

export const remittanceMachine = defineMachine<RemittanceState, "confirm" | "reject", "operator", Ctx>({
  name: "offline remittance review",
  states: [PaymentStatus.IN_PAYMENT, PaymentStatus.PAID, PaymentStatus.FAILED],
  actors: ["operator"],
  rules: [
    { event: "confirm", actor: "operator", from: [PaymentStatus.IN_PAYMENT], to: PaymentStatus.PAID },
    {
      event: "reject",
      actor: "operator",
      from: [PaymentStatus.IN_PAYMENT],
      to: PaymentStatus.FAILED,
      commentsRequired: true,
    },
  ],
  refusals,
});

/** A held payment's review row: open while it has no decision. */
export const PaymentReviewState = { OPEN: 0, CREDITED: 1, REJECTED: 2 } as const;
type PaymentReviewStateValue = (typeof PaymentReviewState)[keyof typeof PaymentReviewState];

/** The review row's state from its `decision` column. */
export function paymentReviewState(decision: string | null): PaymentReviewStateValue {
  if (!decision) return PaymentReviewState.OPEN;
  return decision === "credit" ? PaymentReviewState.CREDITED : PaymentReviewState.REJECTED;
}

const R = PaymentReviewState;

export const paymentReviewMachine = defineMachine<PaymentReviewStateValue, "credit" | "reject", "operator", Ctx>({
  name: "payment in review",
  states: [R.OPEN, R.CREDITED, R.REJECTED],
  actors: ["operator"],
  rules: [
    { event: "credit", actor: "operator", from: [R.OPEN], to: R.CREDITED },
    { event: "reject", actor: "operator", from: [R.OPEN], to: R.REJECTED, commentsRequired: true },
  ],
  refusals,
});
