import { Msg } from "#contract/messages.ts";
import { eq } from "drizzle-orm";
import {
  REFUND_STATES,
  RefundState,
  VER_STATES,
  VerState,
  type RefundStateValue,
  type VerStateValue,
} from "#contract/service-status.ts";
import { defineMachine, type MachineRule, type TransitionOutcome } from "#contract/state-machine.ts";
import type { Tx } from "#backend/db/client.ts";
import { ApiError } from "#backend/http/errors.ts";
import { appTransitions, appVersions, apps } from "./tables.ts";
import inbox from "#backend/domains/inbox/index.ts";

/**
 * The service lifecycle (SPEC §4 verState) as an explicit state machine. §4 says "Transition rules between
 * statuses: not shown"; this table is the reading of it (docs/decisions/010):
 *
 * | event          | actor     | from               | to                      | guard                          |
 * |----------------|-----------|--------------------|-------------------------|--------------------------------|
 * | submit         | publisher | 1                  | 5                       | the draft is complete          |
 * | resubmit       | publisher | 11, 20, 22, 26     | 5                       | the draft is complete          |
 * | initialApprove | operator  | 5                  | 10                      |                                |
 * | initialReject  | operator  | 5                  | 20                      | comments required              |
 * | testPass       | system    | 10                 | 15                      |                                |
 * | testFail       | system    | 10                 | 11                      |                                |
 * | finalApprove   | operator  | 15                 | 23, or 24 when free     |                                |
 * | finalReject    | operator  | 15                 | 22                      | comments required              |
 * | pay            | publisher | 23                 | 24                      | within 3 days of the approval  |
 * | expire         | system    | 23                 | 1                       | 3 days passed unpaid           |
 * | deploySuccess  | system    | 24                 | 25                      |                                |
 * | deployFail     | system    | 24                 | 26                      |                                |
 * | deactivate     | publisher | 25                 | 30                      |                                |
 * | suspend        | operator  | 25                 | 40                      | comments required              |
 * | enable         | publisher | 30                 | 25                      |                                |
 * | enable         | operator  | 40                 | 25                      |                                |
 * | requestEnable  | publisher | 40                 | 40                      | no request pending (015)       |
 * | declineEnable  | operator  | 40                 | 40                      | a request pending; comments    |
 * | uninstall      | operator  | 25, 30, 40         | 35                      | the refund request is approved |
 * | lapse          | system    | 25, 30             | 40                      | a renewal bill unpaid past its deadline (036) |
 *
 * `requestEnable` and `declineEnable` leave the status as it is: the publisher asks operations to lift a
 * suspension, and an operator declines (docs/decisions/015); lifting it is the operator's `enable`.
 */
export type Actor = "publisher" | "operator" | "system";

export type LifecycleEvent =
  | "submit"
  | "resubmit"
  | "initialApprove"
  | "initialReject"
  | "testPass"
  | "testFail"
  | "finalApprove"
  | "finalReject"
  | "pay"
  | "expire"
  | "deploySuccess"
  | "deployFail"
  | "deactivate"
  | "suspend"
  | "enable"
  | "requestEnable"
  | "declineEnable"
  | "uninstall"
  | "lapse";

type Rule = MachineRule<VerStateValue, LifecycleEvent, Actor, TransitionContext>;

/** Refusals, as §8 message keys (contract/messages.ts). */
export const LifecycleRefusal = {
  NOT_AVAILABLE: "MSG_36001",
  NOT_ALLOWED: "MSG_36002",
  COMMENTS_REQUIRED: "MSG_30014",
  PAYMENT_EXPIRED: "MSG_30006",
  NOT_EXPIRED_YET: "MSG_36003",
  ENABLE_ALREADY_REQUESTED: "MSG_36004",
  NO_ENABLE_REQUEST: "MSG_36005",
} as const;

const S = VerState;

