import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import type { CityNode } from "@contract/platform";
import {
  allowedSteps,
  attachmentFormSchema,
  attachmentProblem,
  basicInfoSchema,
  certificateFormSchema,
  coverProblem,
  functionFormSchema,
  isAppState,
  isStepAllowed,
  isWizardStep,
  nextStep,
  nodesFormSchema,
  packageFormSchema,
  previousStep,
  roleFormSchema,
  stepsFor,
  submitFormSchema,
  zipProblem,
  type AppState,
  type Draft,
  type WizardStep,
} from "@contract/service-wizard";
import { ConfirmDelete, Stepper, wizardUrl, type ActionData } from "~/components/wizard/shared";
import { AttachmentsSection, BasicStep, CertificateStep, CostStep, CostTable, FunctionsStep, NodesStep, PackagesStep, RolesStep } from "~/components/wizard/steps";
import type { PayloadOf, VueapiPath } from "@contract/paths";
import { apiFor, failureResponse, requireUser, type Viewer } from "~/lib/api.server";
import { redirectWithFlash } from "~/lib/session.server";
import { parseFormWithUploads, uploadError, uploadRef, type UploadField, type UploadOutcome } from "~/lib/uploads.server";
import type { VueapiFailure } from "~/lib/vueapi.server";
import { requireNoUnpaidBills, unlessRefusedForBills } from "~/lib/unpaid-guard.server";
import { UploadActionDataProvider, useActionDataWithUploads } from "~/lib/use-upload";

/**
 * SPEC §2 PublishedServices/NewServices: the service publish wizard (appState add | mod | update | mod2).
 * The step is in the URL and the draft in the backend (house habit 7): every step is POST → the step's
 * Zod schema → the backend saves → redirect, so it works without JavaScript, survives a reload and resumes
 * on another device (docs/decisions/011). The trailing underscore keeps it out of the list page's layout.
 */
export const handle = {
  i18n: ["wizard"],
  breadcrumb: [
    { key: "wizard:breadcrumb.services" },
    { key: "wizard:breadcrumb.published", to: "/g/home/PermissionedServices/PublishedServices" },
    { key: "wizard:title.add" },
  ],
};

const TITLE_KEYS: Record<AppState, string> = { add: "newService", mod: "editServiceBasic", update: "upgradeService", mod2: "editService" };
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const root = matches.find((m) => m.id === "root")?.data as { titles?: Record<string, string>; brand?: string } | undefined;
  const title = root?.titles?.[TITLE_KEYS[data?.appState ?? "add"]];
  const brand = root?.brand ?? "BSN Portal";
  return [{ title: title ? `${title} · ${brand}` : brand }];
};

const positiveId = (value: string | null) => {
  const n = Number.parseInt(value ?? "", 10);
  return Number.isSafeInteger(n) && n > 0 && String(n) === value ? n : null;
};
const badRequest = () => json({ messageKey: "errors:http.400" }, { status: 400 });

/**
 * SPEC §5 "Blocking by bills": unpaid bills block new services, editing and upgrading, for every appState
 * (§7 h5isHasNoPayBillV2 payType 1), in the loader and the action alike. The backend's wizard paths (draft,
 * every save, submission) refuse with MSG_30005 themselves, and `unlessRefusedForBills` turns that refusal
 * into the guard's redirect home, so a request about a saved draft (with appId) makes one backend call,
 * not two (bench/README.md). A new draft without appId calls no such path before its first save: the guard
 * asks h5isHasNoPayBillV2 first (app/lib/unpaid-guard.server.ts).
 */
async function guardNewDraft(request: Request, viewer: Viewer, appId: number | null): Promise<void> {
  if (!appId) await requireNoUnpaidBills(request, viewer, 1);
}

/** The request layer of this page: a backend refusal for unpaid bills leaves for home (see guardNewDraft). */
function wizardApi(request: Request, viewer: Viewer) {
  const api = apiFor(request, viewer);
  return {
    call: async <P extends VueapiPath>(path: P, payload: PayloadOf<P>) => unlessRefusedForBills(request, await api.call(path, payload)),
    load: api.load,
  };
}

function readQuery(request: Request) {
  const url = new URL(request.url);
  const state = url.searchParams.get("appState") ?? "add";
  if (!isAppState(state)) throw badRequest();
  const rawId = url.searchParams.get("appId");
  const appId = rawId === null ? null : positiveId(rawId);
  if (rawId !== null && !appId) throw badRequest();
  if (state !== "add" && !appId) throw badRequest();
  const step = url.searchParams.get("step");
  return { appState: state, appId, step: isWizardStep(step) ? step : null, rawStep: step, confirm: url.searchParams.get("confirm") };
}

