import { Msg } from "#contract/messages.ts";
import { AUDIT_STATES } from "#contract/participation-codes.ts";
import { defineMachine, type MachineRule, type TransitionOutcome } from "#contract/state-machine.ts";

/**
 * The participation audit (SPEC §4: 0 pending, 1 publisher approved, 2 publisher rejected, 3 operator
 * approved, 4 operator rejected, 5 to order, 10 ordered, 13 work order done, 15 confirmed) as an explicit
 * state machine. §4 says "Transition rules between statuses: not shown"; this table is the reading of
 * docs/decisions/013:
 *
 * | event            | actor       | from | to | guard                                                    |
 * |------------------|-------------|------|----|----------------------------------------------------------|
 * | publisherApprove | publisher   | 0    | 1  | the caller publishes the service                         |
 * | publisherReject  | publisher   | 0    | 2  | comments required                                        |
 * | operatorApprove  | operator    | 1    | 3  |                                                          |
 * | operatorReject   | operator    | 1    | 4  | comments required                                        |
 * | order            | system      | 3    | 5  | a chosen node needs resources: the order bill is created |
 * | skipOrder        | system      | 3    | 10 | nothing to order                                         |
 * | reorder          | participant | 5    | 5  | the order bill expired unpaid: a fresh one is issued     |
 * | pay              | participant | 5    | 10 | the order bill is paid from the balance                  |
 * | workOrderDone    | system      | 10   | 13 | the work-order job provisioned every node                |
 * | confirm          | participant | 13   | 15 |                                                          |
 *
 * Disabling a participant (publisher) is not a state change: it sets app_joins.disabledAt, revokes the
 * certificate and is recorded as a transition from the state to itself (event "disable").
 */
export type JoinActor = "publisher" | "operator" | "participant" | "system";
export type JoinEvent =
  | "publisherApprove"
  | "publisherReject"
  | "operatorApprove"
  | "operatorReject"
  | "order"
  | "skipOrder"
  | "reorder"
  | "pay"
  | "workOrderDone"
  | "confirm";

export type JoinContext = {
  comments?: string | null;
  /** The order amount of the chosen nodes (cents): > 0 needs an order, 0 does not. */
  orderCents?: number;
  /** A disabled participant takes no further step. */
  disabled?: boolean;
  /** The current order bill expired unpaid (contract/participation-codes.ts orderExpired). */
  orderExpired?: boolean;
};

export type JoinRule = MachineRule<number, JoinEvent, JoinActor, JoinContext> & {
  readonly from: number;
  readonly to: number;
};

const needsOrder = (ctx: JoinContext) => ((ctx.orderCents ?? 0) > 0 ? null : Msg.JOIN_STEP_NOT_AVAILABLE);
const nothingToOrder = (ctx: JoinContext) => ((ctx.orderCents ?? 0) > 0 ? Msg.JOIN_STEP_NOT_AVAILABLE : null);
const orderExpired = (ctx: JoinContext) =>
  ctx.orderExpired && (ctx.orderCents ?? 0) > 0 ? null : Msg.JOIN_STEP_NOT_AVAILABLE;

export const JOIN_MACHINE: readonly JoinRule[] = [
  { event: "publisherApprove", actor: "publisher", from: 0, to: 1 },
  { event: "publisherReject", actor: "publisher", from: 0, to: 2, commentsRequired: true },
  { event: "operatorApprove", actor: "operator", from: 1, to: 3 },
  { event: "operatorReject", actor: "operator", from: 1, to: 4, commentsRequired: true },
  { event: "order", actor: "system", from: 3, to: 5, guard: needsOrder },
  { event: "skipOrder", actor: "system", from: 3, to: 10, guard: nothingToOrder },
  { event: "reorder", actor: "participant", from: 5, to: 5, guard: orderExpired },
  { event: "pay", actor: "participant", from: 5, to: 10 },
  { event: "workOrderDone", actor: "system", from: 10, to: 13 },
  { event: "confirm", actor: "participant", from: 13, to: 15 },
];

export type JoinResult = TransitionOutcome<number>;

export const JOIN_ACTORS: readonly JoinActor[] = ["publisher", "operator", "participant", "system"];

/** The machine (backend/kit/machine.ts) of the table above; a disabled participant takes no further step. */
export const joinMachine = defineMachine({
  name: "participation audit",
  states: AUDIT_STATES,
  actors: JOIN_ACTORS,
  rules: JOIN_MACHINE,
  refusals: {
    notAvailable: Msg.JOIN_STEP_NOT_AVAILABLE,
    notAllowed: Msg.JOIN_STEP_NOT_ALLOWED,
    commentsRequired: Msg.COMMENTS_REQUIRED,
  },
  blocked: (ctx) => !!ctx.disabled,
});

export const JOIN_EVENTS: readonly JoinEvent[] = joinMachine.events;

/** The audit state after `event` by `actor` from `from`, or the message key of the refusal. Pure. */
export function joinTransition(from: number, event: JoinEvent, actor: JoinActor, ctx: JoinContext = {}): JoinResult {
  return joinMachine.transition(from, event, actor, ctx);
}
