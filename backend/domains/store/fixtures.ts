import servicesDomain from "#backend/domains/services/index.ts";
import { and, asc, eq } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import type { storePaths } from "#contract/store.ts";
import { appJoins } from "#backend/domains/participation/tables.ts";
import participation from "#backend/domains/participation/index.ts";
import { appRoles, apps, appVersions } from "#backend/domains/services/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";

/**
 * /test/store (tests only, TEST_FIXTURES=1): makes one of the caller's services public, or gives the
 * caller a join of another's service in a given audit state (the participation half builds the real
 * applying; the store only reads app_joins).
 */
export async function storeFixture(
  input: z.output<(typeof storePaths)["/test/store"]["payload"]>,
  { deps, user }: SignedInContext,
) {
  if (!deps.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  const caller = user;
  const now = deps.now();
  const [app] = await deps.db.select().from(apps).where(eq(apps.id, input.appId));
  if (!app) throw new ApiError(Msg.NOT_FOUND);
  if (input.makePublic) {
    if (app.userId !== caller.id) throw new ApiError(Msg.NOT_FOUND);
    await servicesDomain.api.setServicePublic(deps.db, app.id, true, { updatedAt: now });
  }
  if (input.joinState !== undefined) {
    if (!app.currentVerId) throw new ApiError(Msg.NOT_FOUND);
    const [version] = await deps.db.select().from(appVersions).where(eq(appVersions.id, app.currentVerId));
    const [role] = await deps.db
      .select()
      .from(appRoles)
      .where(eq(appRoles.verId, app.currentVerId))
      .orderBy(asc(appRoles.id))
      .limit(1);
    if (!role) throw new ApiError(Msg.NOT_FOUND);
    const [existing] = await deps.db
      .select()
      .from(appJoins)
      .where(and(eq(appJoins.appId, app.id), eq(appJoins.userId, caller.id)));
    if (existing) await participation.api.setJoinState(deps.db, existing.id, input.joinState, now);
    else {
      await participation.api.placeJoin(deps.db, {
        appId: app.id,
        verId: app.currentVerId,
        userId: caller.id,
        roleId: role.id,
        auditState: input.joinState,
        certificateMode: version.certificateMode ?? 1,
        createdAt: now,
        updatedAt: now,
      });
    }
  }
  return null;
}
