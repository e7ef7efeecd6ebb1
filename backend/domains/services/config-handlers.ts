import billing from "#backend/domains/billing/index.ts";
import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { configurationPaths } from "#contract/configuration.ts";
import { UpgradeReview } from "#contract/config-upgrade-codes.ts";
import { Msg } from "#contract/messages.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { apps, configUpgrades } from "./tables.ts";
import {
  createUpgrade,
  cycleOf,
  currentConfig,
  leftFor,
  priceRequest,
  refusalNow,
  upgradableService,
  upgradeDetails,
  upgradeRows,
} from "./upgrade.ts";
import { payUpgrade, reviewUpgrade } from "./upgrade-lifecycle.ts";

/** The /vueapi paths of configuration upgrades (contract/configuration.ts; docs/decisions/036). */

type Payload<P extends keyof typeof configurationPaths> = z.output<(typeof configurationPaths)[P]["payload"]>;

/** SPEC §2 Configuration: the caller's upgrades, newest first, optionally of one service. */
export async function upgradeList(input: Payload<"/sys/configUpgrade/list">, { deps, user }: SignedInContext) {
  if (input.appId) {
    // A filter by another user's service is refused, not answered with an empty page.
    const [app] = await deps.db.select({ userId: apps.userId }).from(apps).where(eq(apps.id, input.appId));
    if (!app || app.userId !== user.id) throw new ApiError(Msg.NOT_FOUND);
  }
  const where = and(
    eq(configUpgrades.userId, user.id),
    input.appId ? eq(configUpgrades.appId, input.appId) : undefined,
  );
  const [{ total }] = await deps.db.select({ total: count() }).from(configUpgrades).where(where);
  const rows = await upgradeRows(deps.db, where, input.pageSize, (input.pageIndex - 1) * input.pageSize);
  return { page: { rows, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/** What ConfigurationNew shows: the service's configuration, its cycle, what nodes have left, and §5's refusal. */
export async function upgradeOptions(input: Payload<"/sys/configUpgrade/options">, { deps, user }: SignedInContext) {
  const now = deps.now();
  const { app, version } = await upgradableService(deps.db, user.id, input.appId);
  const cycle = cycleOf(app, version.publishedAt, now);
  return {
    appId: app.id,
    appVerId: version.id,
    name: app.name,
    paymentCycle: app.paymentCycle,
    cycleStart: cycle?.start.toISOString() ?? null,
    cycleEnd: cycle?.end.toISOString() ?? null,
    current: await currentConfig(deps.db, version.id),
    left: await leftFor(deps.db, version.id),
    refusal: await refusalNow(deps.db, app, version, now),
  };
}

export async function upgradeQuote(input: Payload<"/sys/configUpgrade/quote">, { deps, user }: SignedInContext) {
  const now = deps.now();
  const { app, version } = await upgradableService(deps.db, user.id, input.appId);
  const priced = await priceRequest(deps.db, app, version, input, now);
  return {
    amountCents: priced.amountCents,
    fullCycleDiffCents: priced.fullCycleDiffCents,
    remainingDays: priced.remainingDays,
    cycleEnd: priced.cycle.end.toISOString(),
  };
}

export async function upgradeCreate(input: Payload<"/sys/configUpgrade/create">, { deps, user }: SignedInContext) {
  const now = deps.now();
  const row = await deps.db.transaction((tx) => createUpgrade(tx, user.id, input, now));
  return (await upgradeDetails(deps.db, [row], now))[0];
}

export async function upgradeDetail(input: Payload<"/sys/configUpgrade/detail">, { deps, user }: SignedInContext) {
  const [row] = await deps.db.select().from(configUpgrades).where(eq(configUpgrades.id, input.upgradeId));
  if (!row || row.userId !== user.id) throw new ApiError(Msg.NOT_FOUND);
  return (await upgradeDetails(deps.db, [row], deps.now()))[0];
}

export async function upgradePay(input: Payload<"/sys/configUpgrade/pay">, { deps, user }: SignedInContext) {
  const now = deps.now();
  // Above a developer's spending limit the upgrade's bill waits for finance (docs/decisions/080).
  const paid = await deps.db
    .transaction((tx) =>
      payUpgrade(tx, {
        userId: user.id,
        upgradeId: input.upgradeId,
        idempotencyKey: `upgradepay:${input.idempotencyKey}`,
        now,
      }),
    )
    .catch((error: unknown) => billing.api.sendToFinanceOr(deps.db, user.id, error, now));
  return { billId: paid.billId, replayed: paid.replayed };
}

/** Operations: pending requests (oldest first) or those not approved (newest first), with what they change. */
export async function opsUpgradeList(input: Payload<"/sys/ops/configUpgrades/list">, { deps }: SignedInContext) {
  const state = input.queue === "pending" ? UpgradeReview.PENDING : UpgradeReview.NOT_APPROVED;
  const where = eq(configUpgrades.reviewState, state);
  const [{ total }] = await deps.db.select({ total: count() }).from(configUpgrades).where(where);
  const rows = await deps.db
    .select()
    .from(configUpgrades)
    .where(where)
    .orderBy(input.queue === "pending" ? configUpgrades.createdAt : desc(configUpgrades.reviewedAt), configUpgrades.id)
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return {
    page: {
      rows: await upgradeDetails(deps.db, rows, deps.now()),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
}

export async function opsUpgradeDecide(
  input: Payload<"/sys/ops/configUpgrades/decide">,
  { deps, user }: SignedInContext,
) {
  const now = deps.now();
  const u = await deps.db.transaction((tx) =>
    reviewUpgrade(tx, {
      upgradeId: input.upgradeId,
      decision: input.decision,
      comments: input.comments,
      operatorId: user.id,
      now,
    }),
  );
  return { reviewState: u.reviewState, status: u.status };
}

/** A service's upgrade history (ServicesDetail), newest first. */
export async function upgradeHistory(db: SignedInContext["deps"]["db"], appId: number) {
  return upgradeRows(db, eq(configUpgrades.appId, appId), 50, 0);
}

/** The services among `appIds` with an unpaid renewal bill, and that bill (Pay on the list and the detail). */
export async function unpaidRenewals(db: SignedInContext["deps"]["db"], appIds: number[]) {
  if (appIds.length === 0) return new Map<number, number>();
  const rows = await db.select({ id: apps.id, billId: apps.renewalBillId }).from(apps).where(inArray(apps.id, appIds));
  return new Map(rows.flatMap((r) => (r.billId ? [[r.id, r.billId] as [number, number]] : [])));
}
