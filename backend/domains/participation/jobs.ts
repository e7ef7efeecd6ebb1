import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { AuditState } from "#contract/participation-codes.ts";
import { isEvmFramework, serviceNodeEndpointPath } from "#contract/service-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import type { Deps } from "#backend/deps.ts";
import type { JobEntry, JobHandler, JobOwner } from "#backend/jobs/runner.ts";
import { apps } from "#backend/domains/services/tables.ts";
import { applyJoinEvent, JOB_WORK_ORDER } from "./audit.ts";
import { appJoinNodes, appJoins } from "./tables.ts";

/**
 * The gateway a participant reaches the service through on one city node (docs/decisions/052): on a service that
 * runs on its own EVM chain, the node's endpoint path /chain/service/<code> (the access page makes it absolute
 * from PUBLIC_URL and appends the participant's own key); null for a service with nothing behind it yet
 * (Fabric until the Fabric peer exists).
 */
export const gatewayPath = (nodeCode: string, framework: string) =>
  isEvmFramework(framework) ? serviceNodeEndpointPath(nodeCode) : null;

/** The work order (10 → 13): the gateway on each chosen node and the participant's user code. */
export async function workOrderInTx(tx: Tx, joinId: number, now: Date) {
  const [join] = await tx.select().from(appJoins).where(eq(appJoins.id, joinId)).for("update");
  if (!join || join.auditState !== AuditState.ORDERED || join.disabledAt) return false;
  const [app] = await tx.select().from(apps).where(eq(apps.id, join.appId));
  const chosen = await tx
    .select({ code: cityNodes.code, id: cityNodes.id })
    .from(appJoinNodes)
    .innerJoin(cityNodes, eq(cityNodes.id, appJoinNodes.cityNodeId))
    .where(eq(appJoinNodes.joinId, joinId));
  for (const node of chosen) {
    await tx
      .update(appJoinNodes)
      .set({ gatewayUrl: gatewayPath(node.code, app.framework) })
      .where(and(eq(appJoinNodes.joinId, joinId), eq(appJoinNodes.cityNodeId, node.id)));
  }
  const userCode = join.userCode ?? `UC${randomBytes(6).toString("hex").toUpperCase()}`;
  await applyJoinEvent(tx, { joinId, event: "workOrderDone", actor: "system", actorId: null, now, set: { userCode } });
  return true;
}

export const runWorkOrder: JobHandler = async (payload, services: Deps) => {
  const joinId = Number(payload.joinId);
  await services.db.transaction((tx) => workOrderInTx(tx, joinId, services.now()));
};

/** Whom a participation's job concerns: the participant, told when it dies (docs/decisions/005). */
async function participantOf(payload: Record<string, unknown>, db: Db): Promise<JobOwner | null> {
  const joinId = Number(payload.joinId);
  if (!Number.isSafeInteger(joinId) || joinId <= 0) return null;
  const [row] = await db
    .select({ userId: appJoins.userId, name: apps.name })
    .from(appJoins)
    .innerJoin(apps, eq(apps.id, appJoins.appId))
    .where(eq(appJoins.id, joinId));
  return row ? { userId: row.userId, subject: row.name } : null;
}

/** The participation audit's background jobs, by kind. */
export const jobs: Record<string, JobEntry> = { [JOB_WORK_ORDER]: { run: runWorkOrder, ownerOf: participantOf } };
