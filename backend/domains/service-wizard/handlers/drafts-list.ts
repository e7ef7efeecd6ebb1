import { and, desc, eq } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { VerState } from "#contract/service-status.ts";
import { isWizardStep, type DraftSummary } from "#contract/service-wizard.ts";
import services from "#backend/domains/services/index.ts";
import { apps, appVersions } from "#backend/domains/services/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";

/**
 * /sys/chainAppInfo/wizard/drafts: the caller's wizard drafts (versions in verState 1), newest change
 * first, so any device can resume one without knowing its URL (docs/decisions/029). A new service's draft
 * (its only version) resumes as `add`, an upgrade's (a version after the current one) as `update`.
 */
export async function listDrafts(_input: unknown, ctx: SignedInContext): Promise<DraftSummary[]> {
  const rows = await ctx.deps.db
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
  return ctx.deps.db.transaction(async (tx) => {
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
    const { serviceRemoved } = await services.api.deleteDraft(tx, row.app.id, row.v.id);
    return { name: row.app.name, serviceRemoved };
  });
}
