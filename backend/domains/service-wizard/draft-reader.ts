import { and, asc, desc, eq, gt, inArray } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { serviceActions, VerState } from "#contract/service-status.ts";
import { ACCESS_METHODS, isWizardStep, type AppState, type Draft } from "#contract/service-wizard.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import {
  appAttachments,
  appFunctions,
  appNodes,
  appRoleFunctions,
  appRoles,
  apps,
  appVersions,
  chaincodePackages,
} from "#backend/domains/services/tables.ts";
import { cityNodes, files } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import { computeCost, type PricedNode } from "./cost.ts";

export type AppRow = typeof apps.$inferSelect;
export type VersionRow = typeof appVersions.$inferSelect;
type Q = Db | Tx;

/** Versions a publisher edits again through `mod2` and resubmits (§4: 11, 20, 22, 26; lifecycle "resubmit"). */
export const RESUBMITTABLE: readonly number[] = [
  VerState.TEST_FAILED,
  VerState.INITIAL_REVIEW_REJECTED,
  VerState.REVIEW_REJECTED,
  VerState.PUBLISH_FAILED,
];

/** The caller's own service; another user's (or an unknown) appId is "not found" (MSG_10002). */
export async function ownApp(q: Q, userId: number, appId: number, lock = false): Promise<AppRow> {
  const query = q
    .select()
    .from(apps)
    .where(and(eq(apps.id, appId), eq(apps.userId, userId)));
  const [app] = lock ? await query.for("update") : await query;
  if (!app) throw new ApiError(Msg.NOT_FOUND);
  return app;
}

export function flagsOf(app: AppRow, version: VersionRow) {
  return {
    verState: version.verState,
    billState: version.billState,
    verUpable: version.verUpable,
    crossStatus: app.crossStatus,
    freeYN: app.freeYN,
  };
}

export type Resolved = {
  app: AppRow;
  /** The version this appState edits, or null (update before its new version exists). */
  version: VersionRow | null;
  /** For update: the running version the new one copies. */
  source: VersionRow | null;
  editable: boolean;
};

/**
 * Which version of a service an appState works on (docs/decisions/011):
 * - add: the service's newest version (the draft in verState 1; once submitted it is shown, not edited);
 * - mod: the current (running) version, editable only when §4 offers "basic-info edit";
 * - update: the version newer than the current one (the upgrade draft), or none yet: then the current
 *   version is the source to copy, allowed only when §4 offers "service upgrade";
 * - mod2: the newest version, editable at 11, 20, 22 or 26.
 */
export async function resolveDraft(q: Q, userId: number, appState: AppState, appId: number): Promise<Resolved> {
  const app = await ownApp(q, userId, appId);
  const versions = await q
    .select()
    .from(appVersions)
    .where(eq(appVersions.appId, app.id))
    .orderBy(desc(appVersions.id));
  const newest = versions[0] ?? null;
  const current = versions.find((v) => v.id === app.currentVerId) ?? null;
  switch (appState) {
    case "add":
      return { app, version: newest, source: null, editable: newest?.verState === VerState.PENDING_SUBMIT };
    case "mod2":
      return { app, version: newest, source: null, editable: !!newest && RESUBMITTABLE.includes(newest.verState) };
    case "mod":
      return {
        app,
        version: current,
        source: null,
        editable: !!current && serviceActions(flagsOf(app, current)).has("basicEdit"),
      };
    case "update": {
      const upgrade = versions.find((v) => current && v.id > current.id) ?? null;
      if (upgrade)
        return { app, version: upgrade, source: current, editable: upgrade.verState === VerState.PENDING_SUBMIT };
      return {
        app,
        version: null,
        source: current,
        editable: !!current && serviceActions(flagsOf(app, current)).has("serviceUpgrade"),
      };
    }
  }
}

export async function catalogue(q: Q): Promise<Map<number, typeof cityNodes.$inferSelect & PricedNode>> {
  const rows = await q.select().from(cityNodes).orderBy(asc(cityNodes.id));
  return new Map(rows.map((r) => [r.id, r]));
}

