import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect } from "@remix-run/node";
import { KeyType } from "#contract/public-chain-codes.ts";
import { Msg } from "#contract/messages.ts";
import {
  argsOfText,
  ideCallFormSchema,
  ideDeployFormSchema,
  ideEditorFormSchema,
  ideNewFileFormSchema,
  ideRenameFileFormSchema,
  type IdeCallResult,
} from "#contract/ide.ts";
import type { Api } from "./api.server.ts";
import { redirectAfter } from "./api.server.ts";
import { formFailureStatus, replyWithFailure } from "./forms.server.ts";
import { intentOf, parseFormOr400 } from "./intents.server.ts";
import { positiveId } from "./params.ts";
import { redirectWithFlash } from "./session.server.ts";
import { portalUrl } from "./ide-urls.ts";
import type { VueapiFailure } from "./vueapi.server.ts";
import * as z from "zod";
import { ContractStatus } from "#contract/contracts-codes.ts";

/*
 * The server work of /ide/portal (docs/decisions/044): the workspace with its files, compilation and
 * deployments, the user's custody accounts, and one function per form intent. Every IDE call needs the
 * IDE authorisation: the loader renews it; an action refused with §8 MSG_20016 answers the page with what
 * was posted kept (the editor's content), to be saved again once authorised.
 */

export const PORTAL_INTENTS = [
  "save",
  "compile",
  "newFile",
  "renameFile",
  "deleteFile",
  "deploy",
  "call",
  "reauthorise",
] as const;
export type PortalIntent = (typeof PORTAL_INTENTS)[number];

const EXPIRED = `errors:${Msg.IDE_AUTH_EXPIRED}`;

/** The workspace, the file shown, and the custody accounts a deployment or a write may use. */
export async function portalData(api: Api, url: URL, workspaceId: number) {
  await api.load("/sys/ide/grant", {});
  const workspace = await api.load("/sys/ide/workspace/open", { workspaceId });
  const files = workspace.files.filter((f) => !f.folder);
  const wanted = positiveId(url.searchParams.get("fileId"));
  const file = files.find((f) => f.fileId === wanted) ?? files[0] ?? null;
  const accounts = (await api.load("/sys/opc/account/list", { pageIndex: 1, pageSize: 50 })).page.rows.filter(
    (a) => a.keyType === KeyType.CUSTODY,
  );
  const contractId = positiveId(url.searchParams.get("contractId"));
  // `network=test`: contractId is one of the workspace's test-network deployments (docs/decisions/044 addendum).
  const network = url.searchParams.get("network") === "test" ? "test" : "project";
  const deployment =
    workspace.deployments.find((d) => d.contractId === contractId && d.network === network) ??
    workspace.deployments.find((d) => d.status === ContractStatus.SUCCESS) ??
    null;
  const confirmId = positiveId(url.searchParams.get("confirmDelete"));
  const confirm = workspace.files.find((f) => f.fileId === confirmId) ?? null;
  return {
    workspace,
    file,
    accounts,
    deployment,
    confirm: confirm ? { fileId: confirm.fileId, path: confirm.path, folder: confirm.folder } : null,
  };
}

type Kept = { fileId: number; content: string } | null;

const isExpired = (failure: VueapiFailure) => failure.messageKey === EXPIRED;

const keptOf = (formData: FormData): Kept => {
  const fileId = positiveId(String(formData.get("fileId") ?? ""));
  const content = formData.get("content");
  return fileId && typeof content === "string" ? { fileId, content } : null;
};

