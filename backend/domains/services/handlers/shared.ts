import { and, asc, desc, eq, inArray, ne } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import { RefundState, VerState, serviceActions, type ServiceAction } from "#contract/service-status.ts";
import { sameServiceName, type ServiceRow, type servicePaths } from "#contract/services.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { readReport } from "#backend/domains/services/inspect.ts";
import {
  appFunctions,
  appNodes,
  appRoleFunctions,
  appRoles,
  appVersions,
  apps,
  chaincodePackages,
  refundRequests,
} from "#backend/domains/services/tables.ts";

export type Payload<P extends keyof typeof servicePaths> = z.output<(typeof servicePaths)[P]["payload"]>;

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export const me = (ctx: SignedInContext) => ctx.user;

/** The message of a refusal that applies to the service's status (docs/decisions/010). */
export const NOT_AVAILABLE = Msg.SERVICE_ACTION_NOT_AVAILABLE;

/** An unsubscription of this version is already waiting for review (§4 Refund review). */
export const REFUND_PENDING = Msg.REFUND_PENDING;

/** The service is not running (§8 "service not running"). */
export const NOT_RUNNING = Msg.SERVICE_NOT_RUNNING;

/** The comment was already replied to. */
export const ALREADY_REPLIED = Msg.COMMENT_ALREADY_REPLIED;

export type VersionRow = typeof appVersions.$inferSelect;

type AppRow = typeof apps.$inferSelect;

/** What a row of a service list reads of a version and of its service (lists select only these columns). */
const LISTED_VERSION = {
  id: appVersions.id,
  appId: appVersions.appId,
  version: appVersions.version,
  verState: appVersions.verState,
  billState: appVersions.billState,
  billId: appVersions.billId,
  verUpable: appVersions.verUpable,
  costCents: appVersions.costCents,
  createdAt: appVersions.createdAt,
  publishedAt: appVersions.publishedAt,
  enableRequestedAt: appVersions.enableRequestedAt,
};
export const LISTED_APP = {
  id: apps.id,
  appCode: apps.appCode,
  name: apps.name,
  crossStatus: apps.crossStatus,
  freeYN: apps.freeYN,
  renewalBillId: apps.renewalBillId,
};
type ListedVersion = Pick<VersionRow, keyof typeof LISTED_VERSION>;
type ListedApp = Pick<AppRow, keyof typeof LISTED_APP>;

export function rowOf(app: ListedApp, v: ListedVersion, refundPending: boolean): ServiceRow {
  return {
    appId: app.id,
    appVerId: v.id,
    appCode: app.appCode,
    name: app.name,
    version: v.version,
    verState: v.verState,
    billState: v.billState,
    billId: v.billId,
    verUpable: v.verUpable,
    crossStatus: app.crossStatus,
    freeYN: app.freeYN,
    costCents: v.costCents,
    createdAt: v.createdAt.toISOString(),
    publishedAt: iso(v.publishedAt),
    refundPending,
    enableRequestedAt: iso(v.enableRequestedAt),
    unpaidBillId: app.renewalBillId,
  };
}

const actionsOf = (app: AppRow, v: VersionRow) =>
  serviceActions({
    verState: v.verState,
    billState: v.billState,
    verUpable: v.verUpable,
    crossStatus: app.crossStatus,
    freeYN: app.freeYN,
    unpaidBill: app.renewalBillId !== null,
  });

/**
 * The version of one of the caller's services (another user's is "not found": a publisher never sees
 * another's service), locked when `lock`.
 */
export async function ownVersion(db: Db | Tx, userId: number, verId: number, lock = false) {
  const q = db.select().from(appVersions).where(eq(appVersions.id, verId));
  const [version] = lock ? await q.for("update") : await q;
  if (!version) throw new ApiError(Msg.NOT_FOUND);
  const [app] = await db.select().from(apps).where(eq(apps.id, version.appId));
  if (!app || app.userId !== userId) throw new ApiError(Msg.NOT_FOUND);
  return { app, version };
}

export function requireAction(app: AppRow, version: VersionRow, action: ServiceAction) {
  if (!actionsOf(app, version).has(action)) throw new ApiError(NOT_AVAILABLE);
}

