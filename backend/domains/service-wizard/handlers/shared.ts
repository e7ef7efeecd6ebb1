import billing from "#backend/domains/billing/index.ts";
import services from "#backend/domains/services/index.ts";
import { and, eq, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import { isEvmFramework } from "#contract/service-codes.ts";
import { furthestOf, type draftRefSchema, type Upload, type WizardStep } from "#contract/service-wizard.ts";
import { apps } from "#backend/domains/services/tables.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import { type SignedInContext } from "#backend/http/router.ts";
import { ownApp, resolveDraft, type Resolved, type VersionRow } from "#backend/domains/service-wizard/draft-reader.ts";

/*
 * Every wizard path is the publisher's, so its handlers are split by step: opening a draft and its basic
 * information (basic-info.ts), its packages, functions, roles and attachments (contents.ts), city nodes,
 * certificate mode and submission (nodes-and-submit.ts), the list of drafts (drafts-list.ts); what several
 * of them use is here.
 */

type Ref = z.infer<typeof draftRefSchema>;
export const me = (ctx: SignedInContext) => ctx.user;
export const saved = (appId: number, wizardStep: string) => ({ appId, wizardStep: wizardStep as WizardStep });

/**
 * Takes the upload a call names (docs/decisions/023): the caller's own, of this kind, not used yet. Its
 * size and content were checked while it arrived (./rules.ts); inside the call's transaction, so a
 * refused call leaves it for another try.
 */
export async function claimUpload(
  tx: Tx,
  ctx: SignedInContext,
  file: Upload,
  kind: "chaincode" | "attachment" | "cover",
  field: string,
) {
  const claimed = await ctx.deps.files.claim(tx, file.uploadId, {
    kind,
    ownerId: me(ctx).id,
    at: ctx.deps.now(),
  });
  if (!claimed) throw fieldError(field, `errors:${Msg.UPLOAD_FAILED}`, Msg.UPLOAD_FAILED);
  return claimed;
}

/**
 * SPEC §5 "Blocking by bills" (§7 h5isHasNoPayBillV2, payType 1: new service, editing, upgrading): unpaid
 * usage bills keep the publisher out of the wizard. Checked here, when a draft is opened or changed, with
 * the refusal the portal's guard answers (MSG_30005), so the portal need not ask before every call.
 */
export async function refuseWhileBillsUnpaid(q: Db | Tx, userId: number, now: Date) {
  if (await billing.api.hasBlockingBills(q, userId, 1, now)) throw new ApiError(Msg.UNPAID_BILLS);
}

/**
 * The draft a mutation changes, locked for the transaction: the caller's own service, in a status the
 * appState may edit (MSG_37001 otherwise), and no unpaid bill in the way. `mod` changes only basic information.
 */
export async function editableDraft(
  tx: Tx,
  ctx: SignedInContext,
  ref: Ref,
  opts: { basicOnly?: boolean } = {},
): Promise<Resolved & { version: VersionRow }> {
  const userId = me(ctx).id;
  await refuseWhileBillsUnpaid(tx, userId, ctx.deps.now());
  if (!ref.appId) throw new ApiError(Msg.NOT_FOUND);
  await ownApp(tx, userId, ref.appId, true);
  const resolved = await resolveDraft(tx, userId, ref.appState, ref.appId);
  if (!resolved.editable || !resolved.version) throw new ApiError(Msg.WIZARD_NOT_EDITABLE);
  if (ref.appState === "mod" && !opts.basicOnly) throw new ApiError(Msg.WIZARD_NOT_EDITABLE);
  return resolved as Resolved & { version: VersionRow };
}

export async function reach(tx: Tx, version: VersionRow, step: WizardStep, now: Date) {
  const wizardStep = furthestOf(version.wizardStep as WizardStep, step);
  await services.api.reachDraftStep(tx, version.id, wizardStep, now);
  return wizardStep;
}

export async function nameTaken(tx: Tx, name: string, exceptAppId: number | null) {
  const rows = await tx
    .select({ id: apps.id })
    .from(apps)
    .where(and(sql`lower(${apps.name}) = lower(${name})`, exceptAppId ? ne(apps.id, exceptAppId) : undefined));
  return rows.length > 0;
}

export async function otherFreeService(tx: Tx, userId: number, exceptAppId: number | null) {
  const rows = await tx
    .select({ id: apps.id })
    .from(apps)
    .where(and(eq(apps.userId, userId), eq(apps.freeYN, 1), exceptAppId ? ne(apps.id, exceptAppId) : undefined));
  return rows.length > 0;
}

/**
 * Why `language` cannot run for `framework` (docs/decisions/052), as fieldError's message key and message:
 * Solidity needs an EVM framework; an EVM framework runs Solidity only; Go and Java need a connected Fabric network.
 */
export function languageRefusal(language: string, framework: string): [string, string] {
  const key =
    language === "solidity"
      ? Msg.SOLIDITY_NEEDS_EVM
      : isEvmFramework(framework)
        ? Msg.EVM_NEEDS_SOLIDITY
        : Msg.LANGUAGE_NEEDS_FABRIC_NETWORK;
  return [key, key];
}
