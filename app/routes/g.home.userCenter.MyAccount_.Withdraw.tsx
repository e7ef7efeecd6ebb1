import { FormProvider, getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { withdrawFormSchema } from "#contract/payments.ts";
import { toCents } from "#contract/rules.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors } from "#app/components/form-parts.tsx";
import { AccountPageHeading, WalletSummary, WithdrawalStateBadge } from "#app/components/payments/wallet.tsx";
import { RecordTable } from "#app/components/RecordTable.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate, zoneHeader, formatDay, formatUsd } from "#app/lib/format.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { newIdempotencyKey } from "#app/lib/payments.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["payments"],
  breadcrumb: [
    { key: "menu.userCenter" },
    { key: "menu.myAccount", to: "/g/home/userCenter/MyAccount" },
    { key: "titles.withdraw" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("withdraw");

const PAGE_SIZE = 10;
const PATH = "/g/home/userCenter/MyAccount/Withdraw";

/** SPEC §2 My account "withdrawal": the form and the caller's withdrawal records (§4 Refund review). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const data = await apiFor(request, viewer).load("/sys/account/withdrawList", {
    page: { pageSize: PAGE_SIZE, pageIndex: pageParam(new URL(request.url)), condition: {} },
  });
  return json({ ...data, idempotencyKey: newIdempotencyKey(), language: viewer.language });
}

/**
 * SPEC §5 Money: amount > 0 and ≤ withdrawable, checked against the caller's withdrawable amount before the
 * confirmation step (and by the backend again, MSG_30008). Money leaving the account is confirmed first: a
 * dialog with JavaScript, this confirm step without.
 */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const api = apiFor(request, viewer);
  const { totals } = await api.load("/sys/account/withdrawList", {
    page: { pageSize: 1, pageIndex: 1, condition: {} },
  });
  const submission = parseWithZod(formData, { schema: withdrawFormSchema(totals.withdrawableCents) });
  if (submission.status !== "success") return json({ result: submission.reply(), confirm: null }, { status: 400 });
  if (formData.get("confirmed") !== "yes") return json({ result: submission.reply(), confirm: submission.value });
  const result = await api.call("/sys/account/h5cashOutAmount", submission.value);
  if (!result.ok) return json({ result: replyWithFailure(submission, result), confirm: null }, { status: 400 });
  return redirectWithFlash(request, PATH, { kind: "success", key: "payments:withdraw.done" });
}

export default function WithdrawPage() {
  const { page, totals, idempotencyKey, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("payments");
  const schema = withdrawFormSchema(totals.withdrawableCents);
  const [form, fields] = useSchemaForm(schema, actionData?.result, {
    id: "withdraw",
    defaultValue: { idempotencyKey },
  });
  // With JavaScript the dialog opens only for an amount the server would take to its confirm step.
  const canOpen = () => {
    const element = document.getElementById(form.id);
    const ok =
      element instanceof HTMLFormElement && schema.safeParse(Object.fromEntries(new FormData(element))).success;
    if (!ok) form.validate();
    return ok;
  };
  const confirm = actionData?.confirm;
  const typed = fields.amount.value;
  const typedUsd = typed && /^[0-9]+(\.[0-9]{1,2})?$/.test(typed) ? formatUsd(toCents(typed), language) : (typed ?? "");
  return (
    <div className="space-y-6">
      <AccountPageHeading title={t("withdraw.title")} />
      <WalletSummary totals={totals} language={language} />
      {confirm ? (
        <div
          className="card max-w-lg"
          role="alertdialog"
          aria-labelledby="withdraw-confirm-title"
          data-testid="confirm-step"
        >
          <h2 id="withdraw-confirm-title" className="text-lg font-semibold">
            {t("withdraw.confirmTitle")}
          </h2>
          <p className="mt-2 text-slate-600">
            {t("withdraw.confirmQuestion", { amount: formatUsd(toCents(confirm.amount), language) })}
          </p>
          <Form method="post" className="mt-4 flex justify-end gap-2">
            <input type="hidden" name="amount" value={confirm.amount} />
            <input type="hidden" name="idempotencyKey" value={confirm.idempotencyKey} />
            <input type="hidden" name="confirmed" value="yes" />
            <Link to={PATH} className="btn-secondary">
              {t("ops.cancel")}
            </Link>
            <button type="submit" className="btn-primary">
              {t("withdraw.confirm")}
            </button>
          </Form>
        </div>
      ) : (
        <div className="card max-w-lg">
          <p className="text-sm text-slate-600">{t("withdraw.intro")}</p>
          <FormProvider context={form.context}>
            <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
              <FormErrors id={form.errorId} errors={form.errors} />
              <input {...getInputProps(fields.idempotencyKey, { type: "hidden" })} key={fields.idempotencyKey.key} />
              <TextField
                field={fields.amount}
                label={t("withdraw.amount")}
                hint={t("withdraw.amountHint", { max: formatUsd(totals.withdrawableCents, language) })}
                autoComplete="off"
              />
              <p className="text-xs text-slate-500">{t("withdraw.arrival")}</p>
              <ConfirmSubmit
                formId={form.id}
                label={t("withdraw.submit")}
                title={t("withdraw.confirmTitle")}
                question={t("withdraw.confirmQuestion", { amount: typedUsd })}
                confirmLabel={t("withdraw.confirm")}
                className="btn-primary w-full"
                canOpen={canOpen}
              />
            </Form>
          </FormProvider>
        </div>
      )}
      <section>
        <h2 className="mb-2 text-lg font-semibold">{t("withdraw.records")}</h2>
        <RecordTable
          label={t("withdraw.records")}
          page={page}
          rowKey={(w) => w.withdrawalNo}
          rowTestId="withdrawal-row"
          testId="withdrawal-records"
          empty={t("withdraw.empty")}
          columns={[
            { header: t("withdraw.columns.no"), className: "font-mono", cell: (w) => w.withdrawalNo },
            {
              header: zoneHeader(t, t("withdraw.columns.time")),
              cell: (w) => formatDate(w.createdAt, language, true, false),
            },
            { header: t("withdraw.columns.amount"), numeric: true, cell: (w) => formatUsd(w.amountCents, language) },
            { header: t("withdraw.columns.status"), cell: (w) => <WithdrawalStateBadge state={w.state} /> },
            {
              header: t("withdraw.columns.arrival"),
              cellTestId: "arrival",
              cell: (w) => formatDay(w.expectedArrival, language),
            },
            {
              header: t("withdraw.columns.comments"),
              className: "text-slate-600",
              cell: (w) => w.reviewComments ?? "",
            },
          ]}
        />
      </section>
    </div>
  );
}
