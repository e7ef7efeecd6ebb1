import { and, eq, isNotNull, isNull, lte } from "drizzle-orm";
import { PayState } from "#contract/billing-codes.ts";
import { PRN_BILL_TYPE, PrnStatus, PrnUpdateType, PrnUpgradeStatus } from "#contract/dedicated-nodes-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { messages } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Deps } from "#backend/deps.ts";
import { schedule, type JobDefinition, type JobHandler } from "#backend/jobs/runner.ts";
import type { BillSettler } from "#backend/domains/billing/index.ts";
import billing from "#backend/domains/billing/index.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { prnProjectMachine, prnUpgradeMachine } from "./machine.ts";
import { networkOf, networks, openPassword, refundBill, type ProjectRow } from "./projects.ts";
import { periodCents, periodEndOf } from "./rules.ts";
import { prnProjects, prnUpgrades } from "./tables.ts";

/**
 * The background jobs of dedicated nodes (docs/decisions/047), each safe to run again after a crash:
 * - `dedicated.deploy`: 1 → 2 → 3 (networks.deploy is idempotent by name), or 4 with the provisioner's reason
 *   after three attempts (the first period refunded);
 * - `dedicated.upgrade`: node count → networks.scale (the new peers start and catch up); host configuration and
 *   data capacity are recorded limits; a failure keeps the reason and refunds the difference;
 * - `dedicated.purge`: at the end of the paid period of a deleted or unsubscribed project, networks.remove;
 * - `dedicated.renewals`: hourly; a running project whose period ended is charged the next period from the
 *   balance; when it cannot be, the nodes stop and the bill stays unpaid (it blocks payType 2) until the end
 *   of that period, when the project lapses (→ 6) and its data is removed; paying it resumes the nodes;
 * - `dedicated.resume`: restarts the nodes of a project whose renewal was paid late.
 * Each outcome the owner did not watch happen (running, failed and refunded, an upgrade's end, a renewal paid or
 * not, a lapse) leaves a message in the owner's inbox, in the same transaction as the change it reports.
 */
export const JOB_DEPLOY = "dedicated.deploy";
export const JOB_UPGRADE = "dedicated.upgrade";
export const JOB_PURGE = "dedicated.purge";
export const JOB_RENEWALS = "dedicated.renewals";
export const JOB_RESUME = "dedicated.resume";

const HOUR_MS = 3_600_000;
/** Deploy attempts before the project is failed (4) with the last reason. */
export const DEPLOY_ATTEMPTS = 3;

/** An inbox message of this domain: its text is messages.dedicatedNodes.<key> in locales/<lang>/messages.json. */
type Told =
  | "deployed"
  | "deployFailed"
  | "upgradeSucceeded"
  | "upgradeFailed"
  | "renewalPaid"
  | "renewalUnpaid"
  | "resumed"
  | "lapsed";
const tell = (tx: Db | Tx, userId: number, key: Told, params: Record<string, string>, now: Date) =>
  tx.insert(messages).values({ userId, textKey: `messages.dedicatedNodes.${key}`, params, createdAt: now });
const usd = (cents: number) => (cents / 100).toFixed(2);

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);
const idOf = (payload: Record<string, unknown>, key: string) => Number(payload[key]);

async function projectById(db: Db | Tx, id: number, lock = false): Promise<ProjectRow | undefined> {
  const q = db.select().from(prnProjects).where(eq(prnProjects.id, id));
  const [row] = lock ? await q.for("update") : await q;
  return row;
}

/** Stops a project's nodes when they run (a stopped or absent network is left as it is). */
export async function stopNetwork(deps: Deps, project: ProjectRow): Promise<void> {
  const status = await networks.status(deps, networkOf(project));
  if (status && status.state === "running") await networks.stop(deps, networkOf(project));
}

const projectOwner = async (payload: Record<string, unknown>, db: Db) => {
  const p = await projectById(db, idOf(payload, "projectId"));
  return p ? { userId: p.userId, subject: p.name } : null;
};

