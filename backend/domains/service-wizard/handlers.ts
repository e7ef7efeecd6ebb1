import services from "#backend/domains/services/index.ts";
import billing from "#backend/domains/billing/index.ts";
import market from "#backend/domains/market/index.ts";
import { randomBytes } from "node:crypto";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import { isEvmFramework } from "#contract/service-codes.ts";
import {
  ACCESS_METHODS,
  basicFormValue,
  basicInfoSchema,
  chosenNodes,
  furthestOf,
  MAX_PEERS_PER_NODE,
  nextStep,
  type AppState,
  type BasicInfo,
  type draftRefSchema,
  type Upload,
  type WizardStep,
} from "#contract/service-wizard.ts";
import type { AccessMethods } from "#backend/domains/services/tables.ts";
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
import type { Db, Tx } from "#backend/db/client.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import { fieldErrorsOf, type Payload, type SignedInContext } from "#backend/http/router.ts";
import { computeCost } from "./cost.ts";
import {
  basicOf,
  catalogue,
  draftOf,
  ownApp,
  resolveDraft,
  RESUBMITTABLE,
  type Resolved,
  type VersionRow,
} from "./draft.ts";

type Ref = z.infer<typeof draftRefSchema>;
const me = (ctx: SignedInContext) => ctx.user;
const saved = (appId: number, wizardStep: string) => ({ appId, wizardStep: wizardStep as WizardStep });

/* ------------------------------------------- helpers ------------------------------------------- */

/**
 * Takes the upload a call names (docs/decisions/023): the caller's own, of this kind, not used yet. Its
 * size and content were checked while it arrived (./rules.ts); inside the call's transaction, so a
 * refused call leaves it for another try.
 */
async function claimUpload(
  tx: Tx,
  ctx: SignedInContext,
  file: Upload,
  kind: "chaincode" | "attachment" | "cover",
  field: string,
) {
  const claimed = await ctx.services.files.claim(tx, file.uploadId, {
    kind,
    ownerId: me(ctx).id,
    at: ctx.services.now(),
  });
  if (!claimed) throw fieldError(field, `errors:${Msg.UPLOAD_FAILED}`, Msg.UPLOAD_FAILED);
  return claimed;
}

/**
 * SPEC §5 "Blocking by bills" (§7 h5isHasNoPayBillV2, payType 1: new service, editing, upgrading): unpaid
 * usage bills keep the publisher out of the wizard. Checked here, when a draft is opened or changed, with
 * the refusal the portal's guard answers (MSG_30005), so the portal need not ask before every call.
 */
async function refuseWhileBillsUnpaid(q: Db | Tx, userId: number, now: Date) {
  if (await billing.api.hasBlockingBills(q, userId, 1, now)) throw new ApiError(Msg.UNPAID_BILLS);
}

/**
 * The draft a mutation changes, locked for the transaction: the caller's own service, in a status the
 * appState may edit (MSG_37001 otherwise), and no unpaid bill in the way. `mod` changes only basic information.
 */
async function editableDraft(
  tx: Tx,
  ctx: SignedInContext,
  ref: Ref,
  opts: { basicOnly?: boolean } = {},
): Promise<Resolved & { version: VersionRow }> {
  const userId = me(ctx).id;
  await refuseWhileBillsUnpaid(tx, userId, ctx.services.now());
  if (!ref.appId) throw new ApiError(Msg.NOT_FOUND);
  await ownApp(tx, userId, ref.appId, true);
  const resolved = await resolveDraft(tx, userId, ref.appState, ref.appId);
  if (!resolved.editable || !resolved.version) throw new ApiError(Msg.WIZARD_NOT_EDITABLE);
  if (ref.appState === "mod" && !opts.basicOnly) throw new ApiError(Msg.WIZARD_NOT_EDITABLE);
  return resolved as Resolved & { version: VersionRow };
}

