import { randomBytes } from "node:crypto";
import { and, eq, ne } from "drizzle-orm";
import { CrossStatus } from "#contract/cross-chain-codes.ts";
import { Msg } from "#contract/messages.ts";
import { languageRun } from "#contract/service-codes.ts";
import { ACCESS_METHODS, type BasicInfo } from "#contract/service-wizard.ts";
import type { AccessMethods } from "#backend/domains/services/tables.ts";
import services from "#backend/domains/services/index.ts";
import { appVersions, chaincodePackages } from "#backend/domains/services/tables.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import { type DownloadInput, type Payload, type SignedInContext } from "#backend/http/router.ts";
import { draftOf, ownApp, resolveDraft, type Resolved } from "#backend/domains/service-wizard/draft-reader.ts";
import {
  me,
  saved,
  claimUpload,
  refuseWhileBillsUnpaid,
  reach,
  nameTaken,
  otherFreeService,
  languageRefusal,
} from "./shared.ts";
import { addMarketPackage } from "./contents.ts";

function appFields(b: BasicInfo) {
  const accessMethods: AccessMethods = {};
  for (const key of ACCESS_METHODS) {
    if (b[key]) accessMethods[key] = b[key];
  }
  const crossChain = b.crossChain === "on";
  return {
    name: b.name,
    industry: b.industry,
    description: b.description,
    introduction: b.introduction,
    framework: b.framework,
    platformType: b.platformType,
    contactName: b.contactName,
    contactMobile: b.contactMobile,
    contactEmail: b.contactEmail,
    accessMethods,
    crossChain,
    crossProtocol: crossChain && b.crossProtocol ? Number(b.crossProtocol) : null,
    crossAppCode: crossChain && b.crossProtocol === "2" ? (b.crossAppCode ?? null) : null,
    isPublic: b.isPublic === "on",
    paymentCycle: Number(b.paymentCycle),
  };
}

/** The draft of an appState (or, for update before its version exists, the source it copies). */
/** §8 "Cross-chaining in progress, cannot upgrade": cross-chain pending activation (3) or deactivation (4) (docs/decisions/048). */
const crossChaining = (app: { crossStatus: number }) =>
  app.crossStatus === CrossStatus.PENDING_ACTIVATION || app.crossStatus === CrossStatus.PENDING_DEACTIVATION;

export async function getDraft(input: Payload<"/sys/chainAppInfo/wizard/draft">, ctx: SignedInContext) {
  const ref = input;
  await refuseWhileBillsUnpaid(ctx.deps.db, me(ctx).id, ctx.deps.now());
  if (!ref.appId) {
    if (ref.appState !== "add") throw new ApiError(Msg.NOT_FOUND);
    return { draft: null, source: null, fabricConnected: !!ctx.deps.env.fabricPeerEndpoint };
  }
  const { db } = ctx.deps;
  const r = await resolveDraft(db, me(ctx).id, ref.appState, ref.appId);
  if (ref.appState === "update" && !r.version) {
    if (!r.source) throw new ApiError(Msg.NOT_FOUND);
    if (!r.editable)
      throw new ApiError(crossChaining(r.app) ? Msg.XC_UPGRADE_CROSSING : Msg.SERVICE_ACTION_NOT_AVAILABLE);
    return {
      draft: null,
      source: await draftOf(db, r.app, r.source, false),
      fabricConnected: !!ctx.deps.env.fabricPeerEndpoint,
    };
  }
  if (!r.version) throw new ApiError(Msg.NOT_FOUND);
  if (ref.appState === "mod" && !r.editable) throw new ApiError(Msg.SERVICE_ACTION_NOT_AVAILABLE);
  return {
    draft: await draftOf(db, r.app, r.version, r.editable),
    source: null,
    fabricConnected: !!ctx.deps.env.fabricPeerEndpoint,
  };
}

/**
 * The cover of the caller's own service (another user's, or none, is "not found"). The download's ETag names
 * the file, so a copy the caller already has is a 304 without bytes (docs/decisions/053).
 */
export async function getCover(input: DownloadInput<"wizard-cover">, ctx: SignedInContext) {
  const app = await ownApp(ctx.deps.db, me(ctx).id, input.appId);
  if (!app.coverFileId) throw new ApiError(Msg.NOT_FOUND);
  return { fileId: app.coverFileId, disposition: "inline" as const };
}

