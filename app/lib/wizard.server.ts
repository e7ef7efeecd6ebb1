import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect } from "@remix-run/node";
import * as z from "zod";
import type { PayloadOf, VueapiPath } from "#contract/paths.ts";
import {
  attachmentFormSchema,
  attachmentProblem,
  basicInfoSchema,
  certificateFormSchema,
  coverProblem,
  functionFormSchema,
  isAppState,
  isWizardStep,
  nextStep,
  nodesFormSchema,
  packageFormSchema,
  roleFormSchema,
  submitFormSchema,
  zipProblem,
  type AppState,
  type Draft,
  type WizardStep,
} from "#contract/service-wizard.ts";
import { type ActionData } from "./wizard-forms.ts";
import { wizardUrl } from "./wizard-urls.ts";
import { apiFor, badRequest, failureResponse, notFound, type Viewer } from "./api.server.ts";
import { replyWithFailure, replyWithFieldErrors } from "./forms.server.ts";
import { intentOf } from "./intents.server.ts";
import type { BlockedAction } from "./blocked.ts";
import { positiveId } from "./params.ts";
import { fillNodeDefaults } from "./wizard-nodes.ts";
import { redirectWithFlash } from "./session.server.ts";
import { requireNoUnpaidBills, unlessRefusedForBills } from "./unpaid-guard.server.ts";
import {
  parseFormWithUploads,
  uploadError,
  uploadRef,
  type UploadField,
  type UploadOutcome,
} from "./uploads.server.ts";
import type { VueapiFailure, VueapiResult } from "./vueapi.server.ts";

/*
 * The server side of the service publish wizard (SPEC §2 PublishedServices/NewServices, docs/decisions/011):
 * its URL, the unpaid-bill guard, and one function per form (intent) of its action.
 */

/**
 * SPEC §5 "Blocking by bills": unpaid bills block new services, editing and upgrading, for every appState
 * (§7 h5isHasNoPayBillV2 payType 1), in the loader and the action alike. The backend's wizard paths (draft,
 * every save, submission) refuse with MSG_30005 themselves, and `unlessRefusedForBills` turns that refusal
 * into the guard's redirect home, so a request about a saved draft (with appId) makes one backend call,
 * not two (bench/README.md). A new draft without appId calls no such path before its first save: the guard
 * asks h5isHasNoPayBillV2 first (app/lib/unpaid-guard.server.ts).
 */
export async function guardNewDraft(
  request: Request,
  viewer: Viewer,
  appState: AppState,
  appId: number | null,
): Promise<void> {
  if (!appId) await requireNoUnpaidBills(request, viewer, WIZARD_ACTION[appState]);
}

/** What home's blocked-action panel calls each kind of wizard (app/lib/blocked.ts). */
export const WIZARD_ACTION: Record<AppState, BlockedAction> = {
  add: "newService",
  mod: "editServiceBasic",
  update: "upgradeService",
  mod2: "editService",
};

/** The request layer of the wizard: a backend refusal for unpaid bills leaves for home (see guardNewDraft). */
export function wizardApi(request: Request, viewer: Viewer, appState: AppState) {
  const api = apiFor(request, viewer);
  return {
    call: async <P extends VueapiPath>(path: P, payload: PayloadOf<P>) =>
      unlessRefusedForBills(request, await api.call(path, payload), WIZARD_ACTION[appState]),
    load: api.load,
  };
}

/** The wizard's query: appState, appId (required but for a new service) and step; anything malformed is a 400. */
export function readWizardQuery(request: Request) {
  const url = new URL(request.url);
  const state = url.searchParams.get("appState") ?? "add";
  if (!isAppState(state)) throw badRequest();
  const rawId = url.searchParams.get("appId");
  const appId = rawId === null ? null : positiveId(rawId);
  if (rawId !== null && !appId) throw badRequest();
  if (state !== "add" && !appId) throw badRequest();
  const step = url.searchParams.get("step");
  return {
    appState: state,
    appId,
    step: isWizardStep(step) ? step : null,
    rawStep: step,
    confirm: url.searchParams.get("confirm"),
  };
}