/** A backend refusal as the page's error (another user's service is simply "not found"). */
function loadFailure(failure: VueapiFailure): Response {
  if (failure.messageKey === "errors:MSG_10002") return json({ messageKey: "errors:http.404" }, { status: 404 });
  if (failure.messageKey === "errors:MSG_36001" || failure.messageKey === "errors:MSG_37001") return json({ messageKey: failure.messageKey }, { status: 403 });
  return failureResponse(failure);
}

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const { appState, appId, step: asked, rawStep, confirm } = readQuery(request);
  await guardNewDraft(request, viewer, appId);
  const api = wizardApi(request, viewer);
  let draft: Draft | null = null;
  let source: Draft | null = null;
  if (appId) {
    const result = await api.call("/sys/chainAppInfo/wizard/draft", { appState, appId });
    if (!result.ok) throw loadFailure(result);
    ({ draft, source } = result.data);
  }
  const steps = stepsFor(appState);
  // The furthest step the draft reached; mod is the basic step alone.
  const furthest: WizardStep | null = appState === "mod" ? "basic" : (draft?.wizardStep ?? null);
  const allowed = allowedSteps(appState, furthest);
  if (rawStep !== null && !asked) throw badRequest();
  // Without a step (or with one not reached yet) the wizard resumes where the publisher was.
  const resumeAt = allowed[allowed.length - 1];
  if (draft?.editable !== false && (!asked || !isStepAllowed(appState, furthest, asked))) {
    throw redirect(wizardUrl(appState, appId, resumeAt));
  }
  const step = asked ?? resumeAt;
  const needsCatalogue = step === "nodes";
  const catalogue: CityNode[] = needsCatalogue ? await api.load("/anon/platform/cityNodes", {}) : [];
  let confirming: { kind: string; id: number; name: string } | null = null;
  const match = confirm?.match(/^(attachment|package|function|role)-([1-9][0-9]{0,9})$/);
  if (match && draft?.editable) {
    const id = Number(match[2]);
    const found =
      match[1] === "attachment" ? draft.attachments.find((x) => x.attachmentId === id)?.name
      : match[1] === "package" ? draft.packages.find((x) => x.packageId === id)?.name
      : match[1] === "function" ? draft.functions.find((x) => x.functionId === id)?.name
      : draft.roles.find((x) => x.roleId === id)?.name;
    if (found) confirming = { kind: match[1], id, name: found };
  }
  return json({ appState, appId, step, steps, allowed, draft, source, catalogue, confirming, language: viewer.language });
}

/* ---------------------------------------------- action ---------------------------------------------- */

function msgKey(key: string) {
  return key.startsWith("MSG_") ? `errors:${key}` : key;
}

/** Conform's name for a backend field path: "form.nodes.0.tps" → "nodes[0].tps". */
function fieldName(path: string, prefix: string) {
  const name = path.startsWith(prefix) ? path.slice(prefix.length) : path;
  return name.replace(/\.(\d+)(?=\.|$)/g, "[$1]");
}

function failureReply(submission: Submission<unknown>, failure: VueapiFailure, prefix: string) {
  const fieldErrors: Record<string, string[]> = {};
  for (const [name, keys] of Object.entries(failure.fieldErrors)) fieldErrors[fieldName(name, prefix)] = keys.map(msgKey);
  return submission.reply({ formErrors: failure.silent || Object.keys(fieldErrors).length ? [] : [failure.messageKey], fieldErrors });
}

/** The submission's own errors plus those of the files beside it. */
function invalidReply(submission: Submission<unknown>, extra: Record<string, string[]>) {
  const fieldErrors: Record<string, string[]> = { ...extra };
  if (submission.status === "error") for (const [name, keys] of Object.entries(submission.error ?? {})) if (keys) fieldErrors[name] = keys;
  return submission.reply({ fieldErrors });
}

