/**
 * SPEC §4 Service status (verState) and "Action availability on a published service", written once for
 * the backend (which enforces it) and the portal (which shows only the actions allowed).
 */
export const VerState = {
  PENDING_SUBMIT: 1,
  PENDING_INITIAL_REVIEW: 5,
  PENDING_TEST: 10,
  TEST_FAILED: 11,
  PENDING_REVIEW: 15,
  INITIAL_REVIEW_REJECTED: 20,
  REVIEW_REJECTED: 22,
  TO_BE_PAID: 23,
  PENDING_PUBLISH: 24,
  RUNNING: 25,
  PUBLISH_FAILED: 26,
  DEACTIVATED: 30,
  UNINSTALLED: 35,
  DEACTIVATED_BY_OPERATOR: 40,
} as const;
export type VerStateValue = (typeof VerState)[keyof typeof VerState];
export const VER_STATES = Object.values(VerState) as VerStateValue[];

/** SPEC §4 Refund review: a refund request after unsubscribing (backend/domains/services/machine.ts refundMachine). */
export const RefundState = { PENDING: 1, NOT_APPROVED: 5, APPROVED: 10, CONFIRMED: 15 } as const;
export type RefundStateValue = (typeof RefundState)[keyof typeof RefundState];
export const REFUND_STATES = Object.values(RefundState) as RefundStateValue[];

/** §4 Payment status, as a service's billState. */
export const BILL_STATES = [1, 2, 5, 10, 15, 20, 25] as const;
/** §4 Cross-chain status: 0 deactivated, 1 activated, 2 closed, 3 pending activation, 4 pending deactivation. */
export const CROSS_STATUSES = [0, 1, 2, 3, 4] as const;

export type ServiceFlags = {
  verState: number;
  billState: number;
  /** Upgrade allowed (verUpable). */
  verUpable: boolean;
  crossStatus: number;
  /** freeYN: 1 on the free plan. */
  freeYN?: number;
  /** stuFreeAppYn: 1 for a student free plan. */
  stuFreeAppYn?: number;
  /** A bill of the running service is unpaid (a renewal of the payment cycle, docs/decisions/036). */
  unpaidBill?: boolean;
};

export const SERVICE_ACTIONS = [
  "details",
  "pay",
  "edit",
  "basicEdit",
  "join",
  "upgrade",
  "invite",
  "unsubscribe",
  "serviceUpgrade",
  "configUpgrade",
  "enable",
  "deactivate",
] as const;
export type ServiceAction = (typeof SERVICE_ACTIONS)[number];

/**
 * §4 Action availability, literally:
 * - Details always; Pay when unpaid (the publish bill of a service "to be paid": unpaid, or failed and so
 *   payable again; or, at 25, another bill of the service such as a renewal); Edit at verState 22 or 26.
 * - Basic-info edit, join, upgrade, invite, unsubscribe only when paid and running (billState 15 or 25 and
 *   verState 25); service upgrade also needs verUpable and crossStatus not 3 or 4.
 * - Config upgrade at verState 25 (running) or 40 (lapsed, renewable) on every service but the student free
 *   plan (stuFreeAppYn 1), paid or free (docs/decisions/060: not only freeYN 1, as §4 reads literally).
 *   Enable at 30 or 40.
 * - Deactivate (the lifecycle's 25 → 30) when running.
 */
export function serviceActions(s: ServiceFlags): Set<ServiceAction> {
  const actions = new Set<ServiceAction>(["details"]);
  if (s.verState === VerState.TO_BE_PAID && (s.billState === 1 || s.billState === 5)) actions.add("pay");
  if (s.verState === VerState.RUNNING && s.unpaidBill) actions.add("pay");
  if (s.verState === VerState.REVIEW_REJECTED || s.verState === VerState.PUBLISH_FAILED) actions.add("edit");
  const paidAndRunning = (s.billState === 15 || s.billState === 25) && s.verState === VerState.RUNNING;
  if (paidAndRunning) {
    for (const a of ["basicEdit", "join", "upgrade", "invite", "unsubscribe"] as const) actions.add(a);
    if (s.verUpable && s.crossStatus !== 3 && s.crossStatus !== 4) actions.add("serviceUpgrade");
  }
  if ((s.verState === VerState.RUNNING || s.verState === VerState.DEACTIVATED_BY_OPERATOR) && s.stuFreeAppYn !== 1) {
    actions.add("configUpgrade");
  }
  if (s.verState === VerState.DEACTIVATED || s.verState === VerState.DEACTIVATED_BY_OPERATOR) actions.add("enable");
  if (s.verState === VerState.RUNNING) actions.add("deactivate");
  return actions;
}