/** A service's basic information as the draft shows it (empty strings for what is not set). */
export function basicOf(app: AppRow, version: VersionRow): Draft["basic"] {
  const a = app.accessMethods ?? {};
  return {
    name: app.name,
    industry: app.industry,
    description: app.description,
    introduction: app.introduction,
    version: version.version,
    framework: app.framework,
    platformType: app.platformType,
    contactName: app.contactName,
    contactMobile: app.contactMobile,
    contactEmail: app.contactEmail,
    ...(Object.fromEntries(ACCESS_METHODS.map((key) => [key, a[key] ?? ""])) as Record<
      (typeof ACCESS_METHODS)[number],
      string
    >),
    crossChain: app.crossChain,
    crossProtocol: app.crossProtocol ? String(app.crossProtocol) : "",
    crossAppCode: app.crossAppCode ?? "",
    isPublic: app.isPublic,
    paymentCycle: String(app.paymentCycle),
    freeService: app.freeYN === 1,
  };
}

/**
 * The whole draft as the wizard shows it (every query bound to the version of the caller's app). The cover
 * is named, not sent (the portal serves it from its cover route), and the catalogue is read only to price
 * booked nodes.
 */
export async function draftOf(q: Q, app: AppRow, version: VersionRow, editable: boolean): Promise<Draft> {
  const [attachments, packages, functions, roles, nodes, cover] = await Promise.all([
    q.select().from(appAttachments).where(eq(appAttachments.appId, app.id)).orderBy(asc(appAttachments.id)),
    q
      .select()
      .from(chaincodePackages)
      .where(eq(chaincodePackages.verId, version.id))
      .orderBy(asc(chaincodePackages.id)),
    q.select().from(appFunctions).where(eq(appFunctions.verId, version.id)).orderBy(asc(appFunctions.id)),
    q.select().from(appRoles).where(eq(appRoles.verId, version.id)).orderBy(asc(appRoles.id)),
    q.select().from(appNodes).where(eq(appNodes.verId, version.id)).orderBy(asc(appNodes.cityNodeId)),
    app.coverFileId
      ? q.select({ id: files.id, name: files.name, size: files.size }).from(files).where(eq(files.id, app.coverFileId))
      : Promise.resolve([]),
  ]);
  const [roleLinks, nodeCatalogue] = await Promise.all([
    roles.length
      ? q
          .select()
          .from(appRoleFunctions)
          .where(
            inArray(
              appRoleFunctions.roleId,
              roles.map((r) => r.id),
            ),
          )
      : Promise.resolve([]),
    nodes.length ? catalogue(q) : Promise.resolve(new Map()),
  ]);
  const cycle = app.paymentCycle === 1 ? 1 : 2;
  const coverFile = cover[0];
  return {
    appId: app.id,
    verId: version.id,
    appCode: app.appCode,
    verState: version.verState,
    editable,
    wizardStep: isWizardStep(version.wizardStep) ? version.wizardStep : "basic",
    basic: basicOf(app, version),
    cover: coverFile ? { fileId: coverFile.id, name: coverFile.name, size: coverFile.size } : null,
    attachments: attachments.map((x) => ({ attachmentId: x.id, name: x.name, fileName: x.fileName, size: x.size })),
    packages: packages.map((p) => ({
      packageId: p.id,
      name: p.name,
      version: p.version,
      language: p.language,
      initParams: p.initParams,
      mainPath: p.mainPath,
      fileName: p.fileName,
      size: p.size,
    })),
    functions: functions.map((f) => ({
      functionId: f.id,
      packageId: f.packageId,
      name: f.name,
      funcType: f.funcType,
      func: f.func,
      parentId: f.parentId,
      crossChainAllowed: f.crossChainAllowed,
      inputFormat: f.inputFormat,
      outputFormat: f.outputFormat,
    })),
    roles: roles.map((r) => ({
      roleId: r.id,
      name: r.name,
      description: r.description,
      functionIds: roleLinks.filter((l) => l.roleId === r.id).map((l) => l.functionId),
    })),
    nodes: nodes.map((n) => ({ cityNodeId: n.cityNodeId, tps: n.tps, capacityGb: n.capacityGb, peers: n.peers })),
    certificateMode: version.certificateMode,
    cost: computeCost(nodes, nodeCatalogue, cycle, app.freeYN === 1),
    costCents: version.costCents,
  };
}

/** Versions of a service newer than `afterId` (for `update`, none may be pending already). */
export async function newerVersions(q: Q, appId: number, afterId: number) {
  return q
    .select()
    .from(appVersions)
    .where(and(eq(appVersions.appId, appId), gt(appVersions.id, afterId)));
}