/**
 * Step 1. `add` creates the service and its first version on the first save; `update` creates the new
 * version (copying the running one) on its first save; `mod` saves the running service's basic
 * information without review; every appState checks §8 duplicate names and versions and §1 one free
 * service. Nothing is written when a rule fails.
 */
export async function saveBasic(input: Payload<"/sys/chainAppInfo/wizard/saveBasic">, ctx: SignedInContext) {
  const { appState, appId, basic, cover, marketPackageId } = input;
  const user = me(ctx);
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
    await refuseWhileBillsUnpaid(tx, user.id, now);
    let resolved: Resolved | null = null;
    if (appId) {
      await ownApp(tx, user.id, appId, true);
      resolved = await resolveDraft(tx, user.id, appState, appId);
      if (!resolved.editable && appState === "update" && !resolved.version && crossChaining(resolved.app))
        throw new ApiError(Msg.XC_UPGRADE_CROSSING);
      if (!resolved.editable)
        throw new ApiError(
          appState === "mod" || (appState === "update" && !resolved.version)
            ? Msg.SERVICE_ACTION_NOT_AVAILABLE
            : Msg.WIZARD_NOT_EDITABLE,
        );
    } else if (appState !== "add") {
      throw new ApiError(Msg.NOT_FOUND);
    }
    const app = resolved?.app ?? null;
    if (await nameTaken(tx, basic.name, app?.id ?? null))
      throw fieldError("basic.name", Msg.SERVICE_NAME_TAKEN, Msg.SERVICE_NAME_TAKEN);
    // The free flag belongs to a service before it is published: add and mod2 may set it.
    const freeEditable = appState === "add" || appState === "mod2";
    const free = freeEditable ? basic.freeService === "on" : app?.freeYN === 1;
    if (freeEditable && free && (await otherFreeService(tx, user.id, app?.id ?? null))) {
      throw fieldError("basic.freeService", Msg.FREE_SERVICE_USED, Msg.FREE_SERVICE_USED);
    }
    if (appState !== "mod" && app) {
      const clash = await tx
        .select({ id: appVersions.id })
        .from(appVersions)
        .where(
          and(
            eq(appVersions.appId, app.id),
            eq(appVersions.version, basic.version),
            resolved?.version ? ne(appVersions.id, resolved.version.id) : undefined,
          ),
        );
      if (clash.length) throw fieldError("basic.version", Msg.VERSION_TAKEN, Msg.VERSION_TAKEN);
    }
    // A framework that cannot run a language of the draft's packages is refused (docs/decisions/052).
    if (resolved?.version) {
      const held = await tx
        .selectDistinct({ language: chaincodePackages.language })
        .from(chaincodePackages)
        .where(eq(chaincodePackages.verId, resolved.version.id));
      const refused = held.find(
        (p) => !languageRun(basic.framework, p.language, !!ctx.deps.env.fabricPeerEndpoint),
      )?.language;
      if (refused) throw fieldError("basic.framework", ...languageRefusal(refused, basic.framework));
    }
    let coverFileId = app?.coverFileId ?? null;
    if (cover) coverFileId = (await claimUpload(tx, ctx, cover, "cover", "cover")).id;
    if (!coverFileId) throw fieldError("cover", "wizard:validation.coverRequired");

    const fields = { ...appFields(basic), coverFileId, freeYN: free ? 1 : 0, updatedAt: now };
    if (!app) {
      const { app: created, version } = await services.api.createDraft(
        tx,
        { ...fields, userId: user.id, appCode: `APP${randomBytes(8).toString("hex").toUpperCase()}`, createdAt: now },
        { version: basic.version, wizardStep: "packages" },
        now,
      );
      if (marketPackageId) await addMarketPackage(tx, ctx, version.id, basic.framework, marketPackageId, now);
      return saved(created.id, version.wizardStep);
    }
    await services.api.saveDraftBasics(tx, app.id, fields);
    if (appState === "mod") return saved(app.id, "basic");
    if (!resolved!.version) {
      // update: the new version, copying the running one.
      const version = await services.api.createUpgradeDraft(
        tx,
        app.id,
        { version: basic.version, wizardStep: "packages", certificateMode: resolved!.source!.certificateMode },
        resolved!.source!,
        now,
      );
      return saved(app.id, version.wizardStep);
    }
    await services.api.renameDraftVersion(tx, resolved!.version.id, basic.version);
    return saved(app.id, await reach(tx, resolved!.version, "packages", now));
  });
}