/** The wizard's file inputs and their upload kinds (contract/uploads.ts; docs/decisions/023). */
const WIZARD_FILES: Record<string, UploadField> = {
  cover: { kind: "cover", problem: coverProblem, tooLarge: "wizard:validation.file.coverTooLarge" },
  attachmentFile: { kind: "attachment", problem: attachmentProblem, tooLarge: "wizard:validation.file.attachmentTooLarge" },
  file: { kind: "chaincode", problem: zipProblem, tooLarge: "wizard:validation.file.zipTooLarge" },
};
const FILE_REQUIRED = "wizard:validation.file.required";

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const { appState, appId, step } = readQuery(request);
  await guardNewDraft(request, viewer, appId);
  const api = wizardApi(request, viewer);
  const multipart = (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
  const { formData, uploads } = multipart
    ? await parseFormWithUploads(request, apiFor(request, viewer), WIZARD_FILES)
    : { formData: await request.formData(), uploads: {} as Record<string, UploadOutcome> };
  const intent = String(formData.get("intent") ?? "");
  const ref = { appState, ...(appId ? { appId } : {}) };
  const here = (s: WizardStep | null = step) => wizardUrl(appState, appId, s);
  const reply = (result: ActionData["result"]) => json({ intent, result } as ActionData, { status: 400 });
  const after = (id: number, s: WizardStep | null, key = "wizard:flash.saved") => redirectWithFlash(request, wizardUrl(appState, id, s), { kind: "success", key });

  switch (intent) {
    case "saveBasic": {
      const submission = parseWithZod(formData, { schema: basicInfoSchema });
      const coverError = uploadError(uploads.cover, null);
      if (submission.status !== "success" || coverError) return reply(invalidReply(submission, coverError ? { cover: [coverError] } : {}));
      const result = await api.call("/sys/chainAppInfo/wizard/saveBasic", {
        ...ref,
        basic: submission.value as z.input<typeof basicInfoSchema>,
        cover: uploadRef(uploads.cover),
      });
      if (!result.ok) return reply(failureReply(submission, result, "basic."));
      if (appState === "mod") return after(result.data.appId, "basic", "wizard:flash.basicSaved");
      return after(result.data.appId, nextStep(appState, "basic"));
    }
    case "addAttachment": {
      if (!appId) throw badRequest();
      const submission = parseWithZod(formData, { schema: attachmentFormSchema });
      const fileError = uploadError(uploads.attachmentFile, FILE_REQUIRED);
      const file = uploadRef(uploads.attachmentFile);
      if (submission.status !== "success" || fileError || !file) return reply(invalidReply(submission, fileError ? { attachmentFile: [fileError] } : {}));
      const result = await api.call("/sys/chainAppInfo/wizard/addAttachment", { ...ref, attachment: submission.value, file });
      if (!result.ok) return reply(failureReply(submission, result, "attachment."));
      return after(appId, "basic");
    }
    case "addPackage": {
      if (!appId) throw badRequest();
      const submission = parseWithZod(formData, { schema: packageFormSchema });
      const fileError = uploadError(uploads.file, FILE_REQUIRED);
      const file = uploadRef(uploads.file);
      if (submission.status !== "success" || fileError || !file) return reply(invalidReply(submission, fileError ? { file: [fileError] } : {}));
      const result = await api.call("/sys/chainAppInfo/wizard/addPackage", { ...ref, pkg: submission.value as z.input<typeof packageFormSchema>, file });
      if (!result.ok) return reply(failureReply(submission, result, "pkg."));
      return after(appId, "packages");
    }
    case "addFunction": {
      if (!appId) throw badRequest();
      const submission = parseWithZod(formData, { schema: functionFormSchema });
      if (submission.status !== "success") return reply(submission.reply());
      const result = await api.call("/sys/chainAppInfo/wizard/addFunction", { ...ref, fn: submission.value });
      if (!result.ok) return reply(failureReply(submission, result, "fn."));
      return after(appId, "functions");
    }
    case "addRole": {
      if (!appId) throw badRequest();
      const submission = parseWithZod(formData, { schema: roleFormSchema });
      if (submission.status !== "success") return reply(submission.reply());
      const result = await api.call("/sys/chainAppInfo/wizard/addRole", { ...ref, role: submission.value });
      if (!result.ok) return reply(failureReply(submission, result, "role."));
      return after(appId, "roles");
    }
    case "saveNodes": {
      if (!appId) throw badRequest();
      const submission = parseWithZod(formData, { schema: nodesFormSchema });
      if (submission.status !== "success") return reply(submission.reply());
      const result = await api.call("/sys/chainAppInfo/wizard/saveNodes", { ...ref, form: submission.value as z.input<typeof nodesFormSchema> });
      if (!result.ok) return reply(failureReply(submission, result, "form."));
      return after(appId, "certificate");
    }
    case "saveCertificate": {
      if (!appId) throw badRequest();
      const submission = parseWithZod(formData, { schema: certificateFormSchema });
      if (submission.status !== "success") return reply(submission.reply());
      const result = await api.call("/sys/chainAppInfo/wizard/saveCertificate", { ...ref, form: submission.value });
      if (!result.ok) return reply(failureReply(submission, result, "form."));
      return after(appId, "cost");
    }
    case "advance": {
      if (!appId || !step) throw badRequest();
      const submission = parseWithZod(formData, { schema: z.object({}) });
      const result = await api.call("/sys/chainAppInfo/wizard/advance", { ...ref, from: step });
      if (!result.ok) return reply(failureReply(submission, result, ""));
      return redirect(wizardUrl(appState, appId, nextStep(appState, step)));
    }
    case "delete": {
      if (!appId) throw badRequest();
      const kind = String(formData.get("kind") ?? "");
      const id = positiveId(String(formData.get("id") ?? ""));
      if (!id || !["attachment", "package", "function", "role"].includes(kind)) throw badRequest();
      const result = await api.call("/sys/chainAppInfo/wizard/delete", { ...ref, kind: kind as "role", id });
      // A refusal (roles still built on it) is shown on the step, with the list unchanged.
      if (!result.ok) return redirectWithFlash(request, here(), { kind: "error", key: result.messageKey });
      return after(appId, step, "wizard:flash.deleted");
    }
    case "submit": {
      if (!appId) throw badRequest();
      const submission = parseWithZod(formData, { schema: submitFormSchema });
      if (submission.status !== "success") return reply(submission.reply());
      const result = await api.call("/sys/chainAppInfo/wizard/submit", { ...ref, form: submission.value });
      if (!result.ok) return reply(failureReply(submission, result, "form."));
      return after(appId, null, "wizard:flash.submitted");
    }
    default:
      // House habit 2: an unknown intent is a 400.
      throw badRequest();
  }
}

