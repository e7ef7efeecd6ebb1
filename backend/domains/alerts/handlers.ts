import { count, desc, eq } from "drizzle-orm";
import { toCents } from "#contract/rules.ts";
import { bytesOfGb, type AlertKind } from "#contract/alerts.ts";
import type { Handler } from "#backend/http/router.ts";
import { balanceOf, billedThisMonth, checkAlerts } from "./check.ts";
import { alertFirings, alertSettings } from "./tables.ts";

/** The Alerts page (issue 35 §1, docs/decisions/087): the acting account's settings, where it stands, and its history. */

export const alertSettingsOf: Handler<"/sys/alerts/settings"> = async (_input, { deps, user }) => {
  const now = deps.now();
  const [[settings], billed, balance] = await Promise.all([
    deps.db.select().from(alertSettings).where(eq(alertSettings.accountId, user.id)),
    billedThisMonth(deps.db, user.id, now),
    balanceOf(deps.db, user.id),
  ]);
  return {
    monthlyBudgetCents: settings?.monthlyBudgetCents ?? null,
    balanceFloorCents: settings?.balanceFloorCents ?? null,
    ipfsWeeklyTrafficBytes: settings?.ipfsWeeklyTrafficBytes ?? null,
    billedThisMonthCents: billed,
    balanceCents: balance,
  };
};

/** Saves the alerts and checks them at once, so a budget already passed is told now, not at the next check. */
export const saveAlertSettings: Handler<"/sys/alerts/save"> = async (input, { deps, user, member }) => {
  const now = deps.now();
  const values = {
    monthlyBudgetCents: input.monthlyBudget ? toCents(input.monthlyBudget) : null,
    balanceFloorCents: input.balanceFloor ? toCents(input.balanceFloor) : null,
    ipfsWeeklyTrafficBytes: input.ipfsWeeklyTraffic ? bytesOfGb(input.ipfsWeeklyTraffic) : null,
    updatedAt: now,
    updatedBy: member.id,
  };
  await deps.db
    .insert(alertSettings)
    .values({ accountId: user.id, ...values })
    .onConflictDoUpdate({ target: alertSettings.accountId, set: values });
  await checkAlerts(deps.db, user.id, now);
  return null;
};

export const alertHistory: Handler<"/sys/alerts/history"> = async (input, { deps, user }) => {
  const where = eq(alertFirings.accountId, user.id);
  const [rows, [{ total }]] = await Promise.all([
    deps.db
      .select()
      .from(alertFirings)
      .where(where)
      .orderBy(desc(alertFirings.firedAt), desc(alertFirings.id))
      .limit(input.pageSize)
      .offset((input.pageIndex - 1) * input.pageSize),
    deps.db.select({ total: count() }).from(alertFirings).where(where),
  ]);
  return {
    page: {
      rows: rows.map((r) => ({
        id: r.id,
        kind: r.kind as AlertKind,
        subjectId: r.subjectId,
        subjectName: r.subjectName,
        threshold: r.threshold,
        period: r.period,
        valueCents: r.valueCents,
        limitCents: r.limitCents,
        firedAt: r.firedAt.toISOString(),
      })),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
};
