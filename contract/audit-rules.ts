import type { AuditAction, AuditTarget } from "./audit.ts";
import type { paths, VueapiPath } from "./paths.ts";

/**
 * What every operator path writes to the audit log (docs/decisions/022). The map is typed by the paths
 * whose `auth` is "operator": a new operator path does not compile until it is listed here, so no
 * decision can be forgotten. The router writes the entry from the path's payload in the decision's own
 * transaction (backend/kit/audit.ts):
 * - "read": the path changes nothing; no entry.
 * - "handler": the handler writes its own entries (the second factor, whose outcome decides the action).
 * - a rule: one entry per successful call. `id` names the payload field holding the target's id;
 *   `decision` is the payload's `decision` unless the rule fixes it; `comments` is the payload's;
 *   the other payload fields go to `details`, and with `outcome` the path's answer too (the new status).
 */
export type AuditRule =
  | "read"
  | "handler"
  | {
      readonly action: AuditAction;
      readonly target: AuditTarget;
      readonly id?: string;
      readonly decision?: string;
      readonly outcome?: boolean;
    };

export type OperatorPath = { [P in VueapiPath]: (typeof paths)[P]["auth"] extends "operator" ? P : never }[VueapiPath];

export const AUDIT_RULES = {
  "/sys/ops/serviceReviews/list": "read",
  "/sys/ops/testNetwork/status": "read",
  // The reset opens a new chain before its decision commits (a single-connection database cannot wait inside the
  // router's transaction): the handler writes its entry in the transaction that moves the services.
  "/sys/ops/testNetwork/reset": "handler",
  // The chains on nodes by URL (docs/decisions/094 addendum): moving a chain re-opens it on its new node, which a
  // single-connection database cannot do inside the router's transaction; the handler writes the mapping and its
  // entry (from and to node, chain ids before and after) in one transaction, then re-opens the chain.
  "/sys/ops/chainNodes/list": "read",
  "/sys/ops/chainNodes/move": "handler",
  "/sys/ops/serviceReviews/decide": {
    action: "service.review",
    target: "serviceVersion",
    id: "appVerId",
    outcome: true,
  },
  "/sys/ops/configUpgrades/list": "read",
  "/sys/ops/configUpgrades/decide": {
    action: "configUpgrade.review",
    target: "configUpgrade",
    id: "upgradeId",
    outcome: true,
  },
  // IPFS capacity upgrades (docs/decisions/039): taking one (0 → 2), then success (5, the capacity applied) or failure (6, refunded).
  "/sys/ops/ipfsUpgrades/list": "read",
  "/sys/ops/ipfsUpgrades/take": {
    action: "ipfsUpgrade.take",
    target: "ipfsUpgrade",
    id: "ipfsUpgradeId",
    decision: "take",
    outcome: true,
  },
  "/sys/ops/ipfsUpgrades/decide": {
    action: "ipfsUpgrade.decision",
    target: "ipfsUpgrade",
    id: "ipfsUpgradeId",
    outcome: true,
  },
  // The community's content (docs/decisions/040): a save's details carry the fields and the answer (the new id).
  "/sys/ops/community/posts": "read",
  "/sys/ops/community/post": "read",
  "/sys/ops/community/signups": "read",
  "/sys/ops/community/partners": "read",
  "/sys/ops/community/savePost": {
    action: "community.save",
    target: "communityPost",
    id: "postId",
    decision: "save",
    outcome: true,
  },
  "/sys/ops/community/publishPost": {
    action: "community.publish",
    target: "communityPost",
    id: "postId",
    outcome: true,
  },
  "/sys/ops/community/deletePost": {
    action: "community.delete",
    target: "communityPost",
    id: "postId",
    decision: "delete",
    outcome: true,
  },
  "/sys/ops/community/savePartner": { action: "community.save", target: "partner", decision: "save", outcome: true },
  "/sys/ops/community/deletePartner": {
    action: "community.delete",
    target: "partner",
    id: "partnerId",
    decision: "delete",
    outcome: true,
  },
  // Technical support (docs/decisions/041): replies and closings of tickets; newsletter issues sent (the answer: how many recipients).
  "/sys/ops/tickets/list": "read",
  "/sys/ops/tickets/detail": "read",
  "/sys/ops/tickets/reply": {
    action: "ticket.reply",
    target: "ticket",
    id: "ticketId",
    decision: "reply",
    outcome: true,
  },
  "/sys/ops/tickets/close": {
    action: "ticket.close",
    target: "ticket",
    id: "ticketId",
    decision: "close",
    outcome: true,
  },
  "/sys/ops/newsletter/list": "read",
  "/sys/ops/newsletter/send": { action: "newsletter.send", target: "newsletterIssue", decision: "send", outcome: true },
  // Platform-issued DID credentials (docs/decisions/043): the list, and a revocation (details: the credential as revoked).
  "/sys/ops/did/credentials": "read",
  "/sys/ops/did/revoke": {
    action: "credential.revoke",
    target: "credential",
    id: "credentialId",
    decision: "revoke",
    outcome: true,
  },
  "/sys/ops/prices/list": "read",
  "/sys/ops/prices/history": "read",
  // One entry per item saved; details carry the area and the new prices (the history keeps each old one).
  "/sys/ops/prices/set": { action: "price.change", target: "priceItem", id: "itemId", decision: "set", outcome: true },
  "/sys/ops/refunds/list": "read",
  "/sys/ops/refunds/decide": { action: "refund.review", target: "refund", id: "refundId", outcome: true },
  "/sys/ops/services/list": "read",
  "/sys/ops/services/decide": { action: "service.suspension", target: "serviceVersion", id: "appVerId", outcome: true },
  "/sys/ops/participations/list": "read",
  "/sys/ops/participations/decide": {
    action: "participation.review",
    target: "participation",
    id: "appJoinAuditId",
    outcome: true,
  },
  "/sys/ops/products/list": "read",
  "/sys/ops/products/decide": { action: "product.review", target: "product", id: "productId", outcome: true },
  "/sys/operations/invoices/list": "read",
  "/sys/operations/invoices/detail": "read",
  "/sys/operations/invoices/approve": {
    action: "invoice.review",
    target: "invoice",
    id: "invoiceId",
    decision: "approve",
  },
  "/sys/operations/invoices/reject": {
    action: "invoice.review",
    target: "invoice",
    id: "invoiceId",
    decision: "reject",
  },
  "/sys/operations/invoices/deliver": {
    action: "invoice.delivery",
    target: "invoice",
    id: "invoiceId",
    decision: "deliver",
  },
  "/ops/remittances/list": "read",
  "/ops/remittances/review": { action: "remittance.review", target: "payment", id: "paymentNo" },
  "/ops/paymentReviews/list": "read",
  // A payment the provider reported with another amount or currency: credited or rejected (docs/decisions/019).
  "/ops/paymentReviews/review": { action: "payment.review", target: "payment", id: "paymentNo" },
  "/ops/withdrawals/list": "read",
  // decision "confirm" is the payout: the money has left for the user's account.
  "/ops/withdrawals/review": { action: "withdrawal.review", target: "withdrawal", id: "withdrawalNo" },
  "/ops/ledger/verify": "read",
  "/sys/ops/jobs/failedList": "read",
  "/sys/ops/queues/waiting": "read",
  // A dead background job put back in the queue (docs/decisions/005); the answer names its kind.
  "/sys/ops/jobs/retry": { action: "job.retry", target: "job", id: "jobId", decision: "retry", outcome: true },
  "/sys/ops/audit/list": "read",
  "/sys/ops/audit/export": { action: "audit.export", target: "auditLog", outcome: false },
  // Documentation pages and chaincode market entries (docs/decisions/042): one entry per change.
  "/sys/ops/docs/list": "read",
  "/sys/ops/docs/detail": "read",
  "/sys/ops/docs/save": { action: "doc.change", target: "docPage", id: "docId", decision: "save", outcome: true },
  "/sys/ops/docs/move": { action: "doc.change", target: "docPage", id: "docId", decision: "move", outcome: true },
  "/sys/ops/docs/publish": { action: "doc.change", target: "docPage", id: "docId", decision: "publish", outcome: true },
  "/sys/ops/docs/delete": { action: "doc.change", target: "docPage", id: "docId", decision: "delete", outcome: true },
  "/sys/ops/legal/list": "read",
  "/sys/ops/legal/detail": "read",
  "/sys/ops/legal/save": { action: "legal.change", target: "legalText", id: "page", decision: "save" },
  "/sys/ops/legal/contact": { action: "legal.change", target: "contactAddresses", decision: "save" },
  "/sys/ops/market/list": "read",
  "/sys/ops/market/save": {
    action: "market.change",
    target: "marketPackage",
    id: "marketPackageId",
    decision: "save",
    outcome: true,
  },
  "/sys/ops/market/withdraw": {
    action: "market.change",
    target: "marketPackage",
    id: "marketPackageId",
    decision: "withdraw",
    outcome: true,
  },
  "/sys/ops/crossChain/pending": "read",
  // Approving an activation deploys the protocol's contracts on the chains first (a single-connection database cannot
  // wait inside the router's transaction): the handler writes its entry in the transaction that moves the status.
  "/sys/ops/crossChain/review": "handler",
  "/sys/ops/certifications/list": "read",
  "/sys/ops/certifications/review": {
    action: "certification.review",
    target: "enterpriseAccount",
    id: "userId",
    outcome: true,
  },
  "/main/mfa/enrolment": "handler",
  "/main/mfa/confirm": "handler",
  "/main/mfa/verify": "handler",
} as const satisfies Record<OperatorPath, AuditRule>;
