import { asc, count, eq, inArray } from "drizzle-orm";
import { CrossStatus } from "#contract/cross-chain.ts";
import { Msg } from "#contract/messages.ts";
import type { Tx } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import { recordAudit } from "#backend/kit/audit.ts";
import { apps } from "#backend/domains/services/tables.ts";
import { type CrossEvent } from "#backend/domains/cross-chain/machine.ts";
import { deployForService } from "#backend/domains/cross-chain/network.ts";
import { wakeRelayer } from "#backend/domains/cross-chain/relayer.ts";
import { reasonOf } from "#backend/domains/cross-chain/rules.ts";
import { saveServiceState } from "#backend/domains/cross-chain/service-state.ts";
import { chainOf, move, serviceRows, type AppRow, type Ctx } from "./shared.ts";

/* ---------------------------------------------- operator paths ---------------------------------------------- */

/** Operations: services pending activation (3) or deactivation (4), oldest request first. */
export async function pending(input: Payload<"/sys/ops/crossChain/pending">, ctx: Ctx) {
  const { db } = ctx.deps;
  const statuses =
    input.status === undefined ? [CrossStatus.PENDING_ACTIVATION, CrossStatus.PENDING_DEACTIVATION] : [input.status];
  const where = inArray(apps.crossStatus, statuses);
  const [{ total }] = await db.select({ total: count() }).from(apps).where(where);
  const rows = await db
    .select({ app: apps, owner: users.userName })
    .from(apps)
    .innerJoin(users, eq(users.id, apps.userId))
    .where(where)
    .orderBy(asc(apps.updatedAt), asc(apps.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const services = await serviceRows(
    db,
    rows.map((r) => r.app),
  );
  return {
    page: {
      rows: services.map((s, i) => ({ ...s, owner: rows[i]!.owner })),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
}

/**
 * Operations: the review of a pending request (3 → 1 | 0, 4 → 0 | 1). Approving an activation deploys the
 * protocol's contracts on the service's chain and on the open-alliance chain first (outside the transaction:
 * the chains write to the database too); the move and its audit entry then commit together.
 */
export async function review(input: Payload<"/sys/ops/crossChain/review">, ctx: Ctx) {
  const deps = ctx.deps;
  const comments = input.comments?.trim() || null;
  const [app] = await deps.db.select().from(apps).where(eq(apps.id, input.appId));
  if (!app) throw new ApiError(Msg.NOT_FOUND);
  const event: CrossEvent = input.decision === "approve" ? "approve" : "reject";
  move(app, event, "operator", { comments });
  if (event === "approve" && app.crossStatus === CrossStatus.PENDING_ACTIVATION) {
    const own = await chainOf(deps.db, app.id);
    if (!own || app.crossProtocol === null) throw new ApiError(Msg.XC_NO_CHAIN);
    try {
      await deployForService(deps, own.chainName, app.crossProtocol);
    } catch (error) {
      throw new ApiError(Msg.XC_DEPLOY_FAILED, { reason: reasonOf(error) });
    }
  }
  const now = deps.now();
  const result = await deps.db.transaction(async (tx) => {
    const locked = await ownerless(tx, app.id);
    const to = move(locked, event, "operator", { comments });
    await saveServiceState(
      tx,
      app.id,
      { crossStatus: to, crossChain: to !== CrossStatus.DEACTIVATED || locked.crossChain },
      now,
    );
    const answer = { appId: app.id, crossStatus: to };
    await recordAudit(tx, {
      action: "crossChain.review",
      targetType: "crossChainService",
      targetId: String(app.id),
      decision: input.decision,
      comments,
      details: { from: locked.crossStatus, outcome: answer, protocol: locked.crossProtocol },
      actor: ctx.user,
      at: now,
      path: ctx.path,
      clientIp: ctx.clientAddress,
    });
    return answer;
  });
  if (result.crossStatus === CrossStatus.ACTIVATED) wakeRelayer(deps);
  return result;
}

async function ownerless(tx: Tx, appId: number): Promise<AppRow> {
  const [app] = await tx.select().from(apps).where(eq(apps.id, appId)).for("update");
  if (!app) throw new ApiError(Msg.NOT_FOUND);
  return app;
}
