import market from "#backend/domains/market/index.ts";
import services from "#backend/domains/services/index.ts";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { languageRun } from "#contract/service-codes.ts";
import {
  appAttachments,
  appFunctions,
  appRoleFunctions,
  appRoles,
  chaincodePackages,
} from "#backend/domains/services/tables.ts";
import type { Tx } from "#backend/db/client.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import { type Payload, type SignedInContext } from "#backend/http/router.ts";
import { saved, claimUpload, editableDraft, languageRefusal } from "./shared.ts";

/**
 * "Use in a new service" (issue 15, the chaincode market): the market entry's zip (a copy, so the draft keeps
 * it whatever the market does later) becomes the draft's package, with the entry's functions. A Solidity entry
 * must run for the draft's framework (docs/decisions/052; refused at the framework field); a withdrawn one is refused.
 */
export async function addMarketPackage(
  tx: Tx,
  ctx: SignedInContext,
  verId: number,
  framework: string,
  marketPackageId: number,
  now: Date,
) {
  const entry = await market.api.packageForDraft(tx, marketPackageId);
  if (!languageRun(framework, entry.language, !!ctx.deps.env.fabricPeerEndpoint))
    throw fieldError("basic.framework", ...languageRefusal(entry.language, framework));
  const file = await ctx.deps.files.copy(tx, entry.fileId, now);
  if (!file) throw new ApiError(Msg.NOT_FOUND);
  await services.api.addDraftPackage(
    tx,
    {
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
    },
    entry.functions.map((f) => ({
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

/** §5 attachment: name required and unique per service (the file, ≤ 20 MB of a listed type, was checked at upload). Allowed in `mod` too. */
export async function addAttachment(input: Payload<"/sys/chainAppInfo/wizard/addAttachment">, ctx: SignedInContext) {
  const { attachment, file, ...ref } = input;
  return ctx.deps.db.transaction(async (tx) => {
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
    await services.api.addServiceAttachment(tx, {
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
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
    const { app, version } = await editableDraft(tx, ctx, ref);
    // A language that cannot run for the framework is refused at the field (docs/decisions/052).
    if (!languageRun(app.framework, pkg.language, !!ctx.deps.env.fabricPeerEndpoint))
      throw fieldError("pkg.language", ...languageRefusal(pkg.language, app.framework));
    const clash = await tx
      .select({ id: chaincodePackages.id })
      .from(chaincodePackages)
      .where(and(eq(chaincodePackages.verId, version.id), sql`lower(${chaincodePackages.name}) = lower(${pkg.name})`));
    if (clash.length) throw fieldError("pkg.name", Msg.PACKAGE_NAME_TAKEN, Msg.PACKAGE_NAME_TAKEN);
    const stored = await claimUpload(tx, ctx, file, "chaincode", "file");
    await services.api.addDraftPackage(tx, {
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
  return ctx.deps.db.transaction(async (tx) => {
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
    await services.api.addDraftFunction(tx, {
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
  return ctx.deps.db.transaction(async (tx) => {
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
    await services.api.addDraftRole(tx, { verId: version.id, name: role.name, description: role.description }, ids);
    return saved(app.id, version.wizardStep);
  });
}

/**
 * Deletes an attachment, package, function or role of the caller's draft. §5: a package or function that
 * roles are built on is refused until those roles are deleted; a function with sub-functions too.
 */
export async function deleteItem(input: Payload<"/sys/chainAppInfo/wizard/delete">, ctx: SignedInContext) {
  const { kind, id, ...ref } = input;
  return ctx.deps.db.transaction(async (tx) => {
    const { app, version } = await editableDraft(tx, ctx, ref, { basicOnly: kind === "attachment" });
    if (kind === "attachment") {
      if (!(await services.api.deleteServiceAttachment(tx, app.id, id))) throw new ApiError(Msg.NOT_FOUND);
      return saved(app.id, version.wizardStep);
    }
    if (kind === "role") {
      const [role] = await tx
        .select()
        .from(appRoles)
        .where(and(eq(appRoles.id, id), eq(appRoles.verId, version.id)));
      if (!role) throw new ApiError(Msg.NOT_FOUND);
      await services.api.deleteDraftRole(tx, role.id);
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
      await services.api.deleteDraftFunction(tx, fn.id);
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
    }
    // Its functions go with it; sub-functions of them first.
    await services.api.deleteDraftPackage(
      tx,
      pkg.id,
      fns.map((f) => f.id),
    );
    return saved(app.id, version.wizardStep);
  });
}
