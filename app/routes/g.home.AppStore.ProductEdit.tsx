import { FormProvider, getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { COVER_TYPES, coverProblem } from "#contract/service-wizard.ts";
import { ownerActions, PAY_MODES, PRODUCT_TYPES, productFormSchema } from "#contract/store.ts";
import { CheckboxField, FileField, SelectField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { Cover } from "#app/components/store/listing.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { replyWithFailure, replyWithFieldErrors } from "#app/lib/forms.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveParam } from "#app/lib/params.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { requireNoUnpaidBills, unlessRefusedForBills } from "#app/lib/unpaid-guard.server.ts";
import { parseFormWithUploads, uploadError, uploadRef, type UploadOutcome } from "#app/lib/uploads.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["store", "wizard"],
  breadcrumb: [
    { key: "menu.appStore" },
    { key: "menu.myProducts", to: "/g/home/AppStore/MyProducts" },
    { key: "titles.productEdit" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("productEdit");

/** Create a product (no id) or edit one of the caller's in status 0 or 3 (§4 Product). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const productId = positiveParam(new URL(request.url).searchParams.get("id"));
  const enterprise = viewer.user.userType === 2;
  // SPEC §5 Blocking by bills: a new product (the backend refuses it again when it is saved).
  if (!productId) {
    await requireNoUnpaidBills(request, viewer, "newProduct");
    return json({ product: null, enterprise });
  }
  const product = await apiFor(request, viewer).load("/sys/product/detail", { productId });
  if (!product.own || !ownerActions(product.status).includes("edit"))
    throw json({ messageKey: "errors:MSG_40002" }, { status: 409 });
  return json({ product, enterprise });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const productId = positiveParam(new URL(request.url).searchParams.get("id")) ?? undefined;
  const multipart = (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
  const api = apiFor(request, viewer);
  // A chosen cover is streamed to the backend while the form is read (docs/decisions/023).
  const { formData, uploads } = multipart
    ? await parseFormWithUploads(request, api, {
        cover: { kind: "cover", problem: coverProblem, tooLarge: "wizard:validation.file.coverTooLarge" },
      })
    : { formData: await request.formData(), uploads: {} as Record<string, UploadOutcome> };
  // House habit 2: an unknown intent is a 400.
  intentOf(formData, ["save"]);
  const submission = parseWithZod(formData, { schema: productFormSchema });
  const coverError = uploadError(uploads.cover, null);
  if (submission.status !== "success" || coverError)
    return json(
      { result: replyWithFieldErrors(submission, coverError ? { cover: [coverError] } : {}) },
      { status: 400 },
    );
  const result = await unlessRefusedForBills(
    request,
    await api.call("/sys/product/save", { productId, product: submission.value, cover: uploadRef(uploads.cover) }),
    "newProduct",
  );
  if (!result.ok)
    return json({ result: replyWithFailure(submission, result, { fieldPrefix: "product." }) }, { status: 400 });
  return redirectWithFlash(request, "/g/home/AppStore/MyProducts", { kind: "success", key: "store:flash.saved" });
}

export default function ProductEdit() {
  const { product, enterprise } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("store");
  const [form, fields] = useSchemaForm(productFormSchema, actionData?.result, {
    id: "product",
    defaultValue: product
      ? {
          name: product.name,
          productType: String(product.productType),
          brief: product.brief,
          description: product.description,
          suggestedPrice: (product.suggestedPriceCents / 100).toFixed(2),
          payMode: String(product.payMode),
          company: product.company ? "on" : undefined,
        }
      : undefined,
  });
  const coverErrors =
    (actionData?.result as { error?: Record<string, string[] | null> } | undefined)?.error?.cover ?? undefined;
  return (
    <div className="card max-w-2xl">
      <PageHeader title={t(product ? "form.editTitle" : "form.newTitle")} />
      <FormProvider context={form.context}>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-6 space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <TextField field={fields.name} label={t("form.name")} />
          <SelectField
            field={fields.productType}
            label={t("form.type")}
            placeholder={t("form.choose")}
            options={PRODUCT_TYPES.map((v) => ({ value: v, label: t(`productTypes.${v}`) }))}
          />
          <TextAreaField field={fields.brief} label={t("form.brief")} hint={t("form.briefHint")} rows={2} />
          <TextAreaField field={fields.description} label={t("form.description")} rows={6} />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField field={fields.suggestedPrice} label={t("form.price")} />
            <SelectField
              field={fields.payMode}
              label={t("form.payMode")}
              placeholder={t("form.choose")}
              options={PAY_MODES.map((v) => ({ value: v, label: t(`payModes.${v}`) }))}
            />
          </div>
          <CheckboxField field={fields.company}>{t("form.company")}</CheckboxField>
          {!enterprise ? <p className="-mt-2 text-xs text-slate-500">{t("form.companyIndividual")}</p> : null}
          {product?.hasCover ? (
            <div className="flex items-center gap-3 text-sm text-slate-600">
              <Cover kind="product" id={product.productId} name={product.name} hasCover size="h-16 w-16" />{" "}
              {t("form.currentCover")}
            </div>
          ) : null}
          <FileField
            name="cover"
            label={t("form.cover")}
            hint={t("form.coverHint")}
            accept={COVER_TYPES.map((x) => `.${x}`).join(",")}
            errors={coverErrors}
          />
          <SubmitButton intent="save" className="btn-primary">
            {t("form.save")}
          </SubmitButton>
        </Form>
      </FormProvider>
    </div>
  );
}