/** One function per intent; every refusal of the IDE authorisation comes back as `expired`. */
export async function portalAction(request: Request, api: Api, workspaceId: number, formData: FormData) {
  const intent = intentOf(formData, PORTAL_INTENTS);
  const url = new URL(request.url);
  // Which form posted: a function's form by its signature, a file's rename form by its file.
  const target =
    intent === "call"
      ? String(formData.get("signature") ?? "")
      : intent === "renameFile"
        ? `rename-${String(formData.get("fileId") ?? "")}`
        : intent;
  const expired = (kept: Kept) =>
    json({ intent, target, expired: true as const, kept, result: null, call: null }, { status: 401 });
  const fail = (failure: VueapiFailure, submission: Parameters<typeof replyWithFailure>[0]) =>
    // §8 "IDE authorisation expired": the page again with the editor's content kept (status 401).
    isExpired(failure)
      ? expired(keptOf(formData))
      : json(
          {
            intent,
            target,
            expired: false as const,
            kept: null,
            result: replyWithFailure(submission, failure),
            call: null,
          },
          { status: formFailureStatus(failure) },
        );
  const invalid = (submission: { reply: () => SubmissionResult<string[]> }) =>
    json(
      { intent, target, expired: false as const, kept: null, result: submission.reply(), call: null },
      { status: 400 },
    );

  if (intent === "save" || intent === "compile" || intent === "reauthorise") {
    if (intent === "reauthorise") {
      const granted = await api.call("/sys/ide/grant", {});
      if (!granted.ok) return redirectAfter(request, granted, portalUrl(url, {}), "");
      if (!formData.get("fileId")) return redirect(portalUrl(url, {}));
    }
    const submission = parseWithZod(formData, { schema: ideEditorFormSchema });
    if (submission.status !== "success") return invalid(submission);
    const saved = await api.call("/sys/ide/file/save", { workspaceId, ...submission.value });
    if (!saved.ok) return fail(saved, submission);
    const at = portalUrl(url, { fileId: submission.value.fileId });
    if (intent !== "compile") return redirectAfter(request, saved, at, "ide:flash.saved");
    const compiled = await api.call("/sys/ide/compile", { workspaceId });
    if (!compiled.ok) return fail(compiled, submission);
    if (compiled.data.ok) return redirectAfter(request, compiled, at, "ide:flash.compiled");
    // The compiler's refusal is an error, said as one (issue 30), with the messages beside the file.
    return redirectWithFlash(request, at, { kind: "error", key: "ide:flash.compileFailed" });
  }
  if (intent === "newFile") {
    const submission = parseWithZod(formData, { schema: ideNewFileFormSchema });
    if (submission.status !== "success") return invalid(submission);
    const made = await api.call("/sys/ide/file/create", {
      workspaceId,
      path: submission.value.path,
      folder: submission.value.kind === "folder",
    });
    if (!made.ok) return fail(made, submission);
    return redirectAfter(
      request,
      made,
      portalUrl(url, made.data.folder ? {} : { fileId: made.data.fileId }),
      "ide:flash.created",
    );
  }
  if (intent === "renameFile") {
    const submission = parseWithZod(formData, { schema: ideRenameFileFormSchema });
    if (submission.status !== "success") return invalid(submission);
    const moved = await api.call("/sys/ide/file/rename", { workspaceId, ...submission.value });
    if (!moved.ok) return fail(moved, submission);
    return redirectAfter(request, moved, portalUrl(url, {}), "ide:flash.renamed");
  }
  if (intent === "deleteFile") {
    const v = parseFormOr400(
      z.object({ fileId: z.coerce.number().int().positive(), confirmed: z.literal("yes").optional() }),
      formData,
    );
    if (v.confirmed !== "yes") return redirect(`${portalUrl(url, {})}&confirmDelete=${v.fileId}`);
    const removed = await api.call("/sys/ide/file/delete", { workspaceId, fileId: v.fileId });
    if (!removed.ok && isExpired(removed)) return expired(null);
    return redirectAfter(request, removed, portalUrl(url, { fileId: null }), "ide:flash.deleted");
  }
  if (intent === "deploy") {
    const submission = parseWithZod(formData, { schema: ideDeployFormSchema });
    if (submission.status !== "success") return invalid(submission);
    const { contract, target } = submission.value;
    const constructorArgs = argsOfText(submission.value.constructorArgsText);
    if (target === "test") {
      const deployed = await api.call("/sys/ide/deploy", { workspaceId, contract, network: "test", constructorArgs });
      if (!deployed.ok) return fail(deployed, submission);
      const flash =
        deployed.data.status === ContractStatus.SUCCESS ? "ide:flash.deployedTest" : "ide:flash.deployTestFailed";
      return redirectAfter(
        request,
        deployed,
        portalUrl(url, { contractId: deployed.data.contractId, network: "test" }),
        flash,
      );
    }
    const accountId = Number(target);
    const account = await api.call("/sys/opc/account/detail", { accountId, gasRange: "5d" });
    if (!account.ok) return fail(account, submission);
    const deployed = await api.call("/sys/ide/deploy", {
      workspaceId,
      contract,
      network: "project",
      projectId: account.data.projectId,
      accountId,
      constructorArgs,
    });
    if (!deployed.ok) return fail(deployed, submission);
    return redirectAfter(
      request,
      deployed,
      portalUrl(url, { contractId: deployed.data.contractId, network: null }),
      "ide:flash.deploying",
    );
  }
  // intent === "call": the result is shown on the answered page (with or without JavaScript).
  const submission = parseWithZod(formData, { schema: ideCallFormSchema });
  if (submission.status !== "success") return invalid(submission);
  const called = await api.call("/sys/ide/call", { workspaceId, ...submission.value });
  if (!called.ok) return fail(called, submission);
  return json({
    intent,
    target,
    expired: false as const,
    kept: null,
    result: submission.reply(),
    call: called.data satisfies IdeCallResult,
  });
}
