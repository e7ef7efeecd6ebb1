/**
 * The money queues' machines (withdrawals, offline remittances, payments in review): their tables are in
 * contract/payment-machines.ts, so that the operations queues of the portal offer the decisions the same tables
 * allow and ask for comments where they need them.
 */
export { commentsRequiredFor } from "#contract/state-machine.ts";
export {
  paymentReviewMachine,
  PaymentReviewState,
  paymentReviewState,
  remittanceMachine,
  withdrawalMachine,
} from "#contract/payment-machines.ts";