async function reach(tx: Tx, version: VersionRow, step: WizardStep, now: Date) {
  const wizardStep = furthestOf(version.wizardStep as WizardStep, step);
  await tx.update(appVersions).set({ wizardStep, updatedAt: now }).where(eq(appVersions.id, version.id));
  return wizardStep;
}

async function nameTaken(tx: Tx, name: string, exceptAppId: number | null) {
  const rows = await tx
    .select({ id: apps.id })
    .from(apps)
    .where(and(sql`lower(${apps.name}) = lower(${name})`, exceptAppId ? ne(apps.id, exceptAppId) : undefined));
  return rows.length > 0;
}

async function otherFreeService(tx: Tx, userId: number, exceptAppId: number | null) {
  const rows = await tx
    .select({ id: apps.id })
    .from(apps)
    .where(and(eq(apps.userId, userId), eq(apps.freeYN, 1), exceptAppId ? ne(apps.id, exceptAppId) : undefined));
  return rows.length > 0;
}

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

/* ------------------------------------------- handlers ------------------------------------------ */

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

/**
 * "Use in a new service" (issue 15, the chaincode market): the market entry's zip (a copy, so the draft keeps
 * it whatever the market does later) becomes the draft's package, with the entry's functions. A Solidity entry
 * needs an EVM framework (MSG_41xxx SOLIDITY_NEEDS_EVM at the framework field); a withdrawn one is refused.
 */
async function addMarketPackage(
  tx: Tx,
  ctx: SignedInContext,
  verId: number,
  framework: string,
  marketPackageId: number,
  now: Date,
) {
  const entry = await market.api.packageForDraft(tx, marketPackageId);
  if (entry.language === "solidity" && !isEvmFramework(framework))
    throw fieldError("basic.framework", Msg.SOLIDITY_NEEDS_EVM, Msg.SOLIDITY_NEEDS_EVM);
  const file = await ctx.services.files.copy(tx, entry.fileId, now);
  if (!file) throw new ApiError(Msg.NOT_FOUND);
  const [pkg] = await tx
    .insert(chaincodePackages)
    .values({
      verId,
      name: entry.name,
      version: entry.version,
      language: entry.language,
      initParams: entry.initParams,
      mainPath: entry.mainPath,
      fileId: file.id,
      fileName: file.name,
      size: file.size,
      createdAt: now,
    })
    .returning({ id: chaincodePackages.id });
  if (entry.functions.length) {
    await tx.insert(appFunctions).values(
      entry.functions.map((f) => ({
        verId,
        packageId: pkg.id,
        name: f.name,
        funcType: f.funcType,
        func: f.func,
        parentId: null,
        crossChainAllowed: false,
        inputFormat: f.inputFormat,
        outputFormat: f.outputFormat,
      })),
    );
  }
}

/** §5 attachment: name required and unique per service (the file, ≤ 20 MB of a listed type, was checked at upload). Allowed in `mod` too. */
export async function addAttachment(input: Payload<"/sys/chainAppInfo/wizard/addAttachment">, ctx: SignedInContext) {
  const { attachment, file, ...ref } = input;
  return ctx.services.db.transaction(async (tx) => {
    const { app, version } = await editableDraft(tx, ctx, ref, { basicOnly: true });
    const clash = await tx
      .select({ id: appAttachments.id })
      .from(appAttachments)
      .where(
        and(eq(appAttachments.appId, app.id), sql`lower(${appAttachments.name}) = lower(${attachment.attachmentName})`),
      );
    if (clash.length)
      throw fieldError("attachment.attachmentName", Msg.ATTACHMENT_NAME_TAKEN, Msg.ATTACHMENT_NAME_TAKEN);
    const stored = await claimUpload(tx, ctx, file, "attachment", "attachmentFile");
    await tx.insert(appAttachments).values({
      appId: app.id,
      name: attachment.attachmentName,
      fileId: stored.id,
      fileName: stored.name,
      size: stored.size,
    });
    return saved(app.id, version.wizardStep);
  });
}

