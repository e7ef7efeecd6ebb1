import { CrossCallStatus, CrossStatus } from "#contract/cross-chain-codes.ts";

/** What the cross-chain screens may do with a service or a call, by its status (SPEC §4, §5). */

/** SPEC §4 cross-chain statuses (the Index filter) and call statuses (the calls filter). */
export const CROSS_STATUS_VALUES = [
  CrossStatus.DEACTIVATED,
  CrossStatus.ACTIVATED,
  CrossStatus.CLOSED,
  CrossStatus.PENDING_ACTIVATION,
  CrossStatus.PENDING_DEACTIVATION,
] as const;
export const CROSS_CALL_STATUS_VALUES = [
  CrossCallStatus.UNKNOWN,
  CrossCallStatus.SUCCESS,
  CrossCallStatus.FAILURE,
] as const;

/** The lifecycle actions of the Index list. */
export const INDEX_INTENTS = ["deactivate", "close"] as const;
export type IndexIntent = (typeof INDEX_INTENTS)[number];

/** SPEC §5: deactivate an activated service (→ 4, "cannot be stopped while enabled"); close one deactivated or waiting for activation (→ 2). */
export function allowedActions(crossStatus: number): IndexIntent[] {
  if (crossStatus === CrossStatus.ACTIVATED) return ["deactivate"];
  if (crossStatus === CrossStatus.DEACTIVATED || crossStatus === CrossStatus.PENDING_ACTIVATION) return ["close"];
  return [];
}

/** Opening again (Dredge) is offered to a service deactivated or closed. */
export const canReopen = (crossStatus: number) =>
  crossStatus === CrossStatus.DEACTIVATED || crossStatus === CrossStatus.CLOSED;