/* ------------------------------------------------ page ------------------------------------------------ */

export default function NewServicesPage() {
  const { appState, appId, step, steps, allowed, draft, source, catalogue, confirming, language } = useLoaderData<typeof loader>();
  // With JavaScript, the forms with a file upload by XMLHttpRequest (with progress): their action's answer
  // arrives here as if Remix had submitted them (app/lib/use-upload.ts).
  const [actionData, deliverUpload] = useActionDataWithUploads<ActionData>();
  const { t } = useTranslation("wizard");
  const view = (draft ?? source) as Draft | null;
  const action = wizardUrl(appState, appId, step);
  const back = previousStep(appState, step);
  const backTo = back ? wizardUrl(appState, appId, back) : "";
  const deleteHref = (kind: string, id: number) => wizardUrl(appState, appId, step, { confirm: `${kind}-${id}` });
  const common = { action, actionData, backTo };

  if (draft && !draft.editable) {
    return (
      <div className="space-y-6">
        <h1 className="text-xl font-semibold">{t(`title.${appState}`)}</h1>
        <section className="card space-y-3" data-testid="wizard-status">
          <h2 className="text-lg font-semibold">{t("submitted.title", { name: draft.basic.name, version: draft.basic.version })}</h2>
          <p>{t("submitted.status", { status: t(`states.${draft.verState}`) })}</p>
          <p className="text-sm text-slate-600">{t("submitted.notEditable")}</p>
          <CostTable view={draft} language={language} />
          <Link to="/g/home/PermissionedServices/PublishedServices" className="link">{t("actions.toList")}</Link>
        </section>
      </div>
    );
  }

  return (
    <UploadActionDataProvider value={deliverUpload}>
      <div className="space-y-6">
        <h1 className="text-xl font-semibold">{t(`title.${appState}`)}</h1>
        <Stepper steps={steps} allowed={allowed} current={step} href={(s) => wizardUrl(appState, appId, s)} />
        <h2 className="text-lg font-semibold" data-testid="wizard-step">{t(`steps.${step}`)}</h2>
        {confirming ? <ConfirmDelete action={action} kind={confirming.kind} id={confirming.id} name={confirming.name} cancelTo={action} /> : null}
        {step === "basic" ? (
          <BasicStep
            appState={appState}
            view={view}
            action={action}
            actionData={actionData}
            attachmentsSlot={<AttachmentsSection view={draft} action={action} actionData={actionData} deleteHref={deleteHref} editable={!!draft?.editable} />}
          />
        ) : null}
        {view && step === "packages" ? <PackagesStep view={view} deleteHref={deleteHref} {...common} /> : null}
        {view && step === "functions" ? <FunctionsStep view={view} deleteHref={deleteHref} {...common} /> : null}
        {view && step === "roles" ? <RolesStep view={view} deleteHref={deleteHref} {...common} /> : null}
        {view && step === "nodes" ? <NodesStep view={view} catalogue={catalogue} language={language} {...common} /> : null}
        {view && step === "certificate" ? <CertificateStep view={view} {...common} /> : null}
        {view && step === "cost" ? <CostStep view={view} language={language} {...common} /> : null}
      </div>
    </UploadActionDataProvider>
  );
}
