import type { AuditAction, AuditTarget } from "#contract/audit.ts";
import type { AuditRule } from "#contract/audit-rules.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { auditLog } from "#backend/db/tables.ts";

/**
 * The audit log's one writer (docs/decisions/022). The router calls `recordAudit` after every successful
 * operator decision, in the decision's own transaction, with the entry `entryFromRule` builds from the
 * path's rule (contract/audit-rules.ts); the second-factor handlers call it for their own events. Nothing
 * in the code updates or deletes an entry, and the database refuses it (backend/db/guards.ts).
 */
export type AuditActor = { id: number; userName: string };

export type AuditFields = {
  action: AuditAction;
  targetType: AuditTarget;
  targetId: string | null;
  decision: string | null;
  comments: string | null;
  details: Record<string, unknown>;
};

export type AuditRecord = AuditFields & { actor: AuditActor; at: Date; path: string; clientIp: string | null };

const text = (value: unknown): string | null =>
  typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : null;

/**
 * The entry of one successful call of an operator path: the target's id from the payload field the rule
 * names, the decision (the rule's, else the payload's), the comments, and the rest of the payload with
 * the path's answer as details.
 */
export function entryFromRule(
  rule: Exclude<AuditRule, "read" | "handler">,
  payload: Record<string, unknown>,
  outcome: unknown,
): AuditFields {
  const { decision, comments, ...rest } = payload;
  const details: Record<string, unknown> = { ...rest };
  if (rule.id) delete details[rule.id];
  if (rule.outcome && outcome !== null && typeof outcome === "object") details.outcome = outcome;
  return {
    action: rule.action,
    targetType: rule.target,
    targetId: rule.id ? text(payload[rule.id]) : null,
    decision: rule.decision ?? text(decision),
    comments: text(comments),
    details,
  };
}

export async function recordAudit(db: Db | Tx, record: AuditRecord): Promise<void> {
  await db.insert(auditLog).values({
    at: record.at,
    actorId: record.actor.id,
    actorName: record.actor.userName,
    action: record.action,
    targetType: record.targetType,
    targetId: record.targetId,
    decision: record.decision,
    comments: record.comments,
    details: record.details,
    path: record.path,
    clientIp: record.clientIp,
  });
}
