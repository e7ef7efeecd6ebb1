import { randomBytes } from "node:crypto";
import { and, eq, inArray, ne } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { isEvmFramework } from "#contract/service-codes.ts";
import { ACCESS_METHODS, type BasicInfo } from "#contract/service-wizard.ts";
import type { AccessMethods } from "#backend/domains/services/tables.ts";
import {
  appFunctions,
  appNodes,
  appRoleFunctions,
  appRoles,
  apps,
  appVersions,
  chaincodePackages,
} from "#backend/domains/services/tables.ts";
import type { Tx } from "#backend/db/client.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import { type Payload, type SignedInContext } from "#backend/http/router.ts";
import {
  draftOf,
  ownApp,
  resolveDraft,
  type Resolved,
  type VersionRow,
} from "#backend/domains/service-wizard/draft-reader.ts";
import { me, saved, claimUpload, refuseWhileBillsUnpaid, reach, nameTaken, otherFreeService } from "./shared.ts";
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

/** Copies packages, functions, roles, nodes and the certificate mode of a running version into a new one (§2 update). */
async function copyVersion(tx: Tx, from: VersionRow, toId: number) {
  const packageIds = new Map<number, number>();
  for (const p of await tx.select().from(chaincodePackages).where(eq(chaincodePackages.verId, from.id))) {
    const { id, verId: _v, createdAt: _c, ...rest } = p;
    const [row] = await tx
      .insert(chaincodePackages)
      .values({ ...rest, verId: toId })
      .returning({ id: chaincodePackages.id });
    packageIds.set(id, row.id);
  }
  const functionIds = new Map<number, number>();
  const functions = await tx.select().from(appFunctions).where(eq(appFunctions.verId, from.id));
  for (const f of functions) {
    const { id, verId: _v, parentId: _p, ...rest } = f;
    const [row] = await tx
      .insert(appFunctions)
      .values({ ...rest, verId: toId, packageId: packageIds.get(f.packageId)!, parentId: null })
      .returning({ id: appFunctions.id });
    functionIds.set(id, row.id);
  }
  for (const f of functions) {
    if (f.parentId && functionIds.has(f.parentId)) {
      await tx
        .update(appFunctions)
        .set({ parentId: functionIds.get(f.parentId)! })
        .where(eq(appFunctions.id, functionIds.get(f.id)!));
    }
  }
  const roles = await tx.select().from(appRoles).where(eq(appRoles.verId, from.id));
  const links = roles.length
    ? await tx
        .select()
        .from(appRoleFunctions)
        .where(
          inArray(
            appRoleFunctions.roleId,
            roles.map((r) => r.id),
          ),
        )
    : [];
  for (const r of roles) {
    const [row] = await tx
      .insert(appRoles)
      .values({ verId: toId, name: r.name, description: r.description })
      .returning({ id: appRoles.id });
    const mine = links.filter((l) => l.roleId === r.id && functionIds.has(l.functionId));
    if (mine.length)
      await tx
        .insert(appRoleFunctions)
        .values(mine.map((l) => ({ roleId: row.id, functionId: functionIds.get(l.functionId)! })));
  }
  const nodes = await tx.select().from(appNodes).where(eq(appNodes.verId, from.id));
  if (nodes.length) {
    await tx.insert(appNodes).values(
      nodes.map((n) => ({
        verId: toId,
        cityNodeId: n.cityNodeId,
        tps: n.tps,
        capacityGb: n.capacityGb,
        peers: n.peers,
      })),
    );
  }
}

/** The draft of an appState (or, for update before its version exists, the source it copies). */
/** §8 "Cross-chaining in progress, cannot upgrade": cross-chain pending activation (3) or deactivation (4) (docs/decisions/048). */
const crossChaining = (app: { crossStatus: number }) => app.crossStatus === 3 || app.crossStatus === 4;

