import type { DownloadKind } from "./downloads.ts";
import type { paths, VueapiPath } from "./paths.ts";
import type { Permission } from "./team-roles.ts";
import type { ActivityKind } from "./activity.ts";

/* ------------------------------------------------------------------------------------------------
 * What every user write path records in Team activity (issue 33 "who did what", docs/decisions/079). The
 * map is typed by the user paths whose permission is not `read` or `own`, so a new user write path does
 * not compile until it is classified here. The router writes the entry after the call succeeds
 * (backend/kit/activity.ts):
 * - "none": not a change of the account worth a line (test fixtures, a sign-in challenge, the member list);
 * - a rule: one entry per successful call, named by `action` (locales/<lng>/activity.json `actions`),
 *   of the kind its permission gives (`keys` when the rule says so: showing, downloading or regenerating
 *   a key or certificate); the target is the payload field `target` names, else the first top-level field
 *   whose name ends in `Id` or `No`; `detail` is the allow-list of payload fields kept, short values only
 *   (never a password, key, card number or secret).
 * ---------------------------------------------------------------------------------------------- */

export type ActivityRule =
  | "none"
  | {
      readonly action: string;
      readonly keys?: true;
      readonly target?: string | null;
      readonly detail?: readonly string[];
    };

/** The kind an entry has by its path's permission (a rule's `keys` makes it `keys`). */
export const KIND_OF_PERMISSION: Record<Exclude<Permission, "read" | "own">, ActivityKind> = {
  services: "services",
  pay: "money",
  account: "account",
  members: "members",
  write: "support",
};

export type UserWritePath = {
  [P in VueapiPath]: (typeof paths)[P]["auth"] extends "user"
    ? (typeof paths)[P] extends { permission: "read" | "own" }
      ? never
      : P
    : never;
}[VueapiPath];

