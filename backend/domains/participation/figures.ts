import { and, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { apps } from "../services/tables";
import { appJoins } from "./tables";

/** §4 Participation audit states still under way (not rejected nor confirmed). */
const IN_PROGRESS = [0, 1, 3, 5, 10, 13];

/**
 * The console home's participation figures (/main/home/dashboard): requests to join the user's services
 * waiting for their decision (audit 0), and the user's own requests to join other services still under way.
 */
export async function joinFigures(db: Db, userId: number) {
  const [[toDecide], [mine]] = await Promise.all([
    db.select({ n: count() }).from(appJoins).innerJoin(apps, eq(apps.id, appJoins.appId)).where(and(eq(apps.userId, userId), eq(appJoins.auditState, 0))),
    db.select({ n: count() }).from(appJoins).where(and(eq(appJoins.userId, userId), inArray(appJoins.auditState, IN_PROGRESS))),
  ]);
  return { joinRequestsToDecide: toDecide.n, myJoinRequests: mine.n };
}

/** The operators' participation queue: requests the publisher approved (audit 1), as its list shows. */
export async function participationsWaiting(db: Db) {
  const [row] = await db.select({ n: count() }).from(appJoins).where(eq(appJoins.auditState, 1));
  return { Participations: row.n };
}