export const runDeploy: JobHandler = async (payload, deps, job) => {
  const id = idOf(payload, "projectId");
  const now = deps.now();
  let project = await projectById(deps.db, id);
  if (!project || (project.status !== PrnStatus.NOT_DEPLOYED && project.status !== PrnStatus.DEPLOYING)) return;
  if (project.status === PrnStatus.NOT_DEPLOYED) {
    const to = prnProjectMachine.transition(project.status, "deploy", "system");
    if (!to.ok) return;
    [project] = await deps.db
      .update(prnProjects)
      .set({ status: to.to, updatedAt: now })
      .where(and(eq(prnProjects.id, id), eq(prnProjects.status, PrnStatus.NOT_DEPLOYED)))
      .returning();
    if (!project) return;
  }
  try {
    if (!project.passwordSealed) throw new Error("the authorized password is missing");
    await networks.deploy(deps, {
      name: networkOf(project),
      peers: project.nodeCount,
      consensus: project.consensus,
      user: project.authUser,
      password: openPassword(deps, project.passwordSealed),
    });
  } catch (error) {
    if ((job?.attempt ?? DEPLOY_ATTEMPTS) < DEPLOY_ATTEMPTS) throw error;
    const reason = reasonOf(error);
    await deps.db.transaction(async (tx) => {
      const p = await projectById(tx, id, true);
      if (!p || p.status !== PrnStatus.DEPLOYING) return;
      const to = prnProjectMachine.transition(p.status, "fail", "system", { comments: reason });
      if (!to.ok) return;
      await tx
        .update(prnProjects)
        .set({ status: to.to, failReason: reason, passwordSealed: null, updatedAt: deps.now() })
        .where(eq(prnProjects.id, id));
      const refunded = p.billId ? await refundBill(tx, p.billId, `prn-deploy-refund:${p.id}`, deps.now()) : 0;
      await tell(tx, p.userId, "deployFailed", { name: p.name, reason, amount: usd(refunded) }, deps.now());
    });
    return;
  }
  const to = prnProjectMachine.transition(PrnStatus.DEPLOYING, "deployed", "system");
  if (!to.ok) return;
  await deps.db.transaction(async (tx) => {
    const [running] = await tx
      .update(prnProjects)
      .set({ status: to.to, failReason: null, passwordSealed: null, updatedAt: deps.now() })
      .where(and(eq(prnProjects.id, id), eq(prnProjects.status, PrnStatus.DEPLOYING)))
      .returning();
    if (running)
      await tell(tx, running.userId, "deployed", { name: running.name, peers: String(running.nodeCount) }, deps.now());
  });
};

export const runUpgrade: JobHandler = async (payload, deps) => {
  const id = idOf(payload, "upgradeId");
  const [upgrade] = await deps.db.select().from(prnUpgrades).where(eq(prnUpgrades.id, id));
  if (!upgrade || upgrade.status !== PrnUpgradeStatus.UPGRADING) return;
  const project = await projectById(deps.db, upgrade.projectId);
  if (!project) return;
  let failure: string | null = null;
  if (upgrade.updateType === PrnUpdateType.NODE_COUNT) {
    try {
      await networks.scale(deps, networkOf(project), Number(upgrade.toValue));
    } catch (error) {
      failure = reasonOf(error);
    }
  }
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const [u] = await tx.select().from(prnUpgrades).where(eq(prnUpgrades.id, id)).for("update");
    const p = await projectById(tx, upgrade.projectId, true);
    if (!u || !p || u.status !== PrnUpgradeStatus.UPGRADING) return;
    const outcome = prnUpgradeMachine.transition(u.status, failure ? "fail" : "succeed", "system", {
      comments: failure,
    });
    if (!outcome.ok) return;
    await tx
      .update(prnUpgrades)
      .set({ status: outcome.to, failReason: failure, finishedAt: now })
      .where(eq(prnUpgrades.id, id));
    if (failure) {
      // The configuration goes back to what runs; the difference paid comes back.
      if (u.updateType === PrnUpdateType.NODE_COUNT)
        await tx
          .update(prnProjects)
          .set({ nodeCount: Number(u.fromValue), updatedAt: now })
          .where(eq(prnProjects.id, p.id));
      if (u.updateType === PrnUpdateType.DATA_CAPACITY)
        await tx
          .update(prnProjects)
          .set({ dataCapacityGb: Number(u.fromValue), updatedAt: now })
          .where(eq(prnProjects.id, p.id));
      const refunded = u.billId ? await refundBill(tx, u.billId, `prn-upgrade-refund:${u.id}`, now) : 0;
      await tell(tx, p.userId, "upgradeFailed", { name: p.name, reason: failure, amount: usd(refunded) }, now);
      return;
    }
    const config = {
      nodeCount: u.updateType === PrnUpdateType.NODE_COUNT ? Number(u.toValue) : p.nodeCount,
      hostConfig: u.updateType === PrnUpdateType.HOST_CONFIG ? u.toValue : p.hostConfig,
      dataCapacityGb: u.updateType === PrnUpdateType.DATA_CAPACITY ? Number(u.toValue) : p.dataCapacityGb,
    };
    await tx
      .update(prnProjects)
      .set({ ...config, priceCents: periodCents(config, p.cycle) ?? p.priceCents, updatedAt: now })
      .where(eq(prnProjects.id, p.id));
    await tell(tx, p.userId, "upgradeSucceeded", { name: p.name }, now);
  });
};

