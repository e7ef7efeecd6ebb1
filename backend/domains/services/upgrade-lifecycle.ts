import billing from "#backend/domains/billing/index.ts";
import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import { BillType, PayState } from "#contract/billing-codes.ts";
import { UPGRADE_PAYMENT_WINDOW_MS, UpgradeDeploy, UpgradeStatus } from "#contract/config-upgrade-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Finding } from "#contract/services.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import { schedule, type JobHandler } from "#backend/jobs/runner.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { storeReport } from "./inspect.ts";
import { availableOn } from "./jobs.ts";
import { appNodes, appVersions, apps, configUpgrades } from "./tables.ts";
import { upgradeReviewMachine } from "./upgrade-machine.ts";
import { JOB_UPGRADE_DEPLOY, resourceLines, priceCatalogue, tell, usd } from "./upgrade.ts";

/*
 * A configuration upgrade after its request (upgrade.ts; docs/decisions/036): the operator's review, the bill
 * paid, the deployment job that re-books the node resources, and the expiry of upgrades left unpaid.
 */

/** Locks one upgrade (404 when absent or, with `userId`, another user's). */
async function lockedUpgrade(tx: Tx, upgradeId: number, userId?: number) {
  const [u] = await tx.select().from(configUpgrades).where(eq(configUpgrades.id, upgradeId)).for("update");
  if (!u || (userId !== undefined && u.userId !== userId)) throw new ApiError(Msg.NOT_FOUND);
  const [app] = await tx.select().from(apps).where(eq(apps.id, u.appId));
  return { upgrade: u, app };
}

/**
 * An operator's review (§4 review 1 pending → 10 approved or 5 not approved with comments). Approving makes
 * the bill (§9 type 2, payable 3 days) or, with nothing to pay, starts the deployment at once; rejecting ends
 * the upgrade (status 3 failed, deployment 25 undeployed).
 */
export async function reviewUpgrade(
  tx: Tx,
  input: { upgradeId: number; decision: "approve" | "reject"; comments?: string; operatorId: number; now: Date },
) {
  const { upgrade, app } = await lockedUpgrade(tx, input.upgradeId);
  const decided = upgradeReviewMachine.transition(upgrade.reviewState, input.decision, "operator", {
    comments: input.comments,
  });
  if (!decided.ok) throw new ApiError(decided.messageKey);
  const reviewed = {
    reviewedBy: input.operatorId,
    reviewedAt: input.now,
    reviewComments: input.comments?.trim() || null,
    updatedAt: input.now,
  };
  if (input.decision === "reject") {
    const [u] = await tx
      .update(configUpgrades)
      .set({
        ...reviewed,
        reviewState: decided.to,
        status: UpgradeStatus.FAILED,
        deployState: UpgradeDeploy.UNDEPLOYED,
      })
      .where(eq(configUpgrades.id, upgrade.id))
      .returning();
    await tell(tx, u, app.name, "upgradeRejected", input.now, { comments: reviewed.reviewComments ?? "" });
    return u;
  }
  if (upgrade.amountCents === 0) {
    const [u] = await tx
      .update(configUpgrades)
      .set({ ...reviewed, reviewState: decided.to, deployState: UpgradeDeploy.IN_PROGRESS })
      .where(eq(configUpgrades.id, upgrade.id))
      .returning();
    await scheduleUpgradeDeploy(tx, u.id, input.now);
    await tell(tx, u, app.name, "upgradeApprovedFree", input.now);
    return u;
  }
  const bill = await billing.api.issueBill(tx, {
    billNo: billing.api.newBillNo(input.now, "CB"),
    userId: upgrade.userId,
    appId: upgrade.appId,
    serviceName: app.name,
    billType: BillType.CONFIG_UPGRADE,
    payState: PayState.UNPAID,
    payMode: 1,
    cycle: upgrade.paymentCycle,
    periodStart: input.now,
    periodEnd: upgrade.cycleEnd,
    createdAt: input.now,
    deadline: new Date(input.now.getTime() + UPGRADE_PAYMENT_WINDOW_MS),
    totalCents: upgrade.amountCents,
    payCents: upgrade.amountCents,
    detail: {
      resources: resourceLines(upgrade.after, await priceCatalogue(tx), upgrade.paymentCycle),
      nodeCount: upgrade.after.length,
    },
    dedupeKey: `configUpgrade:${upgrade.id}`,
  });
  const [u] = await tx
    .update(configUpgrades)
    .set({ ...reviewed, reviewState: decided.to, billId: bill.id })
    .where(eq(configUpgrades.id, upgrade.id))
    .returning();
  await tell(tx, u, app.name, "upgradeApproved", input.now, { amount: usd(u.amountCents) });
  return u;
}

