import { IpfsUpgradeStatus } from "#contract/ipfs-codes.ts";
import { Msg } from "#contract/messages.ts";
import { defineMachine } from "#contract/state-machine.ts";

/**
 * An IPFS capacity upgrade (SPEC §4 IPFS upgrade: 0 pending, 2 operations processing, 5 success, 6 failed) as a
 * state machine; docs/decisions/039 (addendum "Capacity upgrades") is the reading of §4:
 *
 * | event  | actor    | from | to | guard             |
 * |--------|----------|------|----|-------------------|
 * | take   | operator | 0    | 2  |                   |
 * | succeed| operator | 2    | 5  |                   |
 * | fail   | operator | 2    | 6  | a reason required |
 * | fail   | operator | 0    | 6  | a reason required (refused without taking it) |
 *
 * Success applies the new capacity to the service; failure refunds the difference paid. 5 and 6 are final.
 */
export type IpfsUpgradeEvent = "take" | "succeed" | "fail";
type Status = (typeof IpfsUpgradeStatus)[keyof typeof IpfsUpgradeStatus];
const S = IpfsUpgradeStatus;

export const ipfsUpgradeMachine = defineMachine<Status, IpfsUpgradeEvent, "operator", { comments?: string | null }>({
  name: "IPFS capacity upgrade",
  states: [S.PENDING, S.PROCESSING, S.SUCCESS, S.FAILED],
  actors: ["operator"],
  rules: [
    { event: "take", actor: "operator", from: [S.PENDING], to: S.PROCESSING },
    { event: "succeed", actor: "operator", from: [S.PROCESSING], to: S.SUCCESS },
    { event: "fail", actor: "operator", from: [S.PENDING, S.PROCESSING], to: S.FAILED, commentsRequired: true },
  ],
  refusals: {
    notAvailable: Msg.IPFS_UPGRADE_NOT_AVAILABLE,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.IPFS_UPGRADE_REASON_REQUIRED,
  },
});
