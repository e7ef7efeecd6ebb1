import { FormProvider, getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { alertSettingsSchema, type AlertFiring } from "#contract/alerts.ts";
import { GB } from "#contract/ipfs-codes.ts";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { AlertHistory } from "#app/components/alerts/AlertHistory.tsx";
import { AlertWebhook, type AlertWebhookSettings } from "#app/components/alerts/AlertWebhook.tsx";
import type { WebhookDelivery } from "#contract/alert-webhook.ts";
import { formatSize, formatUsd } from "#app/lib/format.ts";

type Language = "en" | "zh-CN";
type Page<Row> = { rows: Row[]; pageIndex: number; pageSize: number; total: number };
export type AlertSettings = {
  monthlyBudgetCents: number | null;
  balanceFloorCents: number | null;
  ipfsWeeklyTrafficBytes: number | null;
  billedThisMonthCents: number;
  balanceCents: number;
};

const amountText = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));
/** GB with at most two decimals, as typed. */
const gbText = (bytes: number | null) => (bytes === null ? "" : String(Math.round((bytes / GB) * 100) / 100));

/**
 * Alerts (issue 35 §1, docs/decisions/087, 090): where the account stands against its budget, balance and IPFS traffic
 * alerts, the settings form (for the roles that handle money; checked with the contract's schema here and again by the backend,
 * the same errors without JavaScript), and the alerts told, each with the page that acts on it.
 */
export function AlertsPage({
  settings,
  history,
  mayChange,
  language,
  lastResult,
  opened,
  webhook,
  webhookTestMode,
  deliveries,
  confirmDelete,
  webhookResult,
}: {
  settings: AlertSettings;
  history: Page<AlertFiring>;
  /** The alert a message's link opened (`?alertId=`), marked in the history when it is on this page. */
  opened: number | null;
  mayChange: boolean;
  language: Language;
  lastResult: SubmissionResult<string[]> | null;
  webhook: AlertWebhookSettings;
  webhookTestMode: boolean;
  deliveries: Page<WebhookDelivery>;
  confirmDelete: boolean;
  webhookResult: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation("alerts");
  const usd = (cents: number) => formatUsd(cents, language);
  const budget = settings.monthlyBudgetCents;
  const floor = settings.balanceFloorCents;
  return (
    <section className="space-y-6" aria-labelledby="alerts-title">
      <PageHeader title={t("title")} titleId="alerts-title" description={t("intro")} />
      <dl className="grid gap-4 sm:grid-cols-3">
        <div className="card p-4">
          <dt className="text-sm text-slate-600">{t("status.billed")}</dt>
          <dd className="mt-1 text-lg font-semibold tabular-nums" data-testid="alerts-billed">
            {budget
              ? t("status.billedOf", {
                  billed: usd(settings.billedThisMonthCents),
                  budget: usd(budget),
                  percent: Math.floor((settings.billedThisMonthCents * 100) / budget),
                })
              : t("status.noBudget", { billed: usd(settings.billedThisMonthCents) })}
          </dd>
        </div>
        <div className="card p-4">
          <dt className="text-sm text-slate-600">{t("status.balance")}</dt>
          <dd className="mt-1 text-lg font-semibold tabular-nums" data-testid="alerts-balance">
            {floor
              ? t("status.balanceFloor", { balance: usd(settings.balanceCents), floor: usd(floor) })
              : t("status.noFloor", { balance: usd(settings.balanceCents) })}
          </dd>
        </div>
        <div className="card p-4">
          <dt className="text-sm text-slate-600">{t("status.ipfsTraffic")}</dt>
          <dd className="mt-1 text-lg font-semibold tabular-nums" data-testid="alerts-ipfs-traffic">
            {settings.ipfsWeeklyTrafficBytes
              ? t("status.ipfsTrafficBudget", { budget: formatSize(settings.ipfsWeeklyTrafficBytes) })
              : t("status.noIpfsTraffic")}
          </dd>
        </div>
      </dl>
      <SettingsForm settings={settings} mayChange={mayChange} lastResult={lastResult} />
      <AlertWebhook
        webhook={webhook}
        testMode={webhookTestMode}
        deliveries={deliveries}
        mayChange={mayChange}
        confirmDelete={confirmDelete}
        lastResult={webhookResult}
        language={language}
      />
      <AlertHistory history={history} opened={opened} language={language} />
    </section>
  );
}

function SettingsForm({
  settings,
  mayChange,
  lastResult,
}: {
  settings: AlertSettings;
  mayChange: boolean;
  lastResult: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation("alerts");
  const [form, fields] = useForm({
    id: "alert-settings",
    lastResult,
    shouldValidate: "onBlur",
    defaultValue: {
      monthlyBudget: amountText(settings.monthlyBudgetCents),
      balanceFloor: amountText(settings.balanceFloorCents),
      ipfsWeeklyTraffic: gbText(settings.ipfsWeeklyTrafficBytes),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: alertSettingsSchema }),
  });
  if (!mayChange)
    return (
      <p className="text-sm text-slate-600" data-testid="alerts-read-only">
        {t("form.readOnly")}
      </p>
    );
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="card max-w-xl space-y-4 p-4" aria-labelledby="alerts-form">
        <h2 id="alerts-form" className="text-lg font-semibold">
          {t("form.title")}
        </h2>
        <FormErrors id={form.errorId} errors={form.errors} />
        <TextField
          field={fields.monthlyBudget}
          label={t("form.monthlyBudget")}
          hint={t("form.monthlyBudgetHint")}
          autoComplete="off"
        />
        <TextField
          field={fields.balanceFloor}
          label={t("form.balanceFloor")}
          hint={t("form.balanceFloorHint")}
          autoComplete="off"
        />
        <TextField
          field={fields.ipfsWeeklyTraffic}
          label={t("form.ipfsWeeklyTraffic")}
          hint={t("form.ipfsWeeklyTrafficHint")}
          autoComplete="off"
        />
        <SubmitButton className="btn-primary">{t("form.save")}</SubmitButton>
      </Form>
    </FormProvider>
  );
}
