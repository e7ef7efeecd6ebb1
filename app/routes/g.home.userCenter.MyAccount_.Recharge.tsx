import { FormProvider, getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { rechargeSchema } from "#contract/payments.ts";
import { TextField } from "#app/components/forms.tsx";
import { ErrorList, FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import {
  AccountPageHeading,
  PaymentStatusBadge,
  RemittanceInstructions,
  WalletSummary,
} from "#app/components/payments/wallet.tsx";
import { RecordTable } from "#app/components/RecordTable.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate, zoneHeader, formatUsd } from "#app/lib/format.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { newIdempotencyKey } from "#app/lib/payments.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";
import { requirePermission } from "#app/lib/team.server.ts";

export const handle = {
  i18n: ["payments"],
  breadcrumb: [
    { key: "menu.userCenter" },
    { key: "menu.myAccount", to: "/g/home/userCenter/MyAccount" },
    { key: "titles.recharge" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("recharge");

const PAGE_SIZE = 10;

/** SPEC §2 My account "balance recharge": the form and the caller's recharge records (§4 statuses). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  await requirePermission(request, viewer, "pay");
  const data = await apiFor(request, viewer).load("/sys/account/rechargeList", {
    page: { pageSize: PAGE_SIZE, pageIndex: pageParam(new URL(request.url)), condition: {} },
  });
  return json({ ...data, idempotencyKey: newIdempotencyKey(), language: viewer.language });
}

/**
 * SPEC §5 Money and §9 payment types, checked here and again by the backend, which also refuses a type this
 * server does not offer (docs/decisions/072): the form comes back with what was typed and the reason.
 */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: rechargeSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/account/recharge", submission.value);
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: 400 });
  // The provider's checkout is another site: the browser loads it as a document.
  if (result.data.redirectUrl) return redirectDocument(result.data.redirectUrl);
  return redirect(
    `/g/home/userCenter/MyAccount/Recharge/Return?paymentNo=${encodeURIComponent(result.data.payment.paymentNo)}`,
  );
}

export default function RechargePage() {
  const { page, totals, offered, idempotencyKey, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("payments");
  const [form, fields] = useSchemaForm(rechargeSchema, actionData?.result, {
    id: "recharge",
    defaultValue: { payType: offered[0], idempotencyKey },
  });
  return (
    <div className="space-y-6">
      <AccountPageHeading title={t("recharge.title")} />
      <WalletSummary totals={totals} language={language} />
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="card">
          <p className="text-sm text-slate-600">{t("recharge.intro")}</p>
          <FormProvider context={form.context}>
            <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
              <FormErrors id={form.errorId} errors={form.errors} />
              <input {...getInputProps(fields.idempotencyKey, { type: "hidden" })} key={fields.idempotencyKey.key} />
              <fieldset>
                <legend className="label">{t("recharge.payType")}</legend>
                {/* Only the methods this server offers (its provider's, and the bank transfers), each saying what happens. */}
                <div className="space-y-2" data-testid="pay-methods">
                  {offered.map((type) => (
                    <label key={type} className="flex items-start gap-2 text-sm">
                      <input
                        type="radio"
                        name={fields.payType.name}
                        value={type}
                        defaultChecked={(fields.payType.initialValue ?? offered[0]) === type}
                        key={`${fields.payType.key}-${type}`}
                        className="mt-0.5 h-4 w-4 text-brand-600"
                      />
                      <span>
                        {t(`payTypes.${type}`)}
                        <span className="block text-xs text-slate-500">{t(`recharge.methodNotes.${type}`)}</span>
                      </span>
                    </label>
                  ))}
                </div>
                <ErrorList id={fields.payType.errorId} errors={fields.payType.errors} />
              </fieldset>
              <TextField
                field={fields.amount}
                label={t("recharge.amount")}
                hint={t("recharge.amountHint")}
                autoComplete="off"
              />
              <TextField
                field={fields.remittanceRef}
                label={t("recharge.remittanceRef")}
                hint={t("recharge.remittanceRefHint")}
                autoComplete="off"
              />
              <p className="text-xs text-slate-500">{t("recharge.providerNote")}</p>
              <SubmitButton>{t("recharge.submit")}</SubmitButton>
            </Form>
          </FormProvider>
        </div>
        <RemittanceInstructions />
      </div>
      <section>
        <h2 className="mb-2 text-lg font-semibold">{t("recharge.records")}</h2>
        <RecordTable
          label={t("recharge.records")}
          page={page}
          rowKey={(p) => p.paymentNo}
          rowTestId="recharge-row"
          testId="recharge-records"
          empty={t("recharge.empty")}
          columns={[
            {
              header: t("recharge.columns.no"),
              className: "font-mono",
              cell: (p) => (
                <Link className="link" to={`/g/home/userCenter/MyAccount/Recharge/Return?paymentNo=${p.paymentNo}`}>
                  {p.paymentNo}
                </Link>
              ),
            },
            {
              header: zoneHeader(t, t("recharge.columns.time")),
              cell: (p) => formatDate(p.createdAt, language, true, false),
            },
            { header: t("recharge.columns.method"), cell: (p) => t(`payTypes.${p.payType}`) },
            { header: t("recharge.columns.amount"), numeric: true, cell: (p) => formatUsd(p.amountCents, language) },
            {
              header: t("recharge.columns.status"),
              cell: (p) => <PaymentStatusBadge status={p.status} payType={p.payType} inReview={p.inReview} />,
            },
            {
              header: t("recharge.columns.note"),
              className: "text-slate-600",
              cell: (p) => (
                <>
                  {p.failureReason ? t(`reasons.${p.failureReason}`) : null}
                  {p.reviewComments ? ` ${p.reviewComments}` : null}
                  {p.remittanceRef ? <span className="block text-xs">{p.remittanceRef}</span> : null}
                </>
              ),
            },
          ]}
        />
      </section>
    </div>
  );
}