/** §5 chaincode package: name rule and unique in the version; the zip (≤ 60 MB, safe entries, no spaces in its name) was checked at upload. */
export async function addPackage(input: Payload<"/sys/chainAppInfo/wizard/addPackage">, ctx: SignedInContext) {
  const { pkg, file, ...ref } = input;
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    const { app, version } = await editableDraft(tx, ctx, ref);
    if (pkg.language === "solidity" && !isEvmFramework(app.framework))
      throw fieldError("pkg.language", Msg.SOLIDITY_NEEDS_EVM, Msg.SOLIDITY_NEEDS_EVM);
    const clash = await tx
      .select({ id: chaincodePackages.id })
      .from(chaincodePackages)
      .where(and(eq(chaincodePackages.verId, version.id), sql`lower(${chaincodePackages.name}) = lower(${pkg.name})`));
    if (clash.length) throw fieldError("pkg.name", Msg.PACKAGE_NAME_TAKEN, Msg.PACKAGE_NAME_TAKEN);
    const stored = await claimUpload(tx, ctx, file, "chaincode", "file");
    await tx.insert(chaincodePackages).values({
      verId: version.id,
      name: pkg.name,
      version: pkg.version,
      language: pkg.language,
      initParams: (pkg.initParams ?? "")
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)
        .join(","),
      mainPath: pkg.mainPath,
      fileId: stored.id,
      fileName: stored.name,
      size: stored.size,
      createdAt: now,
    });
    return saved(app.id, version.wizardStep);
  });
}

/** §5 function: every field required; FUNC without Chinese, spaces or symbols and unique; parent is Top or a function of this version. */
export async function addFunction(input: Payload<"/sys/chainAppInfo/wizard/addFunction">, ctx: SignedInContext) {
  const { fn, ...ref } = input;
  return ctx.services.db.transaction(async (tx) => {
    const { app, version } = await editableDraft(tx, ctx, ref);
    const [pkg] = await tx
      .select({ id: chaincodePackages.id })
      .from(chaincodePackages)
      .where(and(eq(chaincodePackages.id, Number(fn.packageId)), eq(chaincodePackages.verId, version.id)));
    if (!pkg) throw fieldError("fn.packageId", "validation.required");
    let parentId: number | null = null;
    if (fn.parentId !== "top") {
      const [parent] = await tx
        .select({ id: appFunctions.id })
        .from(appFunctions)
        .where(and(eq(appFunctions.id, Number(fn.parentId)), eq(appFunctions.verId, version.id)));
      if (!parent) throw fieldError("fn.parentId", "validation.required");
      parentId = parent.id;
    }
    const clash = await tx
      .select({ id: appFunctions.id })
      .from(appFunctions)
      .where(and(eq(appFunctions.verId, version.id), eq(appFunctions.func, fn.func)));
    if (clash.length) throw fieldError("fn.func", Msg.FUNC_TAKEN, Msg.FUNC_TAKEN);
    await tx.insert(appFunctions).values({
      verId: version.id,
      packageId: pkg.id,
      name: fn.name,
      funcType: Number(fn.funcType),
      func: fn.func,
      parentId,
      crossChainAllowed: fn.crossChainAllowed === "on",
      inputFormat: fn.inputFormat,
      outputFormat: fn.outputFormat,
    });
    return saved(app.id, version.wizardStep);
  });
}

/** §5 role: name required and unique, a description, at least one function permission (of this version). */
export async function addRole(input: Payload<"/sys/chainAppInfo/wizard/addRole">, ctx: SignedInContext) {
  const { role, ...ref } = input;
  return ctx.services.db.transaction(async (tx) => {
    const { app, version } = await editableDraft(tx, ctx, ref);
    const ids = [...new Set(role.functionIds.map(Number))];
    const known = await tx
      .select({ id: appFunctions.id })
      .from(appFunctions)
      .where(and(eq(appFunctions.verId, version.id), inArray(appFunctions.id, ids)));
    if (known.length !== ids.length) throw fieldError("role.functionIds", "wizard:validation.functionsRequired");
    const clash = await tx
      .select({ id: appRoles.id })
      .from(appRoles)
      .where(and(eq(appRoles.verId, version.id), sql`lower(${appRoles.name}) = lower(${role.name})`));
    if (clash.length) throw fieldError("role.name", Msg.ROLE_NAME_TAKEN, Msg.ROLE_NAME_TAKEN);
    const [row] = await tx
      .insert(appRoles)
      .values({ verId: version.id, name: role.name, description: role.description })
      .returning({ id: appRoles.id });
    await tx.insert(appRoleFunctions).values(ids.map((functionId) => ({ roleId: row.id, functionId })));
    return saved(app.id, version.wizardStep);
  });
}

