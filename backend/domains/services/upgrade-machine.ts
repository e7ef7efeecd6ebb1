import { UpgradeReview } from "#contract/config-upgrade-codes.ts";
import { Msg } from "#contract/messages.ts";
import { defineMachine } from "#contract/state-machine.ts";

/**
 * The review of a configuration upgrade (SPEC §4 Config upgrade review; docs/decisions/036) as a state machine
 * (contract/state-machine.ts). The upgrade's own status and deployment follow the review in upgrade.ts
 * (rejected: status 3 failed, deployment undeployed).
 *
 * | event   | actor    | from      | to              | comments |
 * |---------|----------|-----------|-----------------|----------|
 * | approve | operator | 1 pending | 10 approved     |          |
 * | reject  | operator | 1 pending | 5 not approved  | required |
 *
 * A decision on a reviewed upgrade is "already reviewed" (MSG_30013); a rejection without comments MSG_30014.
 */
type ReviewState = (typeof UpgradeReview)[keyof typeof UpgradeReview];

export const upgradeReviewMachine = defineMachine<
  ReviewState,
  "approve" | "reject",
  "operator",
  { comments?: string | null }
>({
  name: "configuration upgrade review",
  states: [UpgradeReview.PENDING, UpgradeReview.NOT_APPROVED, UpgradeReview.APPROVED],
  actors: ["operator"],
  rules: [
    { event: "approve", actor: "operator", from: [UpgradeReview.PENDING], to: UpgradeReview.APPROVED },
    {
      event: "reject",
      actor: "operator",
      from: [UpgradeReview.PENDING],
      to: UpgradeReview.NOT_APPROVED,
      commentsRequired: true,
    },
  ],
  refusals: {
    notAvailable: Msg.ALREADY_REVIEWED,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.COMMENTS_REQUIRED,
  },
});
