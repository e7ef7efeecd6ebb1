import { serviceActions, type ServiceAction } from "#contract/service-status.ts";
import type { ServiceRow } from "#contract/services.ts";

/** Which actions a published service offers its publisher (SPEC §4 "Action availability on a published service"). */

/**
 * The actions of SPEC §4 "Action availability on a published service", exactly those serviceActions()
 * allows. "upgrade" and "serviceUpgrade" are one entry (appState=update), shown when a service upgrade is
 * allowed (docs/decisions/012); Join is the publisher's own join through the invitation link and Config
 * upgrade leads to ConfigurationNew (docs/decisions/036).
 */
export const SHOWN_ACTIONS: readonly ServiceAction[] = [
  "details",
  "pay",
  "edit",
  "basicEdit",
  "join",
  "serviceUpgrade",
  "configUpgrade",
  "invite",
  "unsubscribe",
  "enable",
  "deactivate",
];

export function shownActions(
  row: Pick<
    ServiceRow,
    | "verState"
    | "billState"
    | "verUpable"
    | "crossStatus"
    | "freeYN"
    | "refundPending"
    | "enableRequestedAt"
    | "unpaidBillId"
  >,
) {
  const allowed = serviceActions({ ...row, unpaidBill: row.unpaidBillId !== null });
  return SHOWN_ACTIONS.filter(
    (a) => allowed.has(a) && !(a === "unsubscribe" && row.refundPending) && !(a === "enable" && row.enableRequestedAt),
  );
}