export async function getDraft(input: Payload<"/sys/chainAppInfo/wizard/draft">, ctx: SignedInContext) {
  const ref = input;
  await refuseWhileBillsUnpaid(ctx.services.db, me(ctx).id, ctx.services.now());
  if (!ref.appId) {
    if (ref.appState !== "add") throw new ApiError(Msg.NOT_FOUND);
    return { draft: null, source: null };
  }
  const { db } = ctx.services;
  const r = await resolveDraft(db, me(ctx).id, ref.appState, ref.appId);
  if (ref.appState === "update" && !r.version) {
    if (!r.source) throw new ApiError(Msg.NOT_FOUND);
    if (!r.editable)
      throw new ApiError(crossChaining(r.app) ? Msg.XC_UPGRADE_CROSSING : Msg.SERVICE_ACTION_NOT_AVAILABLE);
    return { draft: null, source: await draftOf(db, r.app, r.source, false) };
  }
  if (!r.version) throw new ApiError(Msg.NOT_FOUND);
  if (ref.appState === "mod" && !r.editable) throw new ApiError(Msg.SERVICE_ACTION_NOT_AVAILABLE);
  return { draft: await draftOf(db, r.app, r.version, r.editable), source: null };
}

/**
 * The cover of the caller's own service (another user's, or none, is "not found"). The bytes are left out
 * when the caller already has this file (`knownFileId`, from the portal's ETag).
 */
export async function getCover(input: Payload<"/sys/chainAppInfo/wizard/cover">, ctx: SignedInContext) {
  const { appId, knownFileId } = input;
  const { db } = ctx.services;
  const app = await ownApp(db, me(ctx).id, appId);
  if (!app.coverFileId) throw new ApiError(Msg.NOT_FOUND);
  if (knownFileId === app.coverFileId) return { fileId: app.coverFileId, file: null };
  const file = await ctx.services.files.read(db, app.coverFileId);
  if (!file) throw new ApiError(Msg.NOT_FOUND);
  return {
    fileId: app.coverFileId,
    file: { name: file.name, mime: file.mime, dataBase64: file.bytes.toString("base64") },
  };
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
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
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
    // A framework that does not run Solidity is refused while the draft holds a Solidity package.
    if (resolved?.version && !isEvmFramework(basic.framework)) {
      const [solidity] = await tx
        .select({ id: chaincodePackages.id })
        .from(chaincodePackages)
        .where(and(eq(chaincodePackages.verId, resolved.version.id), eq(chaincodePackages.language, "solidity")));
      if (solidity) throw fieldError("basic.framework", Msg.SOLIDITY_NEEDS_EVM, Msg.SOLIDITY_NEEDS_EVM);
    }
    let coverFileId = app?.coverFileId ?? null;
    if (cover) coverFileId = (await claimUpload(tx, ctx, cover, "cover", "cover")).id;
    if (!coverFileId) throw fieldError("cover", "wizard:validation.coverRequired");

    const fields = { ...appFields(basic), coverFileId, freeYN: free ? 1 : 0, updatedAt: now };
    if (!app) {
      const [created] = await tx
        .insert(apps)
        .values({
          ...fields,
          userId: user.id,
          appCode: `APP${randomBytes(8).toString("hex").toUpperCase()}`,
          createdAt: now,
        })
        .returning();
      const [version] = await tx
        .insert(appVersions)
        .values({ appId: created.id, version: basic.version, wizardStep: "packages", createdAt: now, updatedAt: now })
        .returning();
      await tx.update(apps).set({ currentVerId: version.id }).where(eq(apps.id, created.id));
      if (marketPackageId) await addMarketPackage(tx, ctx, version.id, basic.framework, marketPackageId, now);
      return saved(created.id, version.wizardStep);
    }
    await tx.update(apps).set(fields).where(eq(apps.id, app.id));
    if (appState === "mod") return saved(app.id, "basic");
    if (!resolved!.version) {
      // update: the new version, copying the running one.
      const [version] = await tx
        .insert(appVersions)
        .values({
          appId: app.id,
          version: basic.version,
          wizardStep: "packages",
          certificateMode: resolved!.source!.certificateMode,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await copyVersion(tx, resolved!.source!, version.id);
      return saved(app.id, version.wizardStep);
    }
    await tx.update(appVersions).set({ version: basic.version }).where(eq(appVersions.id, resolved!.version.id));
    return saved(app.id, await reach(tx, resolved!.version, "packages", now));
  });
}