/**
 * Pays an approved upgrade's bill from the balance (insufficient → MSG_30001 from the ledger) and starts its
 * deployment (5 in progress). Paying twice pays once.
 */
export async function payUpgrade(
  tx: Tx,
  input: { userId: number; upgradeId?: number; billId?: number; idempotencyKey: string; now: Date },
) {
  let upgradeId = input.upgradeId;
  if (upgradeId === undefined) {
    const [linked] = await tx
      .select({ id: configUpgrades.id })
      .from(configUpgrades)
      .where(eq(configUpgrades.billId, input.billId ?? -1));
    if (!linked) throw new ApiError(Msg.NOT_FOUND);
    upgradeId = linked.id;
  }
  const { upgrade, app } = await lockedUpgrade(tx, upgradeId, input.userId);
  if (!upgrade.billId) throw new ApiError(Msg.UPGRADE_NOT_PAYABLE);
  const [bill] = await tx.select().from(bills).where(eq(bills.id, upgrade.billId)).for("update");
  if (bill.payState === PayState.PAID) return { billId: bill.id, replayed: true, bill };
  if (upgrade.status !== UpgradeStatus.UPGRADING || !billing.api.isPayable(bill, input.now))
    throw new ApiError(Msg.UPGRADE_NOT_PAYABLE);
  await billing.api.post(
    tx,
    {
      userId: input.userId,
      kind: "bill_payment",
      amountCents: bill.payCents,
      refType: "bill",
      refId: bill.id,
      idempotencyKey: input.idempotencyKey,
    },
    input.now,
  );
  const paid = await billing.api.markBillPaid(tx, bill.id, input.now);
  await tx
    .update(configUpgrades)
    .set({ deployState: UpgradeDeploy.IN_PROGRESS, updatedAt: input.now })
    .where(eq(configUpgrades.id, upgrade.id));
  await scheduleUpgradeDeploy(tx, upgrade.id, input.now);
  await tell(tx, upgrade, app.name, "upgradePaid", input.now);
  return { billId: bill.id, replayed: false, bill: paid };
}

export function scheduleUpgradeDeploy(tx: Tx, upgradeId: number, now: Date) {
  return schedule(
    tx,
    JOB_UPGRADE_DEPLOY,
    { upgradeId },
    { runAt: now, dedupeKey: `${JOB_UPGRADE_DEPLOY}:${upgradeId}` },
  );
}

/**
 * The deployment job: in one transaction, locks the upgrade and the city nodes of both configurations (in id
 * order, as the service deployment does), checks what each node has left besides this service, and either
 * re-books the version's nodes (removed ones released, new ones booked) → 10 success and upgrade
 * status 2, or books nothing → 20 failed and status 3 with the reasons ("Insufficient resources").
 */
