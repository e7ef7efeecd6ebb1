import { FormProvider, getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { withdrawSchema } from "@contract/payments";
import { toCents } from "@contract/rules";
import { ConfirmSubmit } from "~/components/ConfirmSubmit";
import { FormErrors, TextField } from "~/components/forms";
import { Pagination } from "~/components/Pagination";
import { WalletSummary, WithdrawalStateBadge } from "~/components/PaymentBits";
import { apiFor, requireUser } from "~/lib/api.server";
import { formatDate, formatUsd } from "~/lib/format";
import { replyWithFailure } from "~/lib/forms.server";
import { pageTitle } from "~/lib/meta";
import { pageParam } from "~/lib/params";
import { newIdempotencyKey } from "~/lib/payments.server";
import { redirectWithFlash } from "~/lib/session.server";

export const handle = {
  i18n: ["payments"],
  breadcrumb: [{ key: "menu.userCenter" }, { key: "menu.myAccount", to: "/g/home/userCenter/MyAccount" }, { key: "titles.withdraw" }],
};
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
 * SPEC §5 Money: amount > 0 and ≤ withdrawable (the backend checks it, MSG_30008). Money leaving the
 * account is confirmed first: a dialog with JavaScript, this confirm step without.
 */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: withdrawSchema });
  if (submission.status !== "success") return json({ result: submission.reply(), confirm: null }, { status: 400 });
  if (formData.get("confirmed") !== "yes") return json({ result: submission.reply(), confirm: submission.value });
  const result = await apiFor(request, viewer).call("/sys/account/h5cashOutAmount", submission.value);
  if (!result.ok) return json({ result: replyWithFailure(submission, result), confirm: null }, { status: 400 });
  return redirectWithFlash(request, PATH, { kind: "success", key: "payments:withdraw.done" });
}

export default function WithdrawPage() {
  const { page, totals, idempotencyKey, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("payments");
  const [form, fields] = useForm({
    id: "withdraw",
    lastResult: actionData?.result,
    defaultValue: { idempotencyKey },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: withdrawSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const confirm = actionData?.confirm;
  const typed = fields.amount.value;
  const typedUsd = typed && /^[0-9]+(\.[0-9]{1,2})?$/.test(typed) ? formatUsd(toCents(typed), language) : typed ?? "";
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold">{t("withdraw.title")}</h1>
        <Link to="/g/home/userCenter/MyAccount" className="link text-sm">{t("account.backToAccount")}</Link>
      </div>
      <WalletSummary totals={totals} language={language} />
      {confirm ? (
        <div className="card max-w-lg" role="alertdialog" aria-labelledby="withdraw-confirm-title" data-testid="confirm-step">
          <h2 id="withdraw-confirm-title" className="text-lg font-semibold">{t("withdraw.confirmTitle")}</h2>
          <p className="mt-2 text-slate-600">{t("withdraw.confirmQuestion", { amount: formatUsd(toCents(confirm.amount), language) })}</p>
          <Form method="post" className="mt-4 flex justify-end gap-2">
            <input type="hidden" name="amount" value={confirm.amount} />
            <input type="hidden" name="idempotencyKey" value={confirm.idempotencyKey} />
            <input type="hidden" name="confirmed" value="yes" />
            <Link to={PATH} className="btn-secondary">{t("ops.cancel")}</Link>
            <button type="submit" className="btn-primary">{t("withdraw.confirm")}</button>
          </Form>
        </div>
      ) : (
        <div className="card max-w-lg">
          <p className="text-sm text-slate-600">{t("withdraw.intro")}</p>
          <FormProvider context={form.context}>
            <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
              <FormErrors id={form.errorId} errors={form.errors} />
              <input {...getInputProps(fields.idempotencyKey, { type: "hidden" })} key={fields.idempotencyKey.key} />
              <TextField field={fields.amount} label={t("withdraw.amount")} hint={t("withdraw.amountHint", { max: formatUsd(totals.withdrawableCents, language) })} autoComplete="off" />
              <p className="text-xs text-slate-500">{t("withdraw.arrival")}</p>
              <ConfirmSubmit formId={form.id} label={t("withdraw.submit")} title={t("withdraw.confirmTitle")}
                question={t("withdraw.confirmQuestion", { amount: typedUsd })} confirmLabel={t("withdraw.confirm")} className="btn-primary w-full" />
            </Form>
          </FormProvider>
        </div>
      )}
      <section>
        <h2 className="mb-2 text-lg font-semibold">{t("withdraw.records")}</h2>
        {page.rows.length === 0 ? (
          <p className="card text-center text-slate-500">{t("withdraw.empty")}</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="min-w-full divide-y divide-slate-100 text-sm" data-testid="withdrawal-records">
              <thead className="bg-slate-50 text-left text-slate-600">
                <tr>
                  <th className="px-3 py-2">{t("withdraw.columns.no")}</th>
                  <th className="px-3 py-2">{t("withdraw.columns.time")}</th>
                  <th className="px-3 py-2 text-right">{t("withdraw.columns.amount")}</th>
                  <th className="px-3 py-2">{t("withdraw.columns.status")}</th>
                  <th className="px-3 py-2">{t("withdraw.columns.arrival")}</th>
                  <th className="px-3 py-2">{t("withdraw.columns.comments")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {page.rows.map((w) => (
                  <tr key={w.withdrawalNo} data-testid="withdrawal-row">
                    <td className="px-3 py-2 font-mono">{w.withdrawalNo}</td>
                    <td className="px-3 py-2">{formatDate(w.createdAt, language, true)}</td>
                    <td className="px-3 py-2 text-right">{formatUsd(w.amountCents, language)}</td>
                    <td className="px-3 py-2"><WithdrawalStateBadge state={w.state} /></td>
                    <td className="px-3 py-2" data-testid="arrival">{w.expectedArrival ? formatDate(`${w.expectedArrival}T12:00:00+08:00`, language) : ""}</td>
                    <td className="px-3 py-2 text-slate-600">{w.reviewComments ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
      </section>
    </div>
  );
}
