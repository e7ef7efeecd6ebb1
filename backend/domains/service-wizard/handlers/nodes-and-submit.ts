import services from "#backend/domains/services/index.ts";
import { and, eq, inArray, ne } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import {
  basicFormValue,
  basicInfoSchema,
  chosenNodes,
  MAX_PEERS_PER_NODE,
  nextStep,
  type WizardStep,
} from "#contract/service-wizard.ts";
import {
  appFunctions,
  appNodes,
  appRoleFunctions,
  appRoles,
  appVersions,
  chaincodePackages,
} from "#backend/domains/services/tables.ts";
import type { Tx } from "#backend/db/client.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import { fieldErrorsOf, type Payload, type SignedInContext } from "#backend/http/router.ts";
import { computeCost } from "#backend/domains/service-wizard/cost.ts";
import { basicOf, catalogue, RESUBMITTABLE, type VersionRow } from "#backend/domains/service-wizard/draft-reader.ts";
import { me, saved, editableDraft, reach, otherFreeService } from "./shared.ts";

/** Step 5: the chosen city nodes with TPS, capacity and bookkeeping nodes, within what each node offers. */
export async function saveNodes(input: Payload<"/sys/chainAppInfo/wizard/saveNodes">, ctx: SignedInContext) {
  const { form, ...ref } = input;
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
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
    await services.api.bookDraftNodes(tx, version.id, chosen);
    return saved(app.id, await reach(tx, version, "certificate", now));
  });
}

/** Step 6: certificate mode 1 participant certificate, 2 key trust, 3 upload public key. */
export async function saveCertificate(
  input: Payload<"/sys/chainAppInfo/wizard/saveCertificate">,
  ctx: SignedInContext,
) {
  const { form, ...ref } = input;
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
    const { app, version } = await editableDraft(tx, ctx, ref);
    await services.api.saveCertificateMode(tx, version.id, Number(form.certificateMode));
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
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
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
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
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
