import { and, asc, desc, eq, inArray, ne } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { VerState } from "#contract/service-status.ts";
import { isWizardStep, type DraftSummary } from "#contract/service-wizard.ts";
import {
  appAttachments,
  appFunctions,
  appNodes,
  appRoleFunctions,
  appRoles,
  apps,
  appTransitions,
  appVersions,
  chaincodePackages,
} from "#backend/domains/services/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";

/**
 * /sys/chainAppInfo/wizard/drafts: the caller's wizard drafts (versions in verState 1), newest change
 * first, so any device can resume one without knowing its URL (docs/decisions/029). A new service's draft
 * (its only version) resumes as `add`, an upgrade's (a version after the current one) as `update`.
 */
export async function listDrafts(_input: unknown, ctx: SignedInContext): Promise<DraftSummary[]> {
  const rows = await ctx.services.db
    // Only what a draft's row shows: a version's texts, files and reports stay in the table.
    .select({
      app: { id: apps.id, name: apps.name, currentVerId: apps.currentVerId },
      v: {
        id: appVersions.id,
        version: appVersions.version,
        wizardStep: appVersions.wizardStep,
        updatedAt: appVersions.updatedAt,
      },
    })
    .from(appVersions)
    .innerJoin(apps, eq(apps.id, appVersions.appId))
    .where(and(eq(apps.userId, ctx.user.id), eq(appVersions.verState, VerState.PENDING_SUBMIT)))
    .orderBy(desc(appVersions.updatedAt), desc(appVersions.id))
    .limit(100);
  return rows.map(({ app, v }) => ({
    appId: app.id,
    appVerId: v.id,
    name: app.name,
    version: v.version,
    appState: v.id === app.currentVerId ? "add" : "update",
    wizardStep: isWizardStep(v.wizardStep) ? v.wizardStep : "basic",
    updatedAt: v.updatedAt.toISOString(),
  }));
}

/**
 * /sys/chainAppInfo/wizard/discard: deletes one of the caller's drafts with everything saved in it. A new
 * service's draft takes the service with it (its name becomes free again); an upgrade's leaves the running
 * version as it was. Anything else (another user's, a submitted version) is "not found".
 */
export async function discardDraft(input: Payload<"/sys/chainAppInfo/wizard/discard">, ctx: SignedInContext) {
  return ctx.services.db.transaction(async (tx) => {
    const [row] = await tx
      // Only what a draft's row shows: a version's texts, files and reports stay in the table.
      .select({
        app: { id: apps.id, name: apps.name, currentVerId: apps.currentVerId },
        v: {
          id: appVersions.id,
          version: appVersions.version,
          wizardStep: appVersions.wizardStep,
          updatedAt: appVersions.updatedAt,
        },
      })
      .from(appVersions)
      .innerJoin(apps, eq(apps.id, appVersions.appId))
      .where(
        and(
          eq(appVersions.id, input.appVerId),
          eq(apps.id, input.appId),
          eq(apps.userId, ctx.user.id),
          eq(appVersions.verState, VerState.PENDING_SUBMIT),
        ),
      )
      .for("update");
    if (!row) throw new ApiError(Msg.NOT_FOUND);
    const verId = row.v.id;
    const roles = await tx.select({ id: appRoles.id }).from(appRoles).where(eq(appRoles.verId, verId));
    if (roles.length)
      await tx.delete(appRoleFunctions).where(
        inArray(
          appRoleFunctions.roleId,
          roles.map((r) => r.id),
        ),
      );
    await tx.delete(appRoles).where(eq(appRoles.verId, verId));
    await tx.update(appFunctions).set({ parentId: null }).where(eq(appFunctions.verId, verId));
    await tx.delete(appFunctions).where(eq(appFunctions.verId, verId));
    await tx.delete(chaincodePackages).where(eq(chaincodePackages.verId, verId));
    await tx.delete(appNodes).where(eq(appNodes.verId, verId));
    await tx.delete(appTransitions).where(eq(appTransitions.verId, verId));
    const others = await tx
      .select({ id: appVersions.id })
      .from(appVersions)
      .where(and(eq(appVersions.appId, row.app.id), ne(appVersions.id, verId)))
      .orderBy(asc(appVersions.id));
    if (others.length === 0) {
      await tx.update(apps).set({ currentVerId: null }).where(eq(apps.id, row.app.id));
      await tx.delete(appVersions).where(eq(appVersions.id, verId));
      await tx.delete(appAttachments).where(eq(appAttachments.appId, row.app.id));
      await tx.delete(apps).where(eq(apps.id, row.app.id));
    } else {
      await tx.delete(appVersions).where(eq(appVersions.id, verId));
    }
    return { name: row.app.name, serviceRemoved: others.length === 0 };
  });
}
