import { eq } from "drizzle-orm";
import services from "#backend/domains/services/index.ts";
import billing from "#backend/domains/billing/index.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { appJoins } from "./tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext, Payload } from "#backend/http/router.ts";
import { me, appById, ownJoin } from "./handlers/shared.ts";

/** Tests only (TEST_FIXTURES=1): the certificate mode and public flag of one of the caller's services. */
export async function testServiceSettings(input: Payload<"/test/participation/service">, ctx: SignedInContext) {
  if (!ctx.deps.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  const app = await appById(ctx.deps.db, input.appId);
  if (!app || app.userId !== me(ctx).id || !app.currentVerId) throw new ApiError(Msg.NOT_FOUND);
  if (input.isPublic !== undefined) await services.api.setServicePublic(ctx.deps.db, app.id, input.isPublic);
  if (input.certificateMode !== undefined)
    await services.api.saveCertificateMode(ctx.deps.db, app.currentVerId, input.certificateMode);
  return null;
}

/** Tests only (TEST_FIXTURES=1): the deadline of the caller's unpaid node order passes now. */
export async function testOrderDeadline(input: Payload<"/test/participation/order">, ctx: SignedInContext) {
  if (!ctx.deps.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  const join = await ownJoin(ctx.deps.db, me(ctx).id, input.appJoinAuditId);
  if (!join.orderBillId) throw new ApiError(Msg.NOT_FOUND);
  await billing.api.moveUnpaidBillDeadline(ctx.deps.db, join.orderBillId, new Date(ctx.deps.now().getTime() - 1));
  return null;
}

/** A join given straight in an audit state, without the applying (store's demo and test fixture only). */
export async function placeJoin(db: Db | Tx, join: typeof appJoins.$inferInsert) {
  await db.insert(appJoins).values(join);
}

/** A placed join moved straight to another audit state (store's test fixture only). */
export async function setJoinState(db: Db | Tx, joinId: number, auditState: number, at: Date) {
  await db.update(appJoins).set({ auditState, updatedAt: at }).where(eq(appJoins.id, joinId));
}
