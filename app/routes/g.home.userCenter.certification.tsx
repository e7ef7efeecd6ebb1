import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { licenceProblem } from "#contract/accounts.ts";
import { resubmitFieldsSchema } from "#contract/certification.ts";
import { CertificationView } from "#app/components/profile/Certification.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { replyWithFailure, replyWithFieldErrors } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { parseFormWithUploads, uploadError, uploadRef } from "#app/lib/uploads.server.ts";

export const handle = {
  i18n: ["profile", "auth"],
  breadcrumb: [{ key: "menu.userCenter" }, { key: "menu.certification" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("certification");

const PAGE = "/g/home/userCenter/certification";

/** Enterprise certification (docs/decisions/071): its state, the reason of a rejection, submitting again. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const cert = await apiFor(request, viewer).load("/sys/system/clientInfo/certification", {});
  return json({ cert, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  // The licence is streamed to the backend while the form is read (docs/decisions/023).
  const { formData, uploads } = await parseFormWithUploads(request, api, {
    licence: { kind: "licence", problem: licenceProblem, tooLarge: "validation.licence.tooLarge" },
  });
  const submission = parseWithZod(formData, { schema: resubmitFieldsSchema });
  const licenceError = uploadError(uploads.licence, "validation.licence.required");
  const licence = uploadRef(uploads.licence);
  if (submission.status !== "success" || licenceError || !licence)
    return json(
      { result: replyWithFieldErrors(submission, licenceError ? { licence: [licenceError] } : {}) },
      { status: 400 },
    );
  const result = await api.call("/sys/system/clientInfo/resubmitCertification", {
    creditCode: submission.value.creditCode,
    licence,
  });
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: 400 });
  return redirectWithFlash(request, PAGE, { kind: "success", key: "profile:certification.submitted" });
}

export default function CertificationPage() {
  const { cert, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("profile");
  return (
    <div className="space-y-6">
      <PageHeader title={t("certification.title")} description={t("certification.intro")} />
      <CertificationView cert={cert} result={actionData?.result} language={language} />
    </div>
  );
}