export const runPurge: JobHandler = async (payload, deps) => {
  const id = idOf(payload, "projectId");
  const project = await projectById(deps.db, id);
  const now = deps.now();
  if (!project || project.purgedAt || !project.purgeAt || project.purgeAt.getTime() > now.getTime()) return;
  if (project.status !== PrnStatus.DELETED && project.status !== PrnStatus.UNSUBSCRIBED) return;
  if (await networks.status(deps, networkOf(project))) await networks.remove(deps, networkOf(project));
  await deps.db
    .update(prnProjects)
    .set({ purgedAt: now, updatedAt: now })
    .where(and(eq(prnProjects.id, id), isNull(prnProjects.purgedAt)));
};

export const runResume: JobHandler = async (payload, deps) => {
  const project = await projectById(deps.db, idOf(payload, "projectId"));
  if (!project || project.status !== PrnStatus.RUNNING || project.suspended) return;
  const status = await networks.status(deps, networkOf(project));
  if (status && status.state === "stopped") await networks.resume(deps, networkOf(project));
};

/** Charges the next period of one running project whose period has ended; true when its nodes must stop. */
async function renewInTx(tx: Tx, id: number, now: Date): Promise<boolean> {
  const p = await projectById(tx, id, true);
  if (!p || p.status !== PrnStatus.RUNNING || p.renewalBillId !== null || p.periodEnd.getTime() > now.getTime())
    return false;
  const start = p.periodEnd;
  const end = periodEndOf(start, p.cycle);
  const cents = periodCents(p, p.cycle) ?? p.priceCents;
  const [bill] = await tx
    .insert(bills)
    .values({
      billNo: billing.api.newBillNo(now, "DR"),
      userId: p.userId,
      serviceName: `${p.name} · ${p.nodeCount} × ${p.hostConfig}`,
      billType: PRN_BILL_TYPE,
      payState: PayState.UNPAID,
      payMode: 1,
      cycle: p.cycle,
      periodStart: start,
      periodEnd: end,
      createdAt: now,
      // Unpaid, it blocks payType 2 until the end of the period it would pay for; then the project lapses.
      deadline: end,
      totalCents: cents,
      payCents: cents,
      detail: {
        nodeCount: p.nodeCount,
        hostConfiguration: p.hostConfig,
        dataCapacityGb: p.dataCapacityGb,
        cloudPlatform: p.cloud,
      },
      dedupeKey: `prn-renewal:${p.id}:${start.toISOString()}`,
    })
    .onConflictDoNothing()
    .returning();
  if (!bill) return false;
  const { balanceCents } = await billing.api.lockWallet(tx, p.userId, now);
  if (balanceCents >= cents) {
    await billing.api.post(
      tx,
      {
        userId: p.userId,
        kind: "bill_payment",
        amountCents: cents,
        refType: "bill",
        refId: bill.id,
        idempotencyKey: `prn-renewal:${bill.id}`,
      },
      now,
    );
    await tx
      .update(bills)
      .set({ payState: PayState.PAID, payType: "BALANCE", paidAt: now })
      .where(eq(bills.id, bill.id));
    await tx
      .update(prnProjects)
      .set({ periodStart: start, periodEnd: end, priceCents: cents, updatedAt: now })
      .where(eq(prnProjects.id, p.id));
    await tell(tx, p.userId, "renewalPaid", { name: p.name, amount: usd(cents), until: end.toISOString() }, now);
    return false;
  }
  await tx
    .update(prnProjects)
    .set({ renewalBillId: bill.id, suspended: true, failReason: null, updatedAt: now })
    .where(eq(prnProjects.id, p.id));
  await tell(
    tx,
    p.userId,
    "renewalUnpaid",
    { name: p.name, billNo: bill.billNo, amount: usd(cents), deadline: bill.deadline.toISOString() },
    now,
  );
  return true;
}

/** A suspended project whose renewal bill was not paid by its deadline lapses: 3 → 6, its data removed now. */
async function lapseInTx(tx: Tx, id: number, now: Date): Promise<boolean> {
  const p = await projectById(tx, id, true);
  if (!p?.renewalBillId || p.status !== PrnStatus.RUNNING) return false;
  const [bill] = await tx.select().from(bills).where(eq(bills.id, p.renewalBillId)).for("update");
  if (!bill || bill.payState === PayState.PAID || bill.deadline.getTime() > now.getTime()) return false;
  if (bill.payState !== PayState.EXPIRED)
    await tx.update(bills).set({ payState: PayState.EXPIRED, releaseTime: now }).where(eq(bills.id, bill.id));
  const to = prnProjectMachine.transition(p.status, "lapse", "system");
  if (!to.ok) return false;
  await tx
    .update(prnProjects)
    .set({ status: to.to, renewalBillId: null, purgeAt: now, updatedAt: now })
    .where(eq(prnProjects.id, p.id));
  await tell(tx, p.userId, "lapsed", { name: p.name, billNo: bill.billNo }, now);
  await schedule(
    tx,
    JOB_PURGE,
    { projectId: p.id },
    { runAt: now, dedupeKey: `${JOB_PURGE}:${p.id}:${now.toISOString()}` },
  );
  return true;
}