/**
 * Deletes an attachment, package, function or role of the caller's draft. §5: a package or function that
 * roles are built on is refused until those roles are deleted; a function with sub-functions too.
 */
export async function deleteItem(input: Payload<"/sys/chainAppInfo/wizard/delete">, ctx: SignedInContext) {
  const { kind, id, ...ref } = input;
  return ctx.services.db.transaction(async (tx) => {
    const { app, version } = await editableDraft(tx, ctx, ref, { basicOnly: kind === "attachment" });
    if (kind === "attachment") {
      const gone = await tx
        .delete(appAttachments)
        .where(and(eq(appAttachments.id, id), eq(appAttachments.appId, app.id)))
        .returning();
      if (!gone.length) throw new ApiError(Msg.NOT_FOUND);
      return saved(app.id, version.wizardStep);
    }
    if (kind === "role") {
      const [role] = await tx
        .select()
        .from(appRoles)
        .where(and(eq(appRoles.id, id), eq(appRoles.verId, version.id)));
      if (!role) throw new ApiError(Msg.NOT_FOUND);
      await tx.delete(appRoleFunctions).where(eq(appRoleFunctions.roleId, role.id));
      await tx.delete(appRoles).where(eq(appRoles.id, role.id));
      return saved(app.id, version.wizardStep);
    }
    if (kind === "function") {
      const [fn] = await tx
        .select()
        .from(appFunctions)
        .where(and(eq(appFunctions.id, id), eq(appFunctions.verId, version.id)));
      if (!fn) throw new ApiError(Msg.NOT_FOUND);
      const used = await tx.select().from(appRoleFunctions).where(eq(appRoleFunctions.functionId, fn.id));
      if (used.length) throw new ApiError(Msg.FUNCTION_USED_BY_ROLES);
      const children = await tx
        .select({ id: appFunctions.id })
        .from(appFunctions)
        .where(eq(appFunctions.parentId, fn.id));
      if (children.length) throw new ApiError(Msg.FUNCTION_HAS_CHILDREN);
      await tx.delete(appFunctions).where(eq(appFunctions.id, fn.id));
      return saved(app.id, version.wizardStep);
    }
    const [pkg] = await tx
      .select()
      .from(chaincodePackages)
      .where(and(eq(chaincodePackages.id, id), eq(chaincodePackages.verId, version.id)));
    if (!pkg) throw new ApiError(Msg.NOT_FOUND);
    const fns = await tx.select({ id: appFunctions.id }).from(appFunctions).where(eq(appFunctions.packageId, pkg.id));
    if (fns.length) {
      const used = await tx
        .select()
        .from(appRoleFunctions)
        .where(
          inArray(
            appRoleFunctions.functionId,
            fns.map((f) => f.id),
          ),
        );
      if (used.length) throw new ApiError(Msg.PACKAGE_USED_BY_ROLES);
      const ids = fns.map((f) => f.id);
      const outside = await tx
        .select({ id: appFunctions.id })
        .from(appFunctions)
        .where(and(inArray(appFunctions.parentId, ids), ne(appFunctions.packageId, pkg.id)));
      if (outside.length) throw new ApiError(Msg.FUNCTION_HAS_CHILDREN);
      // Its functions go with it; sub-functions of them first.
      await tx
        .update(appFunctions)
        .set({ parentId: null })
        .where(
          inArray(
            appFunctions.id,
            fns.map((f) => f.id),
          ),
        );
      await tx.delete(appFunctions).where(eq(appFunctions.packageId, pkg.id));
    }
    await tx.delete(chaincodePackages).where(eq(chaincodePackages.id, pkg.id));
    return saved(app.id, version.wizardStep);
  });
}

