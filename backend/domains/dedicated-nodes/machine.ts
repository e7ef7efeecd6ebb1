import { PrnStatus, PrnUpgradeStatus } from "#contract/dedicated-nodes-codes.ts";
import { Msg } from "#contract/messages.ts";
import { defineMachine } from "#contract/state-machine.ts";

/**
 * A dedicated node project (SPEC §4 Dedicated node service: 1 not deployed, 2 deploying, 3 running, 4 failed,
 * 5 deleted, 6 unsubscribed) as a state machine; docs/decisions/047 is the reading of §4:
 *
 * | event       | actor  | from    | to | what happens                                                      |
 * |-------------|--------|---------|----|-------------------------------------------------------------------|
 * | deploy      | system | 1       | 2  | the deploy job starts the network                                 |
 * | deployed    | system | 2       | 3  | every node runs                                                   |
 * | fail        | system | 1, 2    | 4  | the provisioner's reason kept (required)                          |
 * | unsubscribe | user   | 3       | 6  | nodes stopped, no renewal, data removed at the period's end       |
 * | lapse       | system | 3       | 6  | the renewal bill expired unpaid: as unsubscribe                   |
 * | delete      | user   | 4, 6    | 5  | hidden from the list; data removed at the period's end (4: now)   |
 *
 * A running project is unsubscribed before it is deleted, so stopping a paid network is always one explicit,
 * confirmed step. 5 is final.
 */
export type PrnEvent = "deploy" | "deployed" | "fail" | "unsubscribe" | "lapse" | "delete";
type Status = (typeof PrnStatus)[keyof typeof PrnStatus];
const S = PrnStatus;

export const prnProjectMachine = defineMachine<Status, PrnEvent, "user" | "system", { comments?: string | null }>({
  name: "dedicated node project",
  states: [S.NOT_DEPLOYED, S.DEPLOYING, S.RUNNING, S.FAILED, S.DELETED, S.UNSUBSCRIBED],
  actors: ["user", "system"],
  rules: [
    { event: "deploy", actor: "system", from: [S.NOT_DEPLOYED], to: S.DEPLOYING },
    { event: "deployed", actor: "system", from: [S.DEPLOYING], to: S.RUNNING },
    { event: "fail", actor: "system", from: [S.NOT_DEPLOYED, S.DEPLOYING], to: S.FAILED, commentsRequired: true },
    { event: "unsubscribe", actor: "user", from: [S.RUNNING], to: S.UNSUBSCRIBED },
    { event: "lapse", actor: "system", from: [S.RUNNING], to: S.UNSUBSCRIBED },
    { event: "delete", actor: "user", from: [S.FAILED, S.UNSUBSCRIBED], to: S.DELETED },
  ],
  refusals: {
    notAvailable: Msg.PRN_NOT_ALLOWED_IN_STATUS,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.PRN_NETWORK_FAILED,
  },
});

/**
 * An upgrade of a project (SPEC §4 Dedicated node upgrade: 1 upgrading, 2 success, 3 failed): the upgrade job
 * applies it; a failure keeps the provisioner's reason and refunds the difference paid.
 */
export type PrnUpgradeEvent = "succeed" | "fail";
type UpgradeStatus = (typeof PrnUpgradeStatus)[keyof typeof PrnUpgradeStatus];
const U = PrnUpgradeStatus;

export const prnUpgradeMachine = defineMachine<UpgradeStatus, PrnUpgradeEvent, "system", { comments?: string | null }>({
  name: "dedicated node upgrade",
  states: [U.UPGRADING, U.SUCCESS, U.FAILED],
  actors: ["system"],
  rules: [
    { event: "succeed", actor: "system", from: [U.UPGRADING], to: U.SUCCESS },
    { event: "fail", actor: "system", from: [U.UPGRADING], to: U.FAILED, commentsRequired: true },
  ],
  refusals: {
    notAvailable: Msg.PRN_NOT_ALLOWED_IN_STATUS,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.PRN_NETWORK_FAILED,
  },
});