/** The renewal sweep; returns what it did, for tests. */
export async function sweepRenewals(deps: Deps, now: Date) {
  let renewed = 0;
  let stopped = 0;
  let lapsed = 0;
  // A server that was down renews period after period until it reaches now.
  for (let round = 0; round < 60; round += 1) {
    const due = await deps.db
      .select({ id: prnProjects.id })
      .from(prnProjects)
      .where(
        and(
          eq(prnProjects.status, PrnStatus.RUNNING),
          lte(prnProjects.periodEnd, now),
          isNull(prnProjects.renewalBillId),
        ),
      );
    if (!due.length) break;
    for (const { id } of due) {
      const stop = await deps.db.transaction((tx) => renewInTx(tx, id, now));
      if (stop) {
        stopped += 1;
        const p = await projectById(deps.db, id);
        if (p) await stopNetwork(deps, p);
      } else renewed += 1;
    }
  }
  const suspended = await deps.db
    .select({ id: prnProjects.id })
    .from(prnProjects)
    .where(and(eq(prnProjects.status, PrnStatus.RUNNING), isNotNull(prnProjects.renewalBillId)));
  for (const { id } of suspended) if (await deps.db.transaction((tx) => lapseInTx(tx, id, now))) lapsed += 1;
  return { renewed, stopped, lapsed };
}

export function scheduleRenewals(db: Db | Tx, at: Date) {
  const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
  return schedule(
    db,
    JOB_RENEWALS,
    {},
    { runAt: hour, dedupeKey: `${JOB_RENEWALS}:${hour.toISOString().slice(0, 13)}` },
  );
}

export const runRenewals: JobHandler = async (_payload, deps) => {
  const now = deps.now();
  await sweepRenewals(deps, now);
  await scheduleRenewals(deps.db, new Date(now.getTime() + HOUR_MS));
};

/**
 * Billing's settler for renewal bills paid late (My bills, BillDetail): the bill paid, the period moved on, the
 * project no longer suspended, and the resume job restarts its nodes. Null when the bill is not one of ours.
 */
export const settleRenewalBill: BillSettler = async (tx, input) => {
  const [p] = await tx.select().from(prnProjects).where(eq(prnProjects.renewalBillId, input.billId)).for("update");
  if (!p) return null;
  const [bill] = await tx.select().from(bills).where(eq(bills.id, input.billId)).for("update");
  if (!bill || bill.userId !== input.userId || p.userId !== input.userId) return null;
  if (bill.payState === PayState.PAID)
    return { billId: bill.id, billNo: bill.billNo, payState: bill.payState, paidCents: bill.payCents, replayed: true };
  if (!billing.api.isPayable(bill, input.now)) throw new ApiError(Msg.BILL_NOT_PAYABLE, { payState: bill.payState });
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
  const [paid] = await tx
    .update(bills)
    .set({ payState: PayState.PAID, payType: "BALANCE", paidAt: input.now })
    .where(eq(bills.id, bill.id))
    .returning();
  await tx
    .update(prnProjects)
    .set({
      periodStart: bill.periodStart,
      periodEnd: bill.periodEnd,
      renewalBillId: null,
      suspended: false,
      updatedAt: input.now,
    })
    .where(eq(prnProjects.id, p.id));
  await schedule(
    tx,
    JOB_RESUME,
    { projectId: p.id },
    { runAt: input.now, dedupeKey: `${JOB_RESUME}:${p.id}:${bill.id}` },
  );
  await tell(
    tx,
    p.userId,
    "resumed",
    { name: p.name, billNo: bill.billNo, until: bill.periodEnd.toISOString() },
    input.now,
  );
  return { billId: paid.id, billNo: paid.billNo, payState: paid.payState, paidCents: paid.payCents, replayed: false };
};

export const dedicatedJobs: Record<string, JobDefinition | JobHandler> = {
  [JOB_DEPLOY]: { run: runDeploy, ownerOf: projectOwner },
  [JOB_UPGRADE]: {
    run: runUpgrade,
    ownerOf: async (payload, db) => {
      const [u] = await db
        .select({ projectId: prnUpgrades.projectId })
        .from(prnUpgrades)
        .where(eq(prnUpgrades.id, idOf(payload, "upgradeId")));
      return u ? projectOwner({ projectId: u.projectId }, db) : null;
    },
  },
  [JOB_PURGE]: { run: runPurge, ownerOf: projectOwner },
  [JOB_RESUME]: { run: runResume, ownerOf: projectOwner },
  [JOB_RENEWALS]: runRenewals,
};
