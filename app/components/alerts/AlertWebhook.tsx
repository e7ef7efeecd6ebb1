import { FormProvider, getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { WEBHOOK_SIGNATURE_HEADER, webhookSchema, type WebhookDelivery } from "#contract/alert-webhook.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { CopyField } from "#app/components/CopyField.tsx";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { RecordTable, type Column } from "#app/components/RecordTable.tsx";
import { Badge } from "#app/components/Badge.tsx";
import { formatDate, zoneHeader } from "#app/lib/format.ts";

type Language = "en" | "zh-CN";
type Page<Row> = { rows: Row[]; pageIndex: number; pageSize: number; total: number };
export type AlertWebhookSettings = { url: string; secret: string; enabled: boolean } | null;

const PAGE = "/g/home/userCenter/Alerts";
const TONE = { pending: "wait", delivered: "ok", failed: "bad" } as const;

/**
 * The account's alert webhook (issue 35 §1, docs/decisions/092): its address (checked here with the contract's schema
 * and again by the server, which also refuses private and loopback addresses), the signing secret with a rotation,
 * deletion after confirming, a test event, and the deliveries with their status. Works without JavaScript.
 */
/** The signature header as receivers read it (backend/domains/alerts/webhook-send.ts `signature`). */
const SIGNATURE_FORMAT = `${WEBHOOK_SIGNATURE_HEADER}: t=<t>,v1=<hex>`;

export function AlertWebhook({
  webhook,
  testMode,
  deliveries,
  mayChange,
  confirmDelete,
  lastResult,
  language,
}: {
  webhook: AlertWebhookSettings;
  testMode: boolean;
  deliveries: Page<WebhookDelivery>;
  mayChange: boolean;
  confirmDelete: boolean;
  lastResult: SubmissionResult<string[]> | null;
  language: Language;
}) {
  const { t } = useTranslation("alerts");
  const [form, fields] = useForm({
    id: "alert-webhook",
    lastResult,
    shouldValidate: "onBlur",
    // An error clears as the address is corrected, not on the blur of the Save click: cleared then, it moved the
    // button from under the pointer and the click was lost.
    shouldRevalidate: "onInput",
    defaultValue: { url: webhook?.url ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: webhookSchema }),
  });
  const columns: Column<WebhookDelivery>[] = [
    {
      header: zoneHeader(t, t("webhook.columns.at")),
      cell: (d) => formatDate(d.createdAt, language, true, false),
      className: "whitespace-nowrap",
    },
    {
      header: t("webhook.columns.event"),
      cell: (d) => (d.event === "test" ? t("webhook.testEvent") : t(`webhook.events.${d.event}`)),
      cellTestId: "delivery-event",
    },
    { header: t("webhook.columns.attempts"), cell: (d) => d.attempts, numeric: true },
    {
      header: t("webhook.columns.status"),
      cell: (d) => <Badge tone={TONE[d.status]}>{t(`webhook.status.${d.status}`)}</Badge>,
      cellTestId: "delivery-status",
    },
    {
      header: t("webhook.columns.answer"),
      cell: (d) => (d.lastStatus !== null ? `HTTP ${d.lastStatus}` : "") + (d.lastError ? ` ${d.lastError}` : ""),
      cellTestId: "delivery-answer",
    },
  ];
  return (
    <section aria-labelledby="alerts-webhook" className="space-y-4">
      <h2 id="alerts-webhook" className="text-lg font-semibold">
        {t("webhook.title")}
      </h2>
      <p className="max-w-3xl text-sm text-slate-600">{t("webhook.intro")}</p>
      <p className="max-w-3xl text-sm text-slate-600">
        {t("webhook.signatureLabel")} <code className="break-all text-slate-800">{SIGNATURE_FORMAT}</code>
      </p>
      {testMode ? (
        <p className="max-w-3xl rounded bg-amber-100 px-3 py-2 text-sm text-amber-900" data-testid="webhook-test-mode">
          {t("webhook.testMode")}
        </p>
      ) : null}
      {confirmDelete ? (
        <IntentConfirmStep
          id="webhook-delete-confirm"
          title={t("webhook.deleteTitle")}
          question={t("webhook.deleteQuestion")}
          intent="webhookDelete"
          fields={{}}
          action={PAGE}
          cancelTo={PAGE}
          confirmLabel={t("webhook.delete")}
          cancelLabel={t("webhook.cancel")}
          danger
        />
      ) : null}
      {mayChange ? (
        <FormProvider context={form.context}>
          <Form
            method="post"
            {...getFormProps(form)}
            className="card max-w-xl space-y-4 p-4"
            aria-label={t("webhook.title")}
          >
            <input type="hidden" name="intent" value="webhookSave" />
            <FormErrors id={form.errorId} errors={form.errors} />
            <TextField field={fields.url} label={t("webhook.url")} hint={t("webhook.urlHint")} autoComplete="off" />
            <SubmitButton className="btn-primary">{t("webhook.save")}</SubmitButton>
          </Form>
        </FormProvider>
      ) : null}
      {mayChange && webhook ? (
        <div className="card max-w-xl space-y-3 p-4">
          <CopyField value={webhook.secret} label={t("webhook.secret")} testId="webhook-secret" />
          <p className="text-sm text-slate-600">{t("webhook.secretHint")}</p>
          <div className="flex flex-wrap gap-2">
            <Form method="post">
              <button type="submit" name="intent" value="webhookTest" className="btn-secondary">
                {t("webhook.test")}
              </button>
            </Form>
            <Form method="post">
              <button type="submit" name="intent" value="webhookRotate" className="btn-secondary">
                {t("webhook.rotate")}
              </button>
            </Form>
            <Form method="post" id="webhook-delete">
              <input type="hidden" name="intent" value="webhookDelete" />
              <ConfirmSubmit
                formId="webhook-delete"
                label={t("webhook.delete")}
                title={t("webhook.deleteTitle")}
                question={t("webhook.deleteQuestion")}
                confirmLabel={t("webhook.delete")}
                className="btn-danger"
              />
            </Form>
          </div>
        </div>
      ) : null}
      <h3 id="alerts-webhook-deliveries" className="font-semibold">
        {t("webhook.deliveries")}
      </h3>
      <RecordTable
        label={t("webhook.deliveries")}
        page={deliveries}
        columns={columns}
        rowKey={(d) => d.id}
        rowTestId="delivery-row"
        empty={t("webhook.empty")}
        emptyTestId="deliveries-empty"
        pageParam="dpage"
      />
    </section>
  );
}
