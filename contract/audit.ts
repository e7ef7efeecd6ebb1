import * as z from "zod";
import { dayString } from "./billing.ts";
import type { PathSpec } from "./path-spec.ts";
import { pageOf } from "./platform.ts";

/* ------------------------------------------------------------------------------------------------
 * The operators' audit log (docs/decisions/022): every operator decision, the second-factor events, and
 * exports of the log itself. contract/audit-rules.ts says which paths write which entry.
 * ---------------------------------------------------------------------------------------------- */

export const AUDIT_ACTIONS = [
  "service.review",
  "configUpgrade.review",
  "price.change",
  "service.suspension",
  "refund.review",
  "participation.review",
  "product.review",
  "invoice.review",
  "invoice.delivery",
  "remittance.review",
  "payment.review",
  "withdrawal.review",
  "job.retry",
  "audit.export",
  "mfa.enrolment",
  "mfa.verify",
  "mfa.lockout",
  "testNetwork.reset",
  "ipfsUpgrade.take",
  "ipfsUpgrade.decision",
  "community.save",
  "community.publish",
  "community.delete",
  "ticket.reply",
  "ticket.close",
  "newsletter.send",
  "doc.change",
  "legal.change",
  "market.change",
  "credential.revoke",
  "crossChain.review",
  "certification.review",
  "certification.migrated",
  "chainNode.move",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGETS = [
  "serviceVersion",
  "refund",
  "participation",
  "product",
  "invoice",
  "payment",
  "withdrawal",
  "auditLog",
  "operator",
  "job",
  "configUpgrade",
  "priceItem",
  "testNetwork",
  "ipfsUpgrade",
  "communityPost",
  "partner",
  "ticket",
  "newsletterIssue",
  "docPage",
  "legalText",
  "contactAddresses",
  "marketPackage",
  "credential",
  "crossChainService",
  "enterpriseAccount",
  "chain",
] as const;
export type AuditTarget = (typeof AUDIT_TARGETS)[number];

/** At most this many entries in one CSV export. */
export const AUDIT_EXPORT_LIMIT = 10_000;

/** The filters of the log's list and of its export. Days are UTC+8 calendar days, both included. */
export const auditFilterSchema = z.object({
  /** The actor's username (case-insensitive, exact). */
  actor: z.string().trim().max(25).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  targetType: z.enum(AUDIT_TARGETS).optional(),
  targetId: z.string().trim().max(40).optional(),
  dateFrom: dayString().optional(),
  dateTo: dayString().optional(),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.number().int(),
  actorName: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  decision: z.string().nullable(),
  comments: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  path: z.string(),
  clientIp: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPaths = {
  "/sys/ops/audit/list": {
    auth: "operator",
    payload: auditFilterSchema.extend({
      pageIndex: z.number().int().min(1).default(1),
      pageSize: z.number().int().min(1).max(100).default(20),
    }),
    data: pageOf(auditEntrySchema),
  },
  "/sys/ops/audit/export": {
    auth: "operator",
    payload: auditFilterSchema,
    data: z.object({ rows: z.array(auditEntrySchema), total: z.number().int(), truncated: z.boolean() }),
  },
} satisfies Record<string, PathSpec>;
