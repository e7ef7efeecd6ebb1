import { and, count, eq, inArray, or, sql } from "drizzle-orm";
import { AuditState } from "#contract/participation-codes.ts";
import type { Db } from "#backend/db/client.ts";
import { apps } from "#backend/domains/services/tables.ts";
import { appJoins } from "./tables.ts";

/** §4 Participation audit states still under way (not rejected nor confirmed). */
const IN_PROGRESS = [0, 1, 3, 5, 10, 13];

/**
 * The console home's participation figures (/main/home/dashboard), in one query: requests to join the
 * user's services waiting for their decision (audit 0), and the user's own requests to join other services
 * still under way.
 */
export async function joinFigures(db: Db, userId: number) {
  const toDecide = and(eq(apps.userId, userId), eq(appJoins.auditState, AuditState.PENDING));
  const mine = and(eq(appJoins.userId, userId), inArray(appJoins.auditState, IN_PROGRESS));
  const [row] = await db
    .select({
      toDecide: sql<number>`count(*) filter (where ${toDecide})`.mapWith(Number),
      mine: sql<number>`count(*) filter (where ${mine})`.mapWith(Number),
    })
    .from(appJoins)
    .innerJoin(apps, eq(apps.id, appJoins.appId))
    .where(or(eq(apps.userId, userId), eq(appJoins.userId, userId)));
  return { joinRequestsToDecide: row.toDecide, myJoinRequests: row.mine };
}

/** The operators' participation queue: requests the publisher approved (audit 1), as its list shows. */
export async function participationsWaiting(db: Db) {
  const [row] = await db
    .select({ n: count() })
    .from(appJoins)
    .where(eq(appJoins.auditState, AuditState.PUBLISHER_APPROVED));
  return { Participations: row.n };
}
