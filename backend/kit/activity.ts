import { KIND_OF_PERMISSION, type ActivityRule } from "#contract/activity-rules.ts";
import type { ActivityKind } from "#contract/activity.ts";
import type { Permission } from "#contract/team-roles.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { teamActivity } from "#backend/db/tables.ts";

/**
 * Team activity's one writer (issue 33, docs/decisions/079). The router calls `recordActivity` after every
 * successful call of a user write path (and a download of a key or certificate) with the entry
 * `activityEntry` builds from the path's rule (contract/activity-rules.ts). Nothing updates or deletes one.
 */
export type ActivityFields = {
  action: string;
  kind: ActivityKind;
  targetId: string | null;
  details: Record<string, unknown>;
};

export type ActivityRecord = ActivityFields & {
  accountId: number;
  member: { id: number; userName: string };
  at: Date;
  path: string;
};

/** The longest text kept of one detail, and the most items of a list. */
const MAX_TEXT = 100;
const MAX_ITEMS = 20;

const idText = (value: unknown): string | null =>
  typeof value === "string" && value !== "" ? value.slice(0, 64) : typeof value === "number" ? String(value) : null;

function safeValue(value: unknown): unknown {
  if (typeof value === "string") return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value)) {
    const items = value.filter((v) => typeof v === "number" || typeof v === "string").slice(0, MAX_ITEMS);
    return items.map((v) => (typeof v === "string" ? v.slice(0, MAX_TEXT) : v));
  }
  return undefined;
}

/** The first top-level payload field naming a record (…Id, …No), when the rule names none. */
function targetField(payload: Record<string, unknown>): string | null {
  return Object.keys(payload).find((k) => /(Id|No)$/.test(k) && k !== "idempotencyKey") ?? null;
}

/**
 * The entry of one successful call: the kind by the path's permission (or `keys`), the target by the rule's
 * field or the first id-like one, and only the rule's allow-listed fields as details (short values only).
 */
export function activityEntry(
  rule: Exclude<ActivityRule, "none">,
  permission: Exclude<Permission, "read" | "own">,
  payload: Record<string, unknown>,
): ActivityFields {
  const field = rule.target === undefined ? targetField(payload) : rule.target;
  const details: Record<string, unknown> = {};
  for (const name of rule.detail ?? []) {
    const value = safeValue(payload[name]);
    if (value !== undefined) details[name] = value;
  }
  return {
    action: rule.action,
    kind: rule.keys ? "keys" : KIND_OF_PERMISSION[permission],
    targetId: field ? idText(payload[field]) : null,
    details,
  };
}

export async function recordActivity(db: Db | Tx, record: ActivityRecord): Promise<void> {
  await db.insert(teamActivity).values({
    at: record.at,
    accountId: record.accountId,
    memberId: record.member.id,
    memberName: record.member.userName,
    action: record.action,
    kind: record.kind,
    targetId: record.targetId,
    details: record.details,
    path: record.path,
  });
}
