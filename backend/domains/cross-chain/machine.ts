import { CrossStatus } from "#contract/cross-chain-codes.ts";
import { Msg } from "#contract/messages.ts";
import { defineMachine } from "#contract/state-machine.ts";

/**
 * A service's cross-chain status (SPEC §4 Cross-chain: 0 deactivated, 1 activated, 2 closed, 3 pending
 * activation, 4 pending deactivation) as a state machine; docs/decisions/048 is the reading of §4 and §5:
 *
 * | event      | actor     | from  | to                  | guard                                    |
 * |------------|-----------|-------|---------------------|------------------------------------------|
 * | open       | publisher | 0, 2  | 3                   | the open refusal (rules.ts openRefusal)  |
 * | approve    | operator  | 3, 4  | 3 → 1, 4 → 0        |                                          |
 * | reject     | operator  | 3, 4  | 3 → 0, 4 → 1        | comments required                        |
 * | deactivate | publisher | 1     | 4                   |                                          |
 * | close      | publisher | 0, 3  | 2                   | not while the service is upgrading (§5)  |
 *
 * §5 "Cannot be stopped while enabled": an activated service (1) is not closed at once; it is deactivated
 * (→ 4, reviewed → 0) and then closed.
 */
export type CrossEvent = "open" | "approve" | "reject" | "deactivate" | "close";
type Status = (typeof CrossStatus)[keyof typeof CrossStatus];
const S = CrossStatus;

export type CrossCtx = { comments?: string | null; openRefusal?: string | null; upgrading?: boolean };

export const crossChainMachine = defineMachine<Status, CrossEvent, "publisher" | "operator", CrossCtx>({
  name: "Cross-chain",
  states: [S.DEACTIVATED, S.ACTIVATED, S.CLOSED, S.PENDING_ACTIVATION, S.PENDING_DEACTIVATION],
  actors: ["publisher", "operator"],
  rules: [
    {
      event: "open",
      actor: "publisher",
      from: [S.DEACTIVATED, S.CLOSED],
      to: S.PENDING_ACTIVATION,
      guard: (c) => c.openRefusal ?? null,
    },
    {
      event: "approve",
      actor: "operator",
      from: [S.PENDING_ACTIVATION, S.PENDING_DEACTIVATION],
      to: (_c, from) => (from === S.PENDING_ACTIVATION ? S.ACTIVATED : S.DEACTIVATED),
    },
    {
      event: "reject",
      actor: "operator",
      from: [S.PENDING_ACTIVATION, S.PENDING_DEACTIVATION],
      to: (_c, from) => (from === S.PENDING_ACTIVATION ? S.DEACTIVATED : S.ACTIVATED),
      commentsRequired: true,
    },
    { event: "deactivate", actor: "publisher", from: [S.ACTIVATED], to: S.PENDING_DEACTIVATION },
    {
      event: "close",
      actor: "publisher",
      from: [S.DEACTIVATED, S.PENDING_ACTIVATION],
      to: S.CLOSED,
      guard: (c) => (c.upgrading ? Msg.XC_CLOSE_UPGRADING : null),
    },
  ],
  refusals: {
    notAvailable: Msg.XC_NOT_AVAILABLE,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.COMMENTS_REQUIRED,
  },
});