export const LIFECYCLE: readonly Rule[] = [
  { event: "submit", actor: "publisher", from: [S.PENDING_SUBMIT], to: S.PENDING_INITIAL_REVIEW },
  {
    event: "resubmit",
    actor: "publisher",
    from: [S.TEST_FAILED, S.INITIAL_REVIEW_REJECTED, S.REVIEW_REJECTED, S.PUBLISH_FAILED],
    to: S.PENDING_INITIAL_REVIEW,
  },
  { event: "initialApprove", actor: "operator", from: [S.PENDING_INITIAL_REVIEW], to: S.PENDING_TEST },
  {
    event: "initialReject",
    actor: "operator",
    from: [S.PENDING_INITIAL_REVIEW],
    to: S.INITIAL_REVIEW_REJECTED,
    commentsRequired: true,
  },
  { event: "testPass", actor: "system", from: [S.PENDING_TEST], to: S.PENDING_REVIEW },
  { event: "testFail", actor: "system", from: [S.PENDING_TEST], to: S.TEST_FAILED },
  {
    event: "finalApprove",
    actor: "operator",
    from: [S.PENDING_REVIEW],
    to: (ctx) => (ctx.free ? S.PENDING_PUBLISH : S.TO_BE_PAID),
  },
  { event: "finalReject", actor: "operator", from: [S.PENDING_REVIEW], to: S.REVIEW_REJECTED, commentsRequired: true },
  {
    event: "pay",
    actor: "publisher",
    from: [S.TO_BE_PAID],
    to: S.PENDING_PUBLISH,
    guard: (ctx) => (paymentLate(ctx) ? LifecycleRefusal.PAYMENT_EXPIRED : null),
  },
  {
    event: "expire",
    actor: "system",
    from: [S.TO_BE_PAID],
    to: S.PENDING_SUBMIT,
    guard: (ctx) => (paymentLate(ctx) ? null : LifecycleRefusal.NOT_EXPIRED_YET),
  },
  { event: "deploySuccess", actor: "system", from: [S.PENDING_PUBLISH], to: S.RUNNING },
  { event: "deployFail", actor: "system", from: [S.PENDING_PUBLISH], to: S.PUBLISH_FAILED },
  { event: "deactivate", actor: "publisher", from: [S.RUNNING], to: S.DEACTIVATED },
  { event: "suspend", actor: "operator", from: [S.RUNNING], to: S.DEACTIVATED_BY_OPERATOR, commentsRequired: true },
  { event: "enable", actor: "publisher", from: [S.DEACTIVATED], to: S.RUNNING },
  { event: "enable", actor: "operator", from: [S.DEACTIVATED_BY_OPERATOR], to: S.RUNNING },
  {
    event: "requestEnable",
    actor: "publisher",
    from: [S.DEACTIVATED_BY_OPERATOR],
    to: S.DEACTIVATED_BY_OPERATOR,
    guard: (ctx) => (ctx.enableRequested ? LifecycleRefusal.ENABLE_ALREADY_REQUESTED : null),
  },
  {
    event: "declineEnable",
    actor: "operator",
    from: [S.DEACTIVATED_BY_OPERATOR],
    to: S.DEACTIVATED_BY_OPERATOR,
    commentsRequired: true,
    guard: (ctx) => (ctx.enableRequested ? null : LifecycleRefusal.NO_ENABLE_REQUEST),
  },
  {
    event: "uninstall",
    actor: "operator",
    from: [S.RUNNING, S.DEACTIVATED, S.DEACTIVATED_BY_OPERATOR],
    to: S.UNINSTALLED,
  },
  // The platform deactivates a service whose renewal stayed unpaid: 40, the status of deactivations not
  // made by the publisher (docs/decisions/015, 036); lifting it is an operator's `enable`.
  { event: "lapse", actor: "system", from: [S.RUNNING, S.DEACTIVATED], to: S.DEACTIVATED_BY_OPERATOR },
];

/** Publish applications are valid for 3 days (SPEC §8 Payments, §9 Time). */
export const PUBLISH_PAYMENT_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

export type TransitionContext = {
  comments?: string | null;
  /** A free service skips payment (§1 one free service per account). */
  free?: boolean;
  now?: Date;
  /** For `pay` and `expire`: when the application was approved for payment. */
  approvedAt?: Date | null;
  /** For `requestEnable` and `declineEnable`: the publisher's request to lift the suspension is pending. */
  enableRequested?: boolean;
};

export type TransitionResult = TransitionOutcome<VerStateValue>;

