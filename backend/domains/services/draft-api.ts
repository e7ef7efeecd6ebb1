import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { Tx } from "#backend/db/client.ts";
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
} from "./tables.ts";

/*
 * The writes of a service draft (a version in verState 1, SPEC §5), for the service wizard and the store's
 * "publish a product": each operation writes what one step of the wizard saves, inside the caller's
 * transaction. The wizard's §5 rules (names, versions, free service, completeness, bills) are checked by the
 * wizard before it calls; these only write.
 */

type AppValues = typeof apps.$inferInsert;
type VersionValues = Omit<typeof appVersions.$inferInsert, "appId" | "createdAt" | "updatedAt">;
type PackageValues = typeof chaincodePackages.$inferInsert;
type FunctionValues = Omit<typeof appFunctions.$inferInsert, "verId" | "packageId">;
type VersionRow = typeof appVersions.$inferSelect;

/** A new service with its first version (the draft), which becomes the service's current version. */
export async function createDraft(tx: Tx, app: AppValues, version: VersionValues, now: Date) {
  const [created] = await tx.insert(apps).values(app).returning();
  const [draft] = await tx
    .insert(appVersions)
    .values({ appId: created.id, ...version, createdAt: now, updatedAt: now })
    .returning();
  await tx.update(apps).set({ currentVerId: draft.id }).where(eq(apps.id, created.id));
  return { app: created, version: draft };
}

/** The service's basic information (step 1; `mod` saves a running service's the same way). */
export async function saveDraftBasics(tx: Tx, appId: number, fields: Partial<AppValues>) {
  await tx.update(apps).set(fields).where(eq(apps.id, appId));
}

/**
 * An upgrade's draft (§2 update): a new version of the service copying the packages, functions, roles and
 * city nodes of the running version `from`.
 */
export async function createUpgradeDraft(tx: Tx, appId: number, version: VersionValues, from: VersionRow, now: Date) {
  const [draft] = await tx
    .insert(appVersions)
    .values({ appId, ...version, createdAt: now, updatedAt: now })
    .returning();
  await copyVersion(tx, from, draft.id);
  return draft;
}

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

/** The draft's version number (step 1 of an existing draft). */
export async function renameDraftVersion(tx: Tx, verId: number, version: string) {
  await tx.update(appVersions).set({ version }).where(eq(appVersions.id, verId));
}

/** The furthest wizard step the draft has reached (the wizard works out which one). */
export async function reachDraftStep(tx: Tx, verId: number, wizardStep: string, now: Date) {
  await tx.update(appVersions).set({ wizardStep, updatedAt: now }).where(eq(appVersions.id, verId));
}

/** A chaincode package of the draft, with the functions it comes with (a market entry's; none for an upload). */
export async function addDraftPackage(tx: Tx, pkg: PackageValues, functions: FunctionValues[] = []) {
  const [row] = await tx.insert(chaincodePackages).values(pkg).returning({ id: chaincodePackages.id });
  if (functions.length) {
    await tx.insert(appFunctions).values(functions.map((f) => ({ ...f, verId: pkg.verId, packageId: row.id })));
  }
  return row;
}

/** A function of one of the draft's packages. */
export async function addDraftFunction(tx: Tx, fn: typeof appFunctions.$inferInsert) {
  await tx.insert(appFunctions).values(fn);
}

/** A role of the draft with its function permissions. */
export async function addDraftRole(
  tx: Tx,
  role: { verId: number; name: string; description: string },
  functionIds: number[],
) {
  const [row] = await tx
    .insert(appRoles)
    .values({ verId: role.verId, name: role.name, description: role.description })
    .returning({ id: appRoles.id });
  await tx.insert(appRoleFunctions).values(functionIds.map((functionId) => ({ roleId: row.id, functionId })));
  return row;
}

/** An attachment of the service (kept across its versions). */
export async function addServiceAttachment(tx: Tx, attachment: typeof appAttachments.$inferInsert) {
  await tx.insert(appAttachments).values(attachment);
}

/** Deletes an attachment of the service; false when the service has no such attachment. */
export async function deleteServiceAttachment(tx: Tx, appId: number, attachmentId: number) {
  const gone = await tx
    .delete(appAttachments)
    .where(and(eq(appAttachments.id, attachmentId), eq(appAttachments.appId, appId)))
    .returning();
  return gone.length > 0;
}

/** Deletes a role of the draft with its function permissions. */
export async function deleteDraftRole(tx: Tx, roleId: number) {
  await tx.delete(appRoleFunctions).where(eq(appRoleFunctions.roleId, roleId));
  await tx.delete(appRoles).where(eq(appRoles.id, roleId));
}

/** Deletes a function of the draft (no role or sub-function uses it: the wizard checked). */
export async function deleteDraftFunction(tx: Tx, functionId: number) {
  await tx.delete(appFunctions).where(eq(appFunctions.id, functionId));
}

/** Deletes a package of the draft with its functions `functionIds` (sub-functions among them unlinked first). */
export async function deleteDraftPackage(tx: Tx, packageId: number, functionIds: number[]) {
  if (functionIds.length) {
    await tx.update(appFunctions).set({ parentId: null }).where(inArray(appFunctions.id, functionIds));
    await tx.delete(appFunctions).where(eq(appFunctions.packageId, packageId));
  }
  await tx.delete(chaincodePackages).where(eq(chaincodePackages.id, packageId));
}

/** The draft's city nodes (step 5): the chosen ones replace what it booked before. */
export async function bookDraftNodes(
  tx: Tx,
  verId: number,
  nodes: { cityNodeId: number; tps: number; capacityGb: number; peers: number }[],
) {
  await tx.delete(appNodes).where(eq(appNodes.verId, verId));
  await tx.insert(appNodes).values(nodes.map((n) => ({ verId, ...n })));
}

/**
 * Deletes a draft with everything saved in it. A new service's draft (its only version) takes the service
 * and its attachments with it; an upgrade's leaves the other versions as they were. Answers whether the
 * service went too.
 */
export async function deleteDraft(tx: Tx, appId: number, verId: number) {
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
    .where(and(eq(appVersions.appId, appId), ne(appVersions.id, verId)))
    .orderBy(asc(appVersions.id));
  if (others.length === 0) {
    await tx.update(apps).set({ currentVerId: null }).where(eq(apps.id, appId));
    await tx.delete(appVersions).where(eq(appVersions.id, verId));
    await tx.delete(appAttachments).where(eq(appAttachments.appId, appId));
    await tx.delete(apps).where(eq(apps.id, appId));
  } else {
    await tx.delete(appVersions).where(eq(appVersions.id, verId));
  }
  return { serviceRemoved: others.length === 0 };
}