/** Each service's version the list shows: the latest one that is past the draft (a draft lives in the wizard). */
export async function listedVersions(db: Db, appIds: number[]) {
  if (appIds.length === 0) return new Map<number, ListedVersion>();
  // The latest version past the draft of each service, and only the columns a row shows (a version's reports
  // and texts stay in the table).
  const rows = await db
    .selectDistinctOn([appVersions.appId], LISTED_VERSION)
    .from(appVersions)
    .where(and(inArray(appVersions.appId, appIds), ne(appVersions.verState, VerState.PENDING_SUBMIT)))
    .orderBy(appVersions.appId, desc(appVersions.id));
  return new Map(rows.map((r) => [r.appId, r]));
}

export async function pendingRefunds(db: Db | Tx, verIds: number[]) {
  if (verIds.length === 0) return new Set<number>();
  const rows = await db
    .select({ verId: refundRequests.verId })
    .from(refundRequests)
    .where(and(inArray(refundRequests.verId, verIds), eq(refundRequests.state, RefundState.PENDING)));
  return new Set(rows.map((r) => r.verId));
}

/** Packages, functions, roles, nodes, cost and reports of a version (detail and review queues). */
export async function versionContents(db: Db | Tx, v: VersionRow) {
  const packages = await db
    .select()
    .from(chaincodePackages)
    .where(eq(chaincodePackages.verId, v.id))
    .orderBy(asc(chaincodePackages.id));
  const functions = await db
    .select()
    .from(appFunctions)
    .where(eq(appFunctions.verId, v.id))
    .orderBy(asc(appFunctions.id));
  const roles = await db.select().from(appRoles).where(eq(appRoles.verId, v.id)).orderBy(asc(appRoles.id));
  const grants = roles.length
    ? await db
        .select()
        .from(appRoleFunctions)
        .where(
          inArray(
            appRoleFunctions.roleId,
            roles.map((r) => r.id),
          ),
        )
    : [];
  const nodes = await db
    .select({ n: appNodes, c: cityNodes })
    .from(appNodes)
    .innerJoin(cityNodes, eq(cityNodes.id, appNodes.cityNodeId))
    .where(eq(appNodes.verId, v.id))
    .orderBy(asc(cityNodes.id));
  const pkgName = new Map(packages.map((p) => [p.id, p.name]));
  const fnName = new Map(functions.map((f) => [f.id, f.name]));
  return {
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
      name: f.name,
      packageName: pkgName.get(f.packageId) ?? "",
      funcType: f.funcType,
      func: f.func,
      parentName: f.parentId ? (fnName.get(f.parentId) ?? null) : null,
      crossChainAllowed: f.crossChainAllowed,
      inputFormat: f.inputFormat,
      outputFormat: f.outputFormat,
    })),
    roles: roles.map((r) => ({
      roleId: r.id,
      name: r.name,
      description: r.description,
      functions: grants.filter((g) => g.roleId === r.id).map((g) => fnName.get(g.functionId) ?? ""),
    })),
    nodes: nodes.map(({ n, c }) => ({
      cityNodeId: c.id,
      code: c.code,
      name: c.name,
      nameZh: c.nameZh,
      tps: n.tps,
      capacityGb: n.capacityGb,
      peers: n.peers,
      bookedAt: iso(n.bookedAt),
    })),
    costCents: v.costCents,
    testReport: readReport(v.testReport as never),
    deployReport: readReport(v.deployReport as never),
  };
}

export function refundOf(r: typeof refundRequests.$inferSelect) {
  return {
    refundId: r.id,
    state: r.state,
    amountCents: r.amountCents,
    reason: r.reason,
    createdAt: r.createdAt.toISOString(),
    reviewedAt: iso(r.reviewedAt),
    reviewComments: r.reviewComments,
  };
}

/**
 * A destructive action confirmed by typing the service's name (docs/decisions/029): a typed name that does
 * not match is refused with a field error, before anything changes.
 */
export function requireTypedName(typed: string | undefined, name: string) {
  if (typed !== undefined && !sameServiceName(typed, name)) throw fieldError("confirmName", "validation.nameMismatch");
}

/**
 * Operator suspension (docs/decisions/015): operators suspend running services (25 → 40) and lift the
 * suspension (40 → 25); at 40 the publisher's "Enable" is a request to operations, which an operator
 * grants by enabling or declines with comments. Every decision is a lifecycle event (machine.ts) applied
 * by applyTransition, so it is recorded for the approval records and the publisher gets a message.
 */

/** Clears the pending request: an operator's enable and decline both close it. */
export const NO_REQUEST = { enableRequestedAt: null, enableRequestNote: null };
