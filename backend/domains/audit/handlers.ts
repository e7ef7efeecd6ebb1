import { and, count, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { AUDIT_EXPORT_LIMIT, type AuditEntry, type AuditFilter } from "#contract/audit.ts";
import type { Db } from "#backend/db/client.ts";
import { auditLog } from "#backend/db/tables.ts";
import type { SignedInContext } from "#backend/http/router.ts";

/** The instant a UTC+8 calendar day starts (SPEC §9: the portal shows every date in UTC+8). */
const startOfUtc8Day = (day: string) => new Date(`${day}T00:00:00+08:00`);
const DAY_MS = 24 * 60 * 60 * 1000;

function conditions(filter: AuditFilter): SQL | undefined {
  const where: SQL[] = [];
  if (filter.actor) where.push(sql`lower(${auditLog.actorName}) = ${filter.actor.toLowerCase()}`);
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.targetType) where.push(eq(auditLog.targetType, filter.targetType));
  if (filter.targetId) where.push(eq(auditLog.targetId, filter.targetId));
  if (filter.dateFrom) where.push(gte(auditLog.at, startOfUtc8Day(filter.dateFrom)));
  if (filter.dateTo) where.push(lt(auditLog.at, new Date(startOfUtc8Day(filter.dateTo).getTime() + DAY_MS)));
  return where.length ? and(...where) : undefined;
}

function toEntry(row: typeof auditLog.$inferSelect): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actorId: row.actorId,
    actorName: row.actorName,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    decision: row.decision,
    comments: row.comments,
    details: row.details,
    path: row.path,
    clientIp: row.clientIp,
  };
}

async function entries(db: Db, filter: AuditFilter, limit: number, offset: number) {
  const where = conditions(filter);
  const [rows, [total]] = await Promise.all([
    db.select().from(auditLog).where(where).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { rows: rows.map(toEntry), total: total.n };
}

/** POST /sys/ops/audit/list: newest first, filtered, one page. */
export async function listAudit(
  input: AuditFilter & { pageIndex: number; pageSize: number },
  { deps }: SignedInContext,
) {
  const { pageIndex, pageSize, ...filter } = input;
  const { rows, total } = await entries(deps.db, filter, pageSize, (pageIndex - 1) * pageSize);
  return { page: { rows, total, pageIndex, pageSize } };
}

/** POST /sys/ops/audit/export: every matching entry up to AUDIT_EXPORT_LIMIT (the export itself is logged by the router). */
export async function exportAudit(input: AuditFilter, { deps }: SignedInContext) {
  const { rows, total } = await entries(deps.db, input, AUDIT_EXPORT_LIMIT, 0);
  return { rows, total, truncated: total > rows.length };
}
