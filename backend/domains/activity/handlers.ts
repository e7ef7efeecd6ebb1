import { and, count, desc, eq, gte, inArray, lt, max, ne, or, sql, type SQL } from "drizzle-orm";
import {
  ACTIVITY_EXPORT_LIMIT,
  SEEN_KEY_ACTIONS,
  type ActivityEntry,
  type ActivityFilter,
  type KeySeen,
} from "#contract/activity.ts";
import { Msg } from "#contract/messages.ts";
import type { Db } from "#backend/db/client.ts";
import { teamActivity } from "#backend/db/tables.ts";
import { teamMembers } from "#backend/domains/accounts/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";

/** The instant a UTC+8 calendar day starts (SPEC §9: the portal shows every date in UTC+8). */
const startOfUtc8Day = (day: string) => new Date(`${day}T00:00:00+08:00`);
const DAY_MS = 24 * 60 * 60 * 1000;

/** The account's entries only, then the filters (member, kind, days). */
function conditions(accountId: number, filter: ActivityFilter): SQL | undefined {
  const where: SQL[] = [eq(teamActivity.accountId, accountId)];
  if (filter.memberId) where.push(eq(teamActivity.memberId, filter.memberId));
  if (filter.kind) where.push(eq(teamActivity.kind, filter.kind));
  if (filter.dateFrom) where.push(gte(teamActivity.at, startOfUtc8Day(filter.dateFrom)));
  if (filter.dateTo) where.push(lt(teamActivity.at, new Date(startOfUtc8Day(filter.dateTo).getTime() + DAY_MS)));
  return and(...where);
}

function toEntry(row: typeof teamActivity.$inferSelect): ActivityEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    memberId: row.memberId,
    memberName: row.memberName,
    action: row.action,
    kind: row.kind,
    targetId: row.targetId,
    details: row.details,
  };
}

/**
 * The member filter names someone who has acted in this account (the filter's choices are `actorsOf`): any other
 * id, another account's login included, is refused rather than answered with an empty page.
 */
async function checkMemberFilter(db: Db, accountId: number, memberId: number | undefined) {
  if (!memberId) return;
  const [row] = await db
    .select({ id: teamActivity.id })
    .from(teamActivity)
    .where(and(eq(teamActivity.accountId, accountId), eq(teamActivity.memberId, memberId)))
    .limit(1);
  if (!row) throw new ApiError(Msg.NOT_A_MEMBER);
}

async function entries(db: Db, accountId: number, filter: ActivityFilter, limit: number, offset: number) {
  await checkMemberFilter(db, accountId, filter.memberId);
  const where = conditions(accountId, filter);
  const rows = await db
    .select()
    .from(teamActivity)
    .where(where)
    .orderBy(desc(teamActivity.at), desc(teamActivity.id))
    .limit(limit)
    .offset(offset);
  const [total] = await db.select({ n: count() }).from(teamActivity).where(where);
  return { rows: rows.map(toEntry), total: total.n };
}

/** Everyone who has acted in the account, by the name of their latest entry (the member filter's choices). */
async function actorsOf(db: Db, accountId: number) {
  const named = await db
    .select({ memberId: teamActivity.memberId, memberName: teamActivity.memberName, lastId: max(teamActivity.id) })
    .from(teamActivity)
    .where(eq(teamActivity.accountId, accountId))
    .groupBy(teamActivity.memberId, teamActivity.memberName);
  const latest = new Map<number, { memberName: string; lastId: number }>();
  for (const { memberId, memberName, lastId } of named) {
    const seen = latest.get(memberId);
    if (!seen || (lastId ?? 0) > seen.lastId) latest.set(memberId, { memberName, lastId: lastId ?? 0 });
  }
  return [...latest]
    .map(([memberId, { memberName }]) => ({ memberId, memberName }))
    .sort((a, b) => a.memberName.localeCompare(b.memberName));
}

/** POST /sys/team/activity: the acting account's entries, newest first, filtered, one page. */
export async function listActivity(input: Payload<"/sys/team/activity">, { deps, user }: SignedInContext) {
  const { pageIndex, pageSize, ...filter } = input;
  const { rows, total } = await entries(deps.db, user.id, filter, pageSize, (pageIndex - 1) * pageSize);
  return { page: { rows, total, pageIndex, pageSize }, actors: await actorsOf(deps.db, user.id) };
}

/** POST /sys/team/activityExport: every matching entry of the account up to ACTIVITY_EXPORT_LIMIT. */
export async function exportActivity(input: Payload<"/sys/team/activityExport">, { deps, user }: SignedInContext) {
  const { rows, total } = await entries(deps.db, user.id, input, ACTIVITY_EXPORT_LIMIT, 0);
  return { rows, total, truncated: total > rows.length };
}

/**
 * POST /sys/team/keysSeen: the keys and secrets `memberId` has seen in the acting account (its Team activity entries
 * of SEEN_KEY_ACTIONS), one line per key with the latest time, newest first; their name as they last acted. The login
 * is a member of the account now or has acted in it (a removed member); any other is refused (not a member).
 */
export async function keysSeen(input: Payload<"/sys/team/keysSeen">, { deps, user }: SignedInContext) {
  const [named] = await deps.db
    .select({ memberName: teamActivity.memberName })
    .from(teamActivity)
    .where(and(eq(teamActivity.accountId, user.id), eq(teamActivity.memberId, input.memberId)))
    .orderBy(desc(teamActivity.id))
    .limit(1);
  if (!named) {
    // Never acted here: a member who has seen nothing yet, or not this account's at all.
    const [member] = await deps.db
      .select({ memberId: teamMembers.memberId })
      .from(teamMembers)
      .where(and(eq(teamMembers.accountId, user.id), eq(teamMembers.memberId, input.memberId)))
      .limit(1);
    if (!member) throw new ApiError(Msg.NOT_A_MEMBER);
    return { memberName: null, keys: [] };
  }
  const lastAt = max(teamActivity.at);
  const rows = await deps.db
    .select({ action: teamActivity.action, targetId: teamActivity.targetId, lastAt })
    .from(teamActivity)
    .where(
      and(
        eq(teamActivity.accountId, user.id),
        eq(teamActivity.memberId, input.memberId),
        inArray(teamActivity.action, [...SEEN_KEY_ACTIONS]),
        // A certificate itself is public: only its private key's download counts.
        or(ne(teamActivity.action, "participation.certificateFile"), eq(sql`${teamActivity.details}->>'kind'`, "key")),
      ),
    )
    .groupBy(teamActivity.action, teamActivity.targetId)
    .orderBy(desc(lastAt), desc(max(teamActivity.id)));
  const keys: KeySeen[] = rows.map((r) => ({
    action: r.action as KeySeen["action"],
    targetId: r.targetId,
    lastAt: new Date(r.lastAt as unknown as string | Date).toISOString(),
  }));
  return { memberName: named.memberName, keys };
}
