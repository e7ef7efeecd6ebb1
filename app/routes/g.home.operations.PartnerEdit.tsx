import { FormProvider, getFormProps, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { partnerFormSchema } from "#contract/community.ts";
import { COVER_TYPES, coverProblem } from "#contract/service-wizard.ts";
import { CheckboxField, FileField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { apiFor, notFound, requireOperator } from "#app/lib/api.server.ts";
import { formFailureStatus, replyWithFailure, replyWithFieldErrors } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveParam } from "#app/lib/params.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { parseFormWithUploads, uploadError, uploadRef, type UploadOutcome } from "#app/lib/uploads.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["community", "wizard"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.opsPartnerEdit" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("opsPartnerEdit");

/**
 * Operations: a new partner, or one (?partnerId=N): names and descriptions in both languages, an https link,
 * its place in the order, and a logo uploaded as an image (png or jpeg, ≤ 5 MB; docs/decisions/040).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const raw = new URL(request.url).searchParams.get("partnerId");
  if (raw === null) return json({ partner: null });
  const partnerId = positiveParam(raw);
  const partner = partnerId
    ? (await apiFor(request, viewer).load("/sys/ops/community/partners", {})).find((p) => p.partnerId === partnerId)
    : undefined;
  if (!partner) throw notFound();
  return json({ partner });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const api = apiFor(request, viewer);
  const multipart = (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
  // A chosen logo is streamed to the backend while the form is read (docs/decisions/023).
  const { formData, uploads } = multipart
    ? await parseFormWithUploads(request, api, {
        logo: { kind: "cover", problem: coverProblem, tooLarge: "wizard:validation.file.coverTooLarge" },
      })
    : { formData: await request.formData(), uploads: {} as Record<string, UploadOutcome> };
  const submission = parseWithZod(formData, { schema: partnerFormSchema });
  const logoError = uploadError(uploads.logo, null);
  if (submission.status !== "success" || logoError)
    return json({ result: replyWithFieldErrors(submission, logoError ? { logo: [logoError] } : {}) }, { status: 400 });
  const result = await api.call("/sys/ops/community/savePartner", {
    partner: submission.value,
    logo: uploadRef(uploads.logo) ?? null,
  });
  if (!result.ok)
    return json(
      { result: replyWithFailure(submission, result, { fieldPrefix: "partner." }) },
      { status: formFailureStatus(result) },
    );
  return redirectWithFlash(request, "/g/home/operations/Partners", { kind: "success", key: "community:ops.saved" });
}

export default function PartnerEdit() {
  const { partner } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("community");
  const [form, fields] = useSchemaForm(partnerFormSchema, actionData?.result, {
    id: "partner",
    defaultValue: partner
      ? {
          nameEn: partner.nameEn,
          nameZh: partner.nameZh,
          descriptionEn: partner.descriptionEn,
          descriptionZh: partner.descriptionZh,
          link: partner.link,
          sortOrder: String(partner.sortOrder),
        }
      : { sortOrder: "0" },
  });
  const logoErrors =
    (actionData?.result as { error?: Record<string, string[] | null> } | undefined)?.error?.logo ?? undefined;
  return (
    <div className="card max-w-3xl space-y-4">
      <Link to="/g/home/operations/Partners" className="link text-sm">
        ← {t("ops.backToList")}
      </Link>
      <h2 className="text-lg font-semibold">{t(partner ? "partners.edit" : "partners.new")}</h2>
      <FormProvider context={form.context}>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          {partner ? <input type="hidden" name="partnerId" value={partner.partnerId} /> : null}
          <div className="grid gap-4 md:grid-cols-2">
            <TextField field={fields.nameEn} label={t("partners.nameEn")} />
            <TextField field={fields.nameZh} label={t("partners.nameZh")} />
            <TextAreaField field={fields.descriptionEn} label={t("partners.descriptionEn")} rows={3} />
            <TextAreaField field={fields.descriptionZh} label={t("partners.descriptionZh")} rows={3} />
            <TextField field={fields.link} label={t("partners.link")} type="url" hint={t("partners.linkHint")} />
            <TextField
              field={fields.sortOrder as FieldMetadata<string | undefined>}
              label={t("partners.order")}
              type="number"
              hint={t("partners.orderHint")}
            />
          </div>
          {partner?.hasLogo ? (
            <div className="flex items-center gap-3">
              <img
                src={`/g/main/partnerLogo?id=${partner.partnerId}`}
                alt=""
                width={48}
                height={48}
                className="h-12 w-12 rounded object-contain"
              />
              <CheckboxField field={fields.removeLogo}>{t("partners.removeLogo")}</CheckboxField>
            </div>
          ) : null}
          <FileField
            name="logo"
            label={t("partners.logo")}
            hint={t("partners.logoHint")}
            accept={COVER_TYPES.map((x) => `.${x}`).join(",")}
            errors={logoErrors}
          />
          <SubmitButton className="btn-primary">{t("form.save")}</SubmitButton>
        </Form>
      </FormProvider>
    </div>
  );
}