/** More than 3 days since the approval for payment. */
function paymentLate(ctx: TransitionContext): boolean {
  const now = ctx.now ?? new Date();
  return !!ctx.approvedAt && now.getTime() - ctx.approvedAt.getTime() > PUBLISH_PAYMENT_WINDOW_MS;
}

/** The machine (backend/kit/machine.ts) of the table above. */
export const lifecycle = defineMachine({
  name: "service lifecycle",
  states: VER_STATES,
  actors: ["publisher", "operator", "system"] as const,
  rules: LIFECYCLE,
  refusals: {
    notAvailable: LifecycleRefusal.NOT_AVAILABLE,
    notAllowed: LifecycleRefusal.NOT_ALLOWED,
    commentsRequired: LifecycleRefusal.COMMENTS_REQUIRED,
  },
});

/** The state after `event` by `actor` from `from`, or the reason it is refused. Pure. */
export function transition(
  from: number,
  event: LifecycleEvent,
  actor: Actor,
  ctx: TransitionContext = {},
): TransitionResult {
  return lifecycle.transition(from, event, actor, ctx);
}

/**
 * Applies one lifecycle event to a service version inside `tx` (backend/domains/services/machine.ts decides):
 * locks the version row, refuses with the rule's message key, moves verState, records the transition
 * (actor, time, comments) for the approval records and timeline, and sends the publisher a message
 * (messages.json `messages.service.<event>`). Returns the states before and after.
 */
export async function applyTransition(
  tx: Tx,
  input: {
    verId: number;
    event: LifecycleEvent;
    actor: Actor;
    /** The user acting (publisher or operator); null for the system. */
    actorId: number | null;
    comments?: string | null;
    now: Date;
    /** Other columns of app_versions to set in the same update. */
    set?: Partial<typeof appVersions.$inferInsert>;
  },
) {
  const [version] = await tx.select().from(appVersions).where(eq(appVersions.id, input.verId)).for("update");
  if (!version) throw new ApiError("MSG_10002");
  const [app] = await tx.select().from(apps).where(eq(apps.id, version.appId));
  const ctx: TransitionContext = {
    comments: input.comments,
    free: app.freeYN === 1,
    now: input.now,
    approvedAt: version.approvedAt,
    enableRequested: version.enableRequestedAt !== null,
  };
  const result = transition(version.verState, input.event, input.actor, ctx);
  if (!result.ok) throw new ApiError(result.messageKey);
  await tx
    .update(appVersions)
    .set({ ...input.set, verState: result.to, updatedAt: input.now })
    .where(eq(appVersions.id, version.id));
  await tx.insert(appTransitions).values({
    verId: version.id,
    event: input.event,
    fromState: version.verState,
    toState: result.to,
    actorId: input.actorId,
    actorKind: input.actor,
    comments: input.comments?.trim() || null,
    createdAt: input.now,
  });
  await inbox.api.notify(tx, {
    userId: app.userId,
    textKey: `messages.service.${input.event}`,
    params: {
      name: app.name,
      version: version.version,
      ...(input.comments?.trim() ? { comments: input.comments.trim() } : {}),
    },
    ref: { kind: "service", id: app.id },
    at: input.now,
  });
  return { app, version, from: version.verState, to: result.to };
}

/**
 * A refund request after unsubscribing (SPEC §4 Refund review: 1 pending, 5 not approved, 10 approved,
 * 15 confirmed), reviewed by operators; approving it uninstalls the service (the lifecycle's `uninstall`).
 *
 * | event   | actor    | from | to | guard             |
 * |---------|----------|------|----|-------------------|
 * | approve | operator | 1    | 10 |                   |
 * | reject  | operator | 1    | 5  | comments required |
 */
export const refundMachine = defineMachine<
  RefundStateValue,
  "approve" | "reject",
  "operator",
  { comments?: string | null }
>({
  name: "refund review",
  states: REFUND_STATES,
  actors: ["operator"],
  rules: [
    { event: "approve", actor: "operator", from: [RefundState.PENDING], to: RefundState.APPROVED },
    {
      event: "reject",
      actor: "operator",
      from: [RefundState.PENDING],
      to: RefundState.NOT_APPROVED,
      commentsRequired: true,
    },
  ],
  refusals: {
    notAvailable: Msg.ALREADY_REVIEWED,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.COMMENTS_REQUIRED,
  },
});