/** Step 5: the chosen city nodes with TPS, capacity and bookkeeping nodes, within what each node offers. */
export async function saveNodes(input: Payload<"/sys/chainAppInfo/wizard/saveNodes">, ctx: SignedInContext) {
  const { form, ...ref } = input;
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    const { app, version } = await editableDraft(tx, ctx, ref);
    const nodes = await catalogue(tx);
    const chosen = chosenNodes(form);
    if (new Set(chosen.map((n) => n.cityNodeId)).size !== chosen.length)
      throw fieldError("nodes", "validation.invalid");
    for (const [i, n] of form.nodes.entries()) {
      if (n.selected !== "on") continue;
      const node = nodes.get(Number(n.cityNodeId));
      if (!node) throw fieldError(`form.nodes.${i}.cityNodeId`, "validation.invalid");
      if (Number(n.tps) > node.availableTps)
        throw fieldError(`form.nodes.${i}.tps`, Msg.INSUFFICIENT_RESOURCES, Msg.INSUFFICIENT_RESOURCES);
      if (Number(n.capacityGb) > node.capacityGb)
        throw fieldError(`form.nodes.${i}.capacityGb`, Msg.INSUFFICIENT_RESOURCES, Msg.INSUFFICIENT_RESOURCES);
      if (Number(n.peers) > Math.min(MAX_PEERS_PER_NODE, node.peers))
        throw fieldError(`form.nodes.${i}.peers`, Msg.INSUFFICIENT_RESOURCES, Msg.INSUFFICIENT_RESOURCES);
    }
    await tx.delete(appNodes).where(eq(appNodes.verId, version.id));
    await tx.insert(appNodes).values(chosen.map((n) => ({ verId: version.id, ...n })));
    return saved(app.id, await reach(tx, version, "certificate", now));
  });
}

/** Step 6: certificate mode 1 participant certificate, 2 key trust, 3 upload public key. */
export async function saveCertificate(
  input: Payload<"/sys/chainAppInfo/wizard/saveCertificate">,
  ctx: SignedInContext,
) {
  const { form, ...ref } = input;
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    const { app, version } = await editableDraft(tx, ctx, ref);
    await tx
      .update(appVersions)
      .set({ certificateMode: Number(form.certificateMode) })
      .where(eq(appVersions.id, version.id));
    return saved(app.id, await reach(tx, version, "cost", now));
  });
}

/** What a version lacks before it may leave a step (and before submission): the §5 Service rules. */
async function completeness(tx: Tx, version: VersionRow, upTo: WizardStep): Promise<string | null> {
  const order: WizardStep[] = ["packages", "functions", "roles", "nodes", "certificate"];
  const limit = order.indexOf(upTo);
  const packages = await tx
    .select({ id: chaincodePackages.id })
    .from(chaincodePackages)
    .where(eq(chaincodePackages.verId, version.id));
  if (limit >= 0 && packages.length === 0) return Msg.PACKAGE_REQUIRED;
  if (limit >= 1) {
    const functions = await tx
      .select({ id: appFunctions.id, packageId: appFunctions.packageId })
      .from(appFunctions)
      .where(eq(appFunctions.verId, version.id));
    if (functions.length === 0) return Msg.FUNCTION_REQUIRED;
    if (packages.some((p) => !functions.some((f) => f.packageId === p.id))) return Msg.PACKAGE_WITHOUT_FUNCTIONS;
    if (limit >= 2) {
      const roles = await tx.select({ id: appRoles.id }).from(appRoles).where(eq(appRoles.verId, version.id));
      if (roles.length === 0) return Msg.ROLE_REQUIRED;
      const links = await tx
        .select()
        .from(appRoleFunctions)
        .where(
          inArray(
            appRoleFunctions.roleId,
            roles.map((r) => r.id),
          ),
        );
      const covered = new Set(links.map((l) => functions.find((f) => f.id === l.functionId)?.packageId));
      if (packages.some((p) => !covered.has(p.id))) return Msg.PACKAGE_WITHOUT_ROLE;
    }
  }
  if (limit >= 3) {
    const nodes = await tx.select({ id: appNodes.cityNodeId }).from(appNodes).where(eq(appNodes.verId, version.id));
    if (nodes.length === 0) return Msg.NODE_REQUIRED;
  }
  if (limit >= 4 && !version.certificateMode) return Msg.CERTIFICATE_MODE_REQUIRED;
  return null;
}