export async function deployUpgradeInTx(tx: Tx, upgradeId: number, now: Date) {
  const [upgrade] = await tx.select().from(configUpgrades).where(eq(configUpgrades.id, upgradeId)).for("update");
  if (!upgrade || upgrade.deployState !== UpgradeDeploy.IN_PROGRESS) return;
  // The version stays locked while its nodes are re-booked.
  await tx.select({ id: appVersions.id }).from(appVersions).where(eq(appVersions.id, upgrade.verId)).for("update");
  const [app] = await tx.select().from(apps).where(eq(apps.id, upgrade.appId));
  const ids = [...new Set([...upgrade.before, ...upgrade.after].map((n) => n.cityNodeId))].sort((a, b) => a - b);
  if (ids.length > 0)
    await tx
      .select({ id: cityNodes.id })
      .from(cityNodes)
      .where(inArray(cityNodes.id, ids))
      .orderBy(asc(cityNodes.id))
      .for("update");
  const findings: Finding[] = [];
  for (const w of upgrade.after) {
    const left = await availableOn(tx, w.cityNodeId, upgrade.verId);
    if (w.tps > left.tps || w.capacityGb > left.capacityGb) {
      findings.push({
        key: "report.insufficientResources",
        params: {
          node: left.node.name,
          tps: String(w.tps),
          tpsLeft: String(Math.max(0, left.tps)),
          capacityGb: String(w.capacityGb),
          capacityLeft: String(Math.max(0, left.capacityGb)),
        },
      });
    }
  }
  if (findings.length > 0) {
    await tx
      .update(configUpgrades)
      .set({
        deployState: UpgradeDeploy.FAILED,
        status: UpgradeStatus.FAILED,
        deployReport: storeReport(findings, { key: "report.suggest.resources", params: {} }),
        updatedAt: now,
      })
      .where(eq(configUpgrades.id, upgrade.id));
    await tell(tx, upgrade, app.name, "upgradeFailed", now);
    return;
  }
  const current = await tx.select().from(appNodes).where(eq(appNodes.verId, upgrade.verId));
  const wanted = new Map(upgrade.after.map((n) => [n.cityNodeId, n]));
  for (const row of current) {
    if (!wanted.has(row.cityNodeId))
      await tx.delete(appNodes).where(and(eq(appNodes.verId, upgrade.verId), eq(appNodes.cityNodeId, row.cityNodeId)));
  }
  for (const n of upgrade.after) {
    const had = current.find((r) => r.cityNodeId === n.cityNodeId);
    if (had) {
      await tx
        .update(appNodes)
        .set({ tps: n.tps, capacityGb: n.capacityGb, peers: n.peers, bookedAt: now })
        .where(and(eq(appNodes.verId, upgrade.verId), eq(appNodes.cityNodeId, n.cityNodeId)));
    } else {
      await tx.insert(appNodes).values({ verId: upgrade.verId, ...n, bookedAt: now });
    }
  }
  await tx
    .update(configUpgrades)
    .set({
      deployState: UpgradeDeploy.SUCCESS,
      status: UpgradeStatus.SUCCESS,
      deployedAt: now,
      deployReport: { passed: true, reasons: [] },
      updatedAt: now,
    })
    .where(eq(configUpgrades.id, upgrade.id));
  await tell(tx, upgrade, app.name, "upgradeSucceeded", now);
}

export const runUpgradeDeploy: JobHandler = async (payload, services) => {
  const upgradeId = Number(payload.upgradeId);
  if (!Number.isSafeInteger(upgradeId) || upgradeId <= 0) throw new Error("job payload without upgradeId");
  await services.db.transaction((tx) => deployUpgradeInTx(tx, upgradeId, services.now()));
};

/** An approved upgrade whose bill was not paid by its deadline ends: status 3, deployment 25 undeployed. */
export async function expireUnpaidUpgrades(db: Db, now: Date) {
  const due = await db
    .select({ id: configUpgrades.id })
    .from(configUpgrades)
    .innerJoin(bills, eq(bills.id, configUpgrades.billId))
    .where(
      and(
        eq(configUpgrades.status, UpgradeStatus.UPGRADING),
        eq(configUpgrades.deployState, UpgradeDeploy.TO_SUBMIT),
        isNotNull(configUpgrades.billId),
        inArray(bills.payState, [PayState.UNPAID, PayState.FAILED, PayState.EXPIRED]),
      ),
    );
  let n = 0;
  for (const { id } of due) {
    await db.transaction(async (tx) => {
      const { upgrade, app } = await lockedUpgrade(tx, id);
      const [bill] = await tx.select().from(bills).where(eq(bills.id, upgrade.billId!)).for("update");
      if (
        upgrade.status !== UpgradeStatus.UPGRADING ||
        bill.payState === PayState.PAID ||
        bill.deadline.getTime() > now.getTime()
      )
        return;
      await billing.api.expireBill(tx, bill.id);
      await tx
        .update(configUpgrades)
        .set({ status: UpgradeStatus.FAILED, deployState: UpgradeDeploy.UNDEPLOYED, updatedAt: now })
        .where(eq(configUpgrades.id, id));
      await tell(tx, upgrade, app.name, "upgradeExpired", now);
      n += 1;
    });
  }
  return n;
}