/** A backend refusal as the page's error (another user's service is simply "not found"). */
export function wizardLoadFailure(failure: VueapiFailure): Response {
  if (failure.messageKey === "errors:MSG_10002") return notFound();
  if (failure.messageKey === "errors:MSG_36001" || failure.messageKey === "errors:MSG_37001")
    return json({ messageKey: failure.messageKey }, { status: 403 });
  return failureResponse(failure);
}

/** The saved item whose deletion `?confirm=<kind>-<id>` asks to confirm, when the draft has it. */
export function confirmingItem(
  draft: Draft | null,
  confirm: string | null,
): { kind: string; id: number; name: string } | null {
  const match = confirm?.match(/^(attachment|package|function|role)-([1-9][0-9]{0,9})$/);
  if (!match || !draft?.editable) return null;
  const id = Number(match[2]);
  const found =
    match[1] === "attachment"
      ? draft.attachments.find((x) => x.attachmentId === id)?.name
      : match[1] === "package"
        ? draft.packages.find((x) => x.packageId === id)?.name
        : match[1] === "function"
          ? draft.functions.find((x) => x.functionId === id)?.name
          : draft.roles.find((x) => x.roleId === id)?.name;
  return found ? { kind: match[1], id, name: found } : null;
}

/* ---------------------------------------------- action ---------------------------------------------- */

/**
 * "Recalculate" on the nodes step without JavaScript: the form comes back as typed (chosen rows with their
 * defaults) so the page shows the running total; nothing is saved (docs/decisions/029).
 */
export function recalculateNodes(post: WizardPost) {
  savedDraft(post);
  const submission = parseWithZod(fillNodeDefaults(post.formData), { schema: nodesFormSchema });
  return json({ intent: "saveNodes", result: submission.reply() } as ActionData);
}

/** The wizard's forms: each step's save, the list steps' additions, "Next", deletion and the final submission. */
export const WIZARD_INTENTS = [
  "saveBasic",
  "addAttachment",
  "addPackage",
  "addFunction",
  "addRole",
  "saveNodes",
  "recalculateNodes",
  "saveCertificate",
  "advance",
  "delete",
  "submit",
] as const;

/** The wizard's file inputs and their upload kinds (contract/uploads.ts; docs/decisions/023). */
const WIZARD_FILES: Record<string, UploadField> = {
  cover: { kind: "cover", problem: coverProblem, tooLarge: "wizard:validation.file.coverTooLarge" },
  attachmentFile: {
    kind: "attachment",
    problem: attachmentProblem,
    tooLarge: "wizard:validation.file.attachmentTooLarge",
  },
  file: { kind: "chaincode", problem: zipProblem, tooLarge: "wizard:validation.file.zipTooLarge" },
};