/** "Next" on the list steps (packages, functions, roles): the step must be complete; the draft remembers the furthest step. */
export async function advance(input: Payload<"/sys/chainAppInfo/wizard/advance">, ctx: SignedInContext) {
  const { from, ...ref } = input;
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    const { app, version } = await editableDraft(tx, ctx, ref);
    const next = nextStep(ref.appState, from);
    // Only the list steps move on with "Next"; the others move on by saving their own form.
    if (!next || !["packages", "functions", "roles"].includes(from)) throw new ApiError(Msg.INVALID_PARAMS);
    const missing = await completeness(tx, version, from);
    if (missing) throw new ApiError(missing);
    return saved(app.id, await reach(tx, version, next, now));
  });
}

/**
 * Step 7: submission. Everything is checked again (§5 Service: package, function, role, city node, cover,
 * description, version unique, agreement, one free service), the cost of one cycle is computed from the
 * catalogue and saved, then the lifecycle moves 1 → 5 ("submit") or 11/20/22/26 → 5 ("resubmit").
 */
export async function submit(input: Payload<"/sys/chainAppInfo/wizard/submit">, ctx: SignedInContext) {
  const { form: _agreed, ...ref } = input;
  const user = me(ctx);
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    // editableDraft refuses while bills are unpaid (SPEC §5 Blocking by bills).
    const { app, version } = await editableDraft(tx, ctx, ref);
    const basic = basicInfoSchema.safeParse(basicFormValue(basicOf(app, version)));
    if (!basic.success)
      throw new ApiError(Msg.INVALID_PARAMS, { fieldErrors: prefix(fieldErrorsOf(basic.error), "basic.") });
    if (!app.coverFileId || !app.description.trim()) throw new ApiError(Msg.COVER_DESCRIPTION_REQUIRED);
    const missing = await completeness(tx, version, "certificate");
    if (missing) throw new ApiError(missing);
    const sameVersion = await tx
      .select({ id: appVersions.id })
      .from(appVersions)
      .where(
        and(eq(appVersions.appId, app.id), eq(appVersions.version, version.version), ne(appVersions.id, version.id)),
      );
    if (sameVersion.length) throw new ApiError(Msg.VERSION_TAKEN);
    if (app.freeYN === 1 && (await otherFreeService(tx, user.id, app.id))) throw new ApiError(Msg.FREE_SERVICE_USED);
    const nodes = await tx.select().from(appNodes).where(eq(appNodes.verId, version.id));
    const cost = computeCost(nodes, await catalogue(tx), app.paymentCycle === 1 ? 1 : 2, app.freeYN === 1);
    const event = RESUBMITTABLE.includes(version.verState) ? "resubmit" : "submit";
    const result = await services.api.applyTransition(tx, {
      verId: version.id,
      event,
      actor: "publisher",
      actorId: user.id,
      now,
      set: { costCents: cost.totalCents, agreementAcceptedAt: now, submittedAt: now },
    });
    return { appId: app.id, verId: version.id, verState: result.to, costCents: cost.totalCents };
  });
}

function prefix(errors: Record<string, string[]>, p: string) {
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [p + k, v]));
}

export type { AppState };
