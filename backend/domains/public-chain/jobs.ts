import { eq } from "drizzle-orm";
import { ProjectStatus } from "#contract/public-chain-codes.ts";
import type { Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import type { JobEntry } from "#backend/jobs/runner.ts";
import { schedule } from "#backend/jobs/runner.ts";
import chain from "#backend/domains/chain/index.ts";
import { newProjectKey } from "./keys.ts";
import { moveProject } from "./machine.ts";
import { pubChainProjects } from "./tables.ts";

/**
 * The deployment of an open-alliance project (§4, docs/decisions/026): 1 → 10, then it checks that the
 * project's chain answers, provisions its endpoint key (enabled) and moves it to 11; when the chain does
 * not answer it ends in 5 with the reason. Each attempt (creation, redeploy) has its own dedupe key.
 */
export const JOB_DEPLOY = "public-chain.deploy";

export async function scheduleDeploy(tx: Tx, projectId: number, attempt: number, now: Date) {
  await schedule(tx, JOB_DEPLOY, { projectId }, { runAt: now, dedupeKey: `${JOB_DEPLOY}:${projectId}:${attempt}` });
}

async function deploy(payload: Record<string, unknown>, deps: Deps) {
  const projectId = Number(payload.projectId);
  if (!Number.isSafeInteger(projectId) || projectId <= 0) throw new Error("job payload without projectId");
  const [start] = await deps.db.select().from(pubChainProjects).where(eq(pubChainProjects.id, projectId));
  if (!start) return;
  if (start.status === ProjectStatus.PENDING_DEPLOYMENT) {
    await deps.db.transaction(async (tx) => moveProject(tx, start, "deployStart", "system", deps.now()));
  } else if (start.status !== ProjectStatus.DEPLOYING) return;
  let reason: string | null = null;
  try {
    const id = await chain.api.request(deps, start.chain, { method: "eth_chainId", params: [] });
    if (typeof id !== "string") reason = `the chain ${start.chain} gave no chain id`;
  } catch (error) {
    reason =
      `the chain ${start.chain} does not answer: ${error instanceof Error ? error.message : String(error)}`.slice(
        0,
        500,
      );
  }
  await deps.db.transaction(async (tx) => {
    const [project] = await tx.select().from(pubChainProjects).where(eq(pubChainProjects.id, projectId)).for("update");
    if (project.status !== ProjectStatus.DEPLOYING) return;
    const now = deps.now();
    if (reason) return moveProject(tx, project, "deployFail", "system", now, { failReason: reason });
    const key = project.keyHash ? {} : (({ key: _shown, ...stored }) => stored)(newProjectKey(deps.env));
    return moveProject(tx, project, "deployOk", "system", now, {
      ...key,
      keyEnabled: true,
      keyCreatedAt: project.keyCreatedAt ?? now,
      failReason: null,
    });
  });
}

export const publicChainJobs: Record<string, JobEntry> = {
  [JOB_DEPLOY]: {
    run: deploy,
    async ownerOf(payload, db) {
      const [p] = await db
        .select({ userId: pubChainProjects.userId, name: pubChainProjects.name })
        .from(pubChainProjects)
        .where(eq(pubChainProjects.id, Number(payload.projectId) || 0));
      return p ? { userId: p.userId, subject: p.name } : null;
    },
  },
};
