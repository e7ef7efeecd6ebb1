import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { zipProblem } from "#contract/service-wizard.ts";
import { testServiceFormSchema } from "#contract/test-services.ts";
import { actionsOf } from "#app/lib/test-services-rules.ts";
import { TestServiceForm, type TestServiceFormMode } from "#app/components/test-services/TestServiceForm.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { replyWithFailure, replyWithFieldErrors } from "#app/lib/forms.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveParam } from "#app/lib/params.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { parseFormWithUploads, uploadError, uploadRef } from "#app/lib/uploads.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["testServices", "wizard"],
  breadcrumb: [{ key: "menu.testServices", to: "/g/home/TestServices" }, { key: "titles.testServicesNew" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("testServicesNew");

/** ?id= edits a test service (status 1, 15, 20); with &upgrade=1 it upgrades a deployed one (10): a new version. */
function modeOf(url: URL): { id: number | null; mode: TestServiceFormMode } {
  const id = positiveParam(url.searchParams.get("id"));
  return { id, mode: !id ? "create" : url.searchParams.get("upgrade") === "1" ? "upgrade" : "edit" };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const { id, mode } = modeOf(new URL(request.url));
  if (!id) return json({ service: null, mode });
  const service = await apiFor(request, viewer).load("/sys/testService/detail", { testServiceId: id });
  const can = actionsOf(service.status);
  if (mode === "edit" ? !can.edit : !can.upgrade) throw json({ messageKey: "errors:MSG_43001" }, { status: 409 });
  return json({ service, mode });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const { id, mode } = modeOf(new URL(request.url));
  const api = apiFor(request, viewer);
  const { formData, uploads } = await parseFormWithUploads(request, api, {
    file: { kind: "chaincode", problem: zipProblem, tooLarge: "wizard:validation.file.zipTooLarge" },
  });
  intentOf(formData, ["save"]);
  const submission = parseWithZod(formData, { schema: testServiceFormSchema });
  const fileError = uploadError(uploads.file, null);
  if (submission.status !== "success" || fileError)
    return json({ result: replyWithFieldErrors(submission, fileError ? { file: [fileError] } : {}) }, { status: 400 });
  const payload = { ...submission.value, uploadId: uploadRef(uploads.file)?.uploadId };
  const result =
    mode === "create"
      ? await api.call("/sys/testService/create", payload)
      : await api.call(mode === "edit" ? "/sys/testService/edit" : "/sys/testService/upgrade", {
          ...payload,
          testServiceId: id!,
        });
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: 400 });
  return redirectWithFlash(request, `/g/home/TestServices/TestServicesDetail?id=${result.data.testServiceId}`, {
    kind: "success",
    key: `testServices:flash.${mode}`,
  });
}

export default function TestServicesNew() {
  const { service, mode } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("testServices");
  // The backend names an upload's problem by its id field; the form shows it at the file input.
  const resultErrors = (actionData?.result as { error?: Record<string, string[] | null> } | undefined)?.error;
  const fileErrors = resultErrors?.file ?? resultErrors?.uploadId ?? undefined;
  return (
    <div className="card max-w-3xl">
      <PageHeader title={t(`form.title.${mode}`, { name: service?.name })} />
      <p className="mt-1 text-sm text-slate-600">{t("form.intro")}</p>
      <TestServiceForm mode={mode} service={service} lastResult={actionData?.result} fileErrors={fileErrors} />
    </div>
  );
}
