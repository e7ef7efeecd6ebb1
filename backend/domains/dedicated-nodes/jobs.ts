import { and, eq, isNull } from "drizzle-orm";
import { PrnStatus, PrnUpdateType, PrnUpgradeStatus } from "#contract/dedicated-nodes-codes.ts";
import { prnNodeLimits } from "#contract/dedicated-node-limits.ts";
import { type JobDefinition, type JobHandler } from "#backend/jobs/runner.ts";
import { prnProjectMachine, prnUpgradeMachine } from "./machine.ts";
import { networkOf, networks, openPassword, refundBill } from "./projects.ts";
import { periodCents } from "./rules.ts";
import { priceBook } from "./prices.ts";
import { prnProjects, prnUpgrades } from "./tables.ts";
import {
  JOB_DEPLOY,
  JOB_PURGE,
  JOB_RENEWALS,
  JOB_RESUME,
  JOB_UPGRADE,
  idOf,
  projectById,
  projectOwner,
  reasonOf,
  tell,
  usd,
} from "./job-kinds.ts";
import { runRenewals } from "./renewals.ts";

/** Deploy attempts before the project is failed (4) with the last reason. */
export const DEPLOY_ATTEMPTS = 3;

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
      limits: prnNodeLimits(project.hostConfig, project.dataCapacityGb),
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
  try {
    if (upgrade.updateType === PrnUpdateType.NODE_COUNT)
      await networks.scale(deps, networkOf(project), Number(upgrade.toValue));
    else {
      // docs/decisions/074: the running nodes take the limits of the new host configuration or data capacity.
      const limits =
        upgrade.updateType === PrnUpdateType.HOST_CONFIG
          ? prnNodeLimits(upgrade.toValue, project.dataCapacityGb)
          : prnNodeLimits(project.hostConfig, Number(upgrade.toValue));
      if (!limits) throw new Error(`no limits for ${upgrade.toValue}`);
      await networks.setLimits(deps, networkOf(project), limits);
    }
  } catch (error) {
    failure = reasonOf(error);
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
      .set({ ...config, priceCents: periodCents(config, p.cycle, await priceBook(tx)) ?? p.priceCents, updatedAt: now })
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
