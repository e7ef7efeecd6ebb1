import { and, eq, gt, isNull, lte, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { PERIOD_END_DAYS, type AlertKind } from "#contract/alerts.ts";
import { PrnStatus } from "#contract/dedicated-nodes-codes.ts";
import { VerState } from "#contract/service-status.ts";
import type { Db } from "#backend/db/client.ts";
import { prnProjects } from "#backend/domains/dedicated-nodes/tables.ts";
import { appVersions, apps } from "#backend/domains/services/tables.ts";
import type { Candidate } from "./tell.ts";

/**
 * The period-end alerts (issue 35 §1, docs/decisions/090): a running dedicated-node project's or consortium service's
 * paid period is told 7 days and 1 day before it ends (the UTC day it ends is the period), while its next period is
 * not billed yet: at the end the next period is charged from the balance, and one that cannot be paid stops the
 * nodes (dedicated nodes) or, after its grace, the service. Only the running ones: a stopped one does not renew.
 */
const DAY_MS = 86_400_000;
const LONGEST = Math.max(...PERIOD_END_DAYS) * DAY_MS;

type Ending = { id: number; userId: number; name: string; end: Date };

function candidateOf(kind: AlertKind, e: Ending, now: Date): Candidate {
  const left = e.end.getTime() - now.getTime();
  // Least urgent first: 7 days, then 1 day.
  const reached = [...PERIOD_END_DAYS].filter((days) => left <= days * DAY_MS);
  const end = e.end.toISOString().slice(0, 10);
  return {
    accountId: e.userId,
    kind,
    subjectId: e.id,
    subjectName: e.name,
    reached,
    period: end,
    value: Math.ceil(left / DAY_MS),
    limit: Math.min(...reached),
    notice: (threshold) => ({
      textKey: `messages.alerts.${kind}${threshold <= 1 ? "Day" : "Week"}`,
      params: { name: e.name, end: e.end.toISOString() },
    }),
  };
}

const ofAccount = (column: PgColumn, accountId?: number): SQL[] =>
  accountId === undefined ? [] : [eq(column, accountId)];

export async function periodEndCandidates(db: Db, now: Date, accountId?: number): Promise<Candidate[]> {
  const horizon = new Date(now.getTime() + LONGEST);
  const [nodes, services] = await Promise.all([
    db
      .select({ id: prnProjects.id, userId: prnProjects.userId, name: prnProjects.name, end: prnProjects.periodEnd })
      .from(prnProjects)
      .where(
        and(
          eq(prnProjects.status, PrnStatus.RUNNING),
          isNull(prnProjects.renewalBillId),
          gt(prnProjects.periodEnd, now),
          lte(prnProjects.periodEnd, horizon),
          ...ofAccount(prnProjects.userId, accountId),
        ),
      ),
    db
      .select({ id: apps.id, userId: apps.userId, name: apps.name, end: apps.cycleEnd })
      .from(apps)
      .innerJoin(appVersions, eq(appVersions.id, apps.currentVerId))
      .where(
        and(
          eq(appVersions.verState, VerState.RUNNING),
          isNull(apps.renewalBillId),
          gt(apps.cycleEnd, now),
          lte(apps.cycleEnd, horizon),
          ...ofAccount(apps.userId, accountId),
        ),
      ),
  ]);
  return [
    ...nodes.map((n) => candidateOf("nodeEnd", n, now)),
    ...services.flatMap((s) => (s.end ? [candidateOf("serviceEnd", { ...s, end: s.end }, now)] : [])),
  ];
}