/** One POST to the wizard (the caller is guarded): where it is, its form with its files, and its intent. */
export async function readWizardPost(request: Request, viewer: Viewer) {
  const { appState, appId, step } = readWizardQuery(request);
  await guardNewDraft(request, viewer, appState, appId);
  const api = wizardApi(request, viewer, appState);
  // A chosen file is streamed to the backend while the form is read; the form then names it by upload id
  // (docs/decisions/023).
  const multipart = (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
  const { formData, uploads } = multipart
    ? await parseFormWithUploads(request, apiFor(request, viewer), WIZARD_FILES)
    : { formData: await request.formData(), uploads: {} as Record<string, UploadOutcome> };
  const intent = intentOf(formData, WIZARD_INTENTS);
  return {
    request,
    api,
    formData,
    uploads,
    intent,
    appState,
    appId,
    step,
    ref: { appState, ...(appId ? { appId } : {}) },
  };
}

type WizardPost = Awaited<ReturnType<typeof readWizardPost>>;

/** A refused form: the reply of the posted intent's form, with what was typed. */
const refused = (post: WizardPost, result: ActionData["result"]) =>
  json({ intent: post.intent, result } as ActionData, { status: 400 });

/** Saved: to the step `step` of the draft `appId`, with a flash message. */
const savedTo = (post: WizardPost, appId: number, step: WizardStep | null, key = "wizard:flash.saved") =>
  redirectWithFlash(post.request, wizardUrl(post.appState, appId, step), { kind: "success", key });

/** The draft the form is about: posting to a saved draft's step without its appId is a 400. */
function savedDraft(post: WizardPost): number {
  if (!post.appId) throw badRequest();
  return post.appId;
}

/** A file input of the form (checked and uploaded as it arrived: parseFormWithUploads), required unless `optional`. */
type FileRule = { name: keyof typeof WIZARD_FILES; optional?: boolean };

/** The upload id of the form's file `name`, once the form was checked (saveForm). */
const uploaded = (post: WizardPost, name: keyof typeof WIZARD_FILES) => uploadRef(post.uploads[name]);

/**
 * A form of a step: its schema and the file beside it checked, then the backend's save; a refusal of
 * either comes back at the form's fields (the backend's under `prefix`).
 */
async function saveForm<S extends z.ZodType, T>(
  post: WizardPost,
  {
    schema,
    file,
    prefix,
    save,
    then,
  }: {
    schema: S;
    file?: FileRule;
    prefix: string;
    save: (value: z.output<S>) => Promise<VueapiResult<T>>;
    then: (data: T) => Promise<Response> | Response;
  },
) {
  const submission = parseWithZod(post.formData, { schema });
  const fileError = file
    ? uploadError(post.uploads[file.name], file.optional ? null : "wizard:validation.file.required")
    : null;
  if (submission.status !== "success" || fileError)
    return refused(post, replyWithFieldErrors(submission, file && fileError ? { [file.name]: [fileError] } : {}));
  const result = await save(submission.value);
  if (!result.ok) return refused(post, replyWithFailure(submission, result, { fieldPrefix: prefix }));
  return then(result.data);
}

/**
 * "Use in a new service" from the chaincode market (docs/decisions/042): `?market=<packageId>` on a new
 * service's first step (appState add, no draft yet); null without it, a 400 when malformed.
 */
export function marketParam(request: Request, appState: AppState, appId: number | null): number | null {
  const raw = new URL(request.url).searchParams.get("market");
  if (raw === null || appState !== "add" || appId) return null;
  const id = positiveId(raw);
  if (!id) throw badRequest();
  return id;
}

/** The basic information and cover: a new service's first save makes its draft (with a market package, if any). */
export function saveBasic(post: WizardPost) {
  const marketPackageId = marketParam(post.request, post.appState, post.appId) ?? undefined;
  return saveForm(post, {
    schema: basicInfoSchema,
    file: { name: "cover", optional: true },
    prefix: "basic.",
    save: (basic) =>
      post.api.call("/sys/chainAppInfo/wizard/saveBasic", {
        ...post.ref,
        basic: basic as z.input<typeof basicInfoSchema>,
        cover: uploaded(post, "cover"),
        marketPackageId,
      }),
    then: ({ appId }) =>
      post.appState === "mod"
        ? savedTo(post, appId, "basic", "wizard:flash.basicSaved")
        : savedTo(post, appId, nextStep(post.appState, "basic")),
  });
}

export function addAttachment(post: WizardPost) {
  const appId = savedDraft(post);
  return saveForm(post, {
    schema: attachmentFormSchema,
    file: { name: "attachmentFile" },
    prefix: "attachment.",
    save: (attachment) =>
      post.api.call("/sys/chainAppInfo/wizard/addAttachment", {
        ...post.ref,
        attachment,
        file: uploaded(post, "attachmentFile")!,
      }),
    then: () => savedTo(post, appId, "basic"),
  });
}

export function addPackage(post: WizardPost) {
  const appId = savedDraft(post);
  return saveForm(post, {
    schema: packageFormSchema,
    file: { name: "file" },
    prefix: "pkg.",
    save: (pkg) =>
      post.api.call("/sys/chainAppInfo/wizard/addPackage", {
        ...post.ref,
        pkg: pkg as z.input<typeof packageFormSchema>,
        file: uploaded(post, "file")!,
      }),
    then: () => savedTo(post, appId, "packages"),
  });
}

export function addFunction(post: WizardPost) {
  const appId = savedDraft(post);
  return saveForm(post, {
    schema: functionFormSchema,
    prefix: "fn.",
    save: (fn) => post.api.call("/sys/chainAppInfo/wizard/addFunction", { ...post.ref, fn }),
    then: () => savedTo(post, appId, "functions"),
  });
}

export function addRole(post: WizardPost) {
  const appId = savedDraft(post);
  return saveForm(post, {
    schema: roleFormSchema,
    prefix: "role.",
    save: (role) => post.api.call("/sys/chainAppInfo/wizard/addRole", { ...post.ref, role }),
    then: () => savedTo(post, appId, "roles"),
  });
}

export function saveNodes(post: WizardPost) {
  const appId = savedDraft(post);
  return saveForm(
    { ...post, formData: fillNodeDefaults(post.formData) },
    {
      schema: nodesFormSchema,
      prefix: "form.",
      save: (form) =>
        post.api.call("/sys/chainAppInfo/wizard/saveNodes", {
          ...post.ref,
          form: form as z.input<typeof nodesFormSchema>,
        }),
      then: () => savedTo(post, appId, "certificate"),
    },
  );
}

export function saveCertificate(post: WizardPost) {
  const appId = savedDraft(post);
  return saveForm(post, {
    schema: certificateFormSchema,
    prefix: "form.",
    save: (form) => post.api.call("/sys/chainAppInfo/wizard/saveCertificate", { ...post.ref, form }),
    then: () => savedTo(post, appId, "cost"),
  });
}

/** "Next" on a list step: the backend checks the step is complete and remembers the furthest step. */
export async function advance(post: WizardPost) {
  const { appState, appId, step } = post;
  if (!appId || !step) throw badRequest();
  const submission = parseWithZod(post.formData, { schema: z.object({}) });
  const result = await post.api.call("/sys/chainAppInfo/wizard/advance", { ...post.ref, from: step });
  if (!result.ok) return refused(post, replyWithFailure(submission, result));
  return redirect(wizardUrl(appState, appId, nextStep(appState, step)));
}

/** Deletes a saved attachment, package, function or role (after the confirm step). */
export async function deleteItem(post: WizardPost) {
  const appId = savedDraft(post);
  const kind = String(post.formData.get("kind") ?? "");
  const id = positiveId(String(post.formData.get("id") ?? ""));
  if (!id || !["attachment", "package", "function", "role"].includes(kind)) throw badRequest();
  const result = await post.api.call("/sys/chainAppInfo/wizard/delete", { ...post.ref, kind: kind as "role", id });
  // A refusal (roles still built on it) is shown on the step, with the list unchanged.
  if (!result.ok)
    return redirectWithFlash(post.request, wizardUrl(post.appState, appId, post.step), {
      kind: "error",
      key: result.messageKey,
    });
  return savedTo(post, appId, post.step, "wizard:flash.deleted");
}

/** The final submission for review. */
export function submit(post: WizardPost) {
  const appId = savedDraft(post);
  return saveForm(post, {
    schema: submitFormSchema,
    prefix: "form.",
    save: (form) => post.api.call("/sys/chainAppInfo/wizard/submit", { ...post.ref, form }),
    then: () => savedTo(post, appId, null, "wizard:flash.submitted"),
  });
}