export const ACTIVITY_RULES = {
  "/main/home/checklist/dismiss": { action: "checklist.dismiss" },
  "/sys/devGame/saveSingUpInfo": { action: "community.signUp", detail: ["eventId"] },
  "/sys/technicalSupport/insertTech": { action: "ticket.create" },
  "/sys/technicalSupport/reply": { action: "ticket.reply" },
  "/sys/technicalSupport/close": { action: "ticket.close" },
  // Money (permission `pay`).
  "/sys/system/clientInfo/h5billPay": { action: "bill.pay" },
  "/sys/system/clientInfo/h5billPayMany": { action: "bill.payMany", detail: ["billIds"] },
  "/sys/account/autoPay": { action: "autoPay.set", detail: ["enabled"] },
  "/sys/alerts/save": { action: "alerts.save", detail: ["monthlyBudget", "balanceFloor", "ipfsWeeklyTraffic"] },
  // Reading the webhook (its secret is for the roles that handle money) changes nothing.
  "/sys/alerts/webhook": "none",
  "/sys/alerts/webhook/save": { action: "alerts.webhookSave", detail: ["url", "enabled"] },
  "/sys/alerts/webhook/rotate": { action: "alerts.webhookRotate" },
  "/sys/alerts/webhook/delete": { action: "alerts.webhookDelete" },
  "/sys/alerts/webhook/test": { action: "alerts.webhookTest" },
  "/sys/account/recharge": { action: "balance.recharge", detail: ["payType", "amount"] },
  "/sys/account/payment": { action: "payment.check" },
  "/sys/account/h5cashOutAmount": { action: "balance.withdraw", detail: ["amount"] },
  "/sys/account/card": { action: "card.save" },
  "/sys/account/cardSetup": { action: "card.setup" },
  "/sys/invoicetitles/h5insertInvoiceTitle": { action: "invoiceTitle.create", detail: ["titleType"] },
  "/sys/invoicetitles/h5updateInvoiceTitle": { action: "invoiceTitle.update", detail: ["titleType"] },
  "/sys/invoicetitles/h5deleteInvoiceTitle": { action: "invoiceTitle.delete" },
  "/sys/system/clientInfo/addOrUpdateClientAddressee": { action: "addressee.save" },
  "/sys/system/clientInfo/deleteClientAddressee": { action: "addressee.delete" },
  "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade": {
    action: "invoice.apply",
    target: null,
    detail: ["billIds", "invoiceType", "issuance"],
  },
  "/sys/system/clientInfo/insertContactList": { action: "contact.save" },
  "/sys/system/clientInfo/deleteContact": { action: "contact.delete" },
  "/sys/chainAppInfo/payPublishBill": { action: "service.payPublishBill" },
  "/sys/chainAppInfo/payJoinOrder": { action: "participation.pay" },
  "/sys/configUpgrade/pay": { action: "configUpgrade.pay" },
  // The account (permission `account`).
  "/sys/system/clientInfo/updateProfile": { action: "profile.update" },
  "/sys/system/clientInfo/resubmitCertification": { action: "certification.resubmit", target: null },
  // Members (permission `members`): the list is a read of the owner's.
  "/sys/team/members": "none",
  "/sys/team/keysSeen": "none",
  "/sys/team/invite": { action: "team.invite", detail: ["email", "role"] },
  "/sys/team/resend": { action: "team.resend" },
  "/sys/team/cancelInvitation": { action: "team.cancelInvitation" },
  "/sys/team/setRole": { action: "team.setRole", detail: ["role"] },
  "/sys/team/spendLimit": { action: "team.setSpendLimit", detail: ["spendLimit"] },
  "/sys/team/remove": { action: "team.remove" },
  "/sys/team/transfer": { action: "team.transfer" },
  // Services (permission `services`).
  "/sys/chainAppInfo/deactivate": { action: "service.deactivate" },
  "/sys/chainAppInfo/enable": { action: "service.enable" },
  "/sys/chainAppInfo/unsubscribe": { action: "service.unsubscribe" },
  "/sys/chainAppInfo/requestEnable": { action: "service.requestEnable" },
  "/sys/chainAppInfo/invite": { action: "service.invite" },
  "/sys/chainAppInfo/replyComment": { action: "service.replyComment" },
  "/test/services": "none",
  "/sys/chainAppInfo/wizard/discard": { action: "wizard.discard" },
  "/sys/chainAppInfo/wizard/saveBasic": { action: "wizard.saveBasic" },
  "/sys/chainAppInfo/wizard/addAttachment": { action: "wizard.addAttachment" },
  "/sys/chainAppInfo/wizard/addPackage": { action: "wizard.addPackage" },
  "/sys/chainAppInfo/wizard/addFunction": { action: "wizard.addFunction" },
  "/sys/chainAppInfo/wizard/addRole": { action: "wizard.addRole" },
  "/sys/chainAppInfo/wizard/delete": { action: "wizard.delete", detail: ["kind"] },
  "/sys/chainAppInfo/wizard/saveNodes": { action: "wizard.saveNodes" },
  "/sys/chainAppInfo/wizard/saveCertificate": { action: "wizard.saveCertificate" },
  "/sys/chainAppInfo/wizard/advance": { action: "wizard.advance" },
  "/sys/chainAppInfo/wizard/submit": { action: "wizard.submit" },
  "/sys/store/follow": { action: "store.follow", detail: ["targetKind", "follow"] },
  "/sys/store/rate": { action: "store.rate", detail: ["score"] },
  "/sys/chainAppInfo/addComment": { action: "store.comment" },
  "/sys/store/markUseful": { action: "store.markUseful" },
  "/sys/product/save": { action: "product.save" },
  "/sys/product/submit": { action: "product.submit" },
  "/sys/product/remove": { action: "product.remove" },
  "/sys/product/publish": { action: "product.publish" },
  "/test/store": "none",
  "/sys/chainAppInfo/applyJoinApp": { action: "participation.openInvitation" },
  "/sys/chainAppInfo/joinApp": { action: "participation.apply", detail: ["roleId", "certificateMode"] },
  "/sys/chainAppInfo/confirmJoin": { action: "participation.confirm" },
  "/sys/chainAppInfo/auditAppJoined": { action: "participation.review", detail: ["auditState"] },
  "/sys/chainAppInfo/disableJoin": { action: "participation.disable" },
  "/sys/chainAppInfo/certificateFile": { action: "participation.certificateFile", keys: true, detail: ["kind"] },
  "/test/participation/service": "none",
  "/test/participation/order": "none",
  "/sys/opc/plan/buy": { action: "publicChain.buyPlan" },
  "/sys/opc/project/create": { action: "publicChain.createProject", detail: ["name", "framework"] },
  "/sys/opc/project/enable": { action: "publicChain.enableProject" },
  "/sys/opc/project/deactivate": { action: "publicChain.deactivateProject" },
  "/sys/opc/project/redeploy": { action: "publicChain.redeployProject" },
  "/sys/opc/project/key": { action: "publicChain.projectKey", keys: true, detail: ["action"] },
  "/sys/opc/account/create": { action: "publicChain.createAccount", detail: ["name", "keyType", "address"] },
  "/sys/opc/account/keystore": { action: "publicChain.keystore", keys: true },
  "/sys/opc/account/assignGas": { action: "publicChain.assignGas", detail: ["amount"] },
  "/sys/configUpgrade/create": { action: "configUpgrade.create", detail: ["upgradeType"] },
  "/sys/opc/contract/create": { action: "contract.create", detail: ["name"] },
  "/sys/opc/contract/update": { action: "contract.update", detail: ["name"] },
  "/sys/opc/contract/redeploy": { action: "contract.redeploy" },
  "/sys/opc/contract/write": { action: "contract.write", detail: ["signature"] },
  "/sys/testService/create": { action: "testService.create", detail: ["name", "version", "platform"] },
  "/sys/testService/edit": { action: "testService.edit", detail: ["name", "version"] },
  "/sys/testService/deploy": { action: "testService.deploy" },
  "/sys/testService/upgrade": { action: "testService.upgrade", detail: ["version"] },
  "/sys/testService/redeploy": { action: "testService.redeploy" },
  "/sys/testService/delete": { action: "testService.delete" },
  "/sys/testService/chaincode": { action: "testService.chaincode", detail: ["mode", "fn"] },
  "/sys/testService/identityKey": { action: "testService.identityKey", keys: true },
  "/sys/ipfsBusiness/ipfs/create": { action: "ipfs.create", detail: ["name", "storeUnit"] },
  "/sys/ipfsBusiness/ipfs/key": { action: "ipfs.key", keys: true, detail: ["kind", "action"] },
  "/sys/ipfsBusiness/ipfs/unpin": { action: "ipfs.unpin", detail: ["ipfsFileId"] },
  "/sys/ipfsBusiness/ipfsUpgrade/create": { action: "ipfs.upgrade", detail: ["toStoreUnit"] },
  "/test/ipfs/capacity": "none",
  "/sys/did/identifiers/create": { action: "did.create", detail: ["label", "method"] },
  "/sys/did/credentials/requestEnterprise": { action: "did.requestEnterprise" },
  "/sys/did/credentials/issueRole": { action: "did.issueRole", detail: ["validDays"] },
  "/sys/did/credentials/revoke": { action: "did.revoke" },
  "/sys/ddc/mint": { action: "ddc.mint", detail: ["name"] },
  "/sys/ddc/transfer": { action: "ddc.transfer", detail: ["to"] },
  "/sys/ddc/password": { action: "ddc.password", detail: ["clear"] },
  "/sys/binding/challenge": "none",
  "/sys/binding/bind": { action: "binding.bind" },
  "/sys/binding/unbind": { action: "binding.unbind" },
  "/sys/ide/workspace/create": { action: "ide.createWorkspace", detail: ["name"] },
  "/sys/ide/workspace/rename": { action: "ide.renameWorkspace", detail: ["name"] },
  "/sys/ide/workspace/delete": { action: "ide.deleteWorkspace" },
  "/sys/ide/grant": { action: "ide.grant" },
  "/sys/ide/workspace/open": { action: "ide.openWorkspace" },
  "/sys/ide/file/create": { action: "ide.createFile", target: "workspaceId", detail: ["path"] },
  "/sys/ide/file/rename": { action: "ide.renameFile", target: "fileId", detail: ["path"] },
  "/sys/ide/file/delete": { action: "ide.deleteFile", target: "fileId" },
  "/sys/ide/file/save": { action: "ide.saveFile", target: "fileId" },
  "/sys/ide/compile": { action: "ide.compile" },
  "/sys/ide/deploy": { action: "ide.deploy", detail: ["contract", "network"] },
  "/sys/ide/call": { action: "ide.call", detail: ["network", "signature"] },
  "/sys/crossChain/dredge": { action: "crossChain.open", detail: ["protocol"] },
  "/sys/crossChain/deactivate": { action: "crossChain.deactivate" },
  "/sys/crossChain/close": { action: "crossChain.close" },
  "/sys/crossChain/call": { action: "crossChain.retry", detail: ["callId"] },
  "/sys/crossChain/send": { action: "crossChain.send", detail: ["target", "kind"] },
  "/test/crossChain/call": "none",
  "/sys/prn/create": { action: "dedicatedNode.create", detail: ["name", "framework", "nodeCount", "cycle"] },
  "/sys/prn/upgrade/create": { action: "dedicatedNode.upgrade", detail: ["updateType", "toValue"] },
  "/sys/prn/password": { action: "dedicatedNode.password", keys: true },
  "/sys/prn/unsubscribe": { action: "dedicatedNode.unsubscribe" },
  "/sys/prn/delete": { action: "dedicatedNode.delete" },
  "/sys/prn/tryIt": { action: "dedicatedNode.tryIt", detail: ["method"] },
} as const satisfies Record<UserWritePath, ActivityRule>;

/** Downloads of the account's keys and certificates (the other user kinds are reads and are not recorded). */
export const DOWNLOAD_ACTIVITY: Partial<Record<DownloadKind, { action: string; target?: string }>> = {
  "participant-access-kit": { action: "participation.accessKit" },
  "service-ca-certificate": { action: "participation.caCertificate" },
};

/** Every action an entry may name (the page's labels, both locales: tests/unit/activity.test.ts). */
export const ACTIVITY_ACTIONS: readonly string[] = [
  ...new Set([
    ...Object.values(ACTIVITY_RULES as Record<string, ActivityRule>).flatMap((r) => (r === "none" ? [] : [r.action])),
    ...Object.values(DOWNLOAD_ACTIVITY).map((r) => r!.action),
  ]),
];
