import { and, count, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { RefundState, VerState } from "#contract/service-status.ts";
import type { Db } from "#backend/db/client.ts";
import { apps, appVersions, refundRequests } from "./tables.ts";

/**
 * The console home's service figures (/main/home/dashboard), in one query over the publisher's versions:
 * the services counted by the status of their current version, and the drafts (versions in verState 1, a
 * new service's or an upgrade's).
 */
export async function serviceFigures(db: Db, userId: number) {
  const rows = await db
    .select({
      verState: appVersions.verState,
      current: sql<number>`count(*) filter (where ${apps.currentVerId} = ${appVersions.id})`.mapWith(Number),
      all: count(),
    })
    .from(appVersions)
    .innerJoin(apps, eq(apps.id, appVersions.appId))
    .where(eq(apps.userId, userId))
    .groupBy(appVersions.verState);
  return {
    byState: rows.filter((r) => r.current > 0).map((r) => ({ verState: r.verState, count: r.current })),
    drafts: rows.find((r) => r.verState === VerState.PENDING_SUBMIT)?.all ?? 0,
  };
}

/** Waiting items of this domain's operations queues (the same conditions as their lists' default view). */
export async function servicesWaiting(db: Db) {
  const [[reviews], [requests], [refunds]] = await Promise.all([
    db
      .select({ n: count() })
      .from(appVersions)
      .where(inArray(appVersions.verState, [VerState.PENDING_INITIAL_REVIEW, VerState.PENDING_REVIEW])),
    db
      .select({ n: count() })
      .from(appVersions)
      .where(and(eq(appVersions.verState, VerState.DEACTIVATED_BY_OPERATOR), isNotNull(appVersions.enableRequestedAt))),
    db.select({ n: count() }).from(refundRequests).where(eq(refundRequests.state, RefundState.PENDING)),
  ]);
  return { ServiceReviews: reviews.n, Services: requests.n, Refunds: refunds.n };
}
