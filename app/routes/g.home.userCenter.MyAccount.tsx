import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LEDGER_ENTRY_KINDS } from "@contract/billing-codes";
import { Pagination } from "~/components/Pagination";
import { UsageChart } from "~/components/UsageChart";
import { apiFor, requireUser } from "~/lib/api.server";
import { dayFromQuery, kindFromQuery, pageFromQuery } from "~/lib/bills.server";
import { formatDate, formatUsd } from "~/lib/format";
import { pageTitle } from "~/lib/meta";

export const handle = {
  i18n: ["billing"],
  breadcrumb: [{ key: "menu.userCenter", to: "/g/home/userCenter/MyAccount" }, { key: "menu.myAccount" }],
};
export const meta = pageTitle("myAccount");

const PAGE_SIZE = 10;
const ACCOUNT = "/g/home/userCenter/MyAccount";

/**
 * SPEC §2 MyAccount (the userCenter default) and §3 Account: balance, withdrawable and invoiceable
 * amounts, the card, quick actions, recent recharges and withdrawals, the 30-day data usage by city
 * node, and the transaction inquiry (a GET form over the ledger). This route has no Outlet: Recharge,
 * Withdraw and Update are MyAccount_.* routes of their own.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const filter = { kind: kindFromQuery(params), dateFrom: dayFromQuery(params, "dateFrom"), dateTo: dayFromQuery(params, "dateTo") };
  const api = apiFor(request, viewer);
  const [summary, usage, transactions] = await Promise.all([
    api.load("/sys/account/summary", {}),
    api.load("/sys/account/usage30", {}),
    api.load("/sys/account/transactions", { page: { pageSize: PAGE_SIZE, pageIndex: pageFromQuery(params), condition: filter } }),
  ]);
  return json({ summary, usage, transactions: transactions.page, filter, language: viewer.language });
}

function Figure({ label, hint, cents, testId, language }: { label: string; hint: string; cents: number; testId: string; language: "en" | "zh-CN" }) {
  return (
    <div className="card !p-5">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>{formatUsd(cents, language)}</dd>
      <dd className="mt-1 text-xs text-slate-500">{hint}</dd>
    </div>
  );
}

function Signed({ cents, language }: { cents: number; language: "en" | "zh-CN" }) {
  if (cents === 0) return <span className="text-slate-400">—</span>;
  return <span className={cents > 0 ? "text-green-700" : "text-slate-900"}>{cents > 0 ? "+" : "−"}{formatUsd(Math.abs(cents), language)}</span>;
}

export default function MyAccount() {
  const { summary, usage, transactions, filter, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("billing");
  const th = "px-3 py-2";
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">{t("account.title")}</h1>

      <section aria-label={t("account.figures")}>
        <dl className="grid gap-4 sm:grid-cols-3">
          <Figure label={t("account.balance")} hint={t("account.balanceHint")} cents={summary.balanceCents} testId="balance" language={language} />
          <Figure label={t("account.withdrawable")} hint={t("account.withdrawableHint")} cents={summary.withdrawableCents} testId="withdrawable" language={language} />
          <Figure label={t("account.invoiceable")} hint={t("account.invoiceableHint")} cents={summary.invoiceableCents} testId="invoiceable" language={language} />
        </dl>
        {summary.unpaidBills > 0 ? (
          <p role="status" className="mt-3 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            <span data-testid="unpaid-bills">{t("account.unpaid", { count: summary.unpaidBills })}</span>{" "}
            <Link to="/g/home/userCenter/MyBills?payState=1" className="link font-medium">{t("account.unpaidLink")}</Link>
          </p>
        ) : null}
      </section>

      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="card-title" className="card">
          <h2 id="card-title" className="font-semibold">{t("account.card.title")}</h2>
          {summary.card ? (
            <p className="mt-3 text-lg" data-testid="card">
              <span className="font-medium">{summary.card.brand}</span> <span className="tracking-widest text-slate-500">••••</span> {summary.card.last4}
              {summary.card.expMonth && summary.card.expYear ? (
                <span className="ml-3 text-sm text-slate-500">{t("account.card.expires", { month: String(summary.card.expMonth).padStart(2, "0"), year: String(summary.card.expYear).slice(-2) })}</span>
              ) : null}
            </p>
          ) : (
            <p className="mt-3 text-slate-500" data-testid="card">{t("account.card.none")}</p>
          )}
          <Link to={`${ACCOUNT}/Update`} className="link mt-3 inline-block text-sm">{summary.card ? t("account.card.update") : t("account.card.add")}</Link>
        </section>
        <section aria-labelledby="actions-title" className="card">
          <h2 id="actions-title" className="font-semibold">{t("account.actions.title")}</h2>
          <div className="mt-3 flex flex-wrap gap-2">
            <Link to={`${ACCOUNT}/Recharge`} className="btn-primary">{t("account.actions.recharge")}</Link>
            <Link to={`${ACCOUNT}/Withdraw`} className="btn-secondary">{t("account.actions.withdraw")}</Link>
            <Link to="/g/home/userCenter/Invoices" className="btn-secondary">{t("account.actions.invoice")}</Link>
          </div>
        </section>
      </div>

      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="recharges-title" className="card overflow-x-auto">
          <div className="flex items-center justify-between gap-2">
            <h2 id="recharges-title" className="font-semibold">{t("account.recharges.title")}</h2>
            <Link to={`${ACCOUNT}/Recharge`} className="link text-sm">{t("account.recharges.all")}</Link>
          </div>
          {summary.recharges.length === 0 ? (
            <p className="mt-3 text-sm text-slate-500">{t("account.recharges.none")}</p>
          ) : (
            <table className="mt-3 min-w-full text-sm" data-testid="recharges">
              <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
                <tr><th className="py-2 pr-3">{t("account.recharges.time")}</th><th className="py-2 pr-3 text-right">{t("account.recharges.amount")}</th><th className="py-2 pr-3">{t("account.recharges.method")}</th><th className="py-2">{t("account.recharges.status")}</th></tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {summary.recharges.map((r) => (
                  <tr key={r.paymentNo} title={r.paymentNo}>
                    <td className="whitespace-nowrap py-2 pr-3 text-slate-600">{formatDate(r.createdAt, language, true)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{formatUsd(r.amountCents, language)}</td>
                    <td className="py-2 pr-3">{t(`payTypes.${r.payType}`, { defaultValue: r.payType })}</td>
                    <td className="py-2">{t(`payStates.${r.status}`, { defaultValue: String(r.status) })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section aria-labelledby="withdrawals-title" className="card overflow-x-auto">
          <div className="flex items-center justify-between gap-2">
            <h2 id="withdrawals-title" className="font-semibold">{t("account.withdrawals.title")}</h2>
            <Link to={`${ACCOUNT}/Withdraw`} className="link text-sm">{t("account.withdrawals.all")}</Link>
          </div>
          {summary.withdrawals.length === 0 ? (
            <p className="mt-3 text-sm text-slate-500">{t("account.withdrawals.none")}</p>
          ) : (
            <table className="mt-3 min-w-full text-sm" data-testid="withdrawals">
              <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
                <tr><th className="py-2 pr-3">{t("account.withdrawals.time")}</th><th className="py-2 pr-3 text-right">{t("account.withdrawals.amount")}</th><th className="py-2 pr-3">{t("account.withdrawals.status")}</th><th className="py-2">{t("account.withdrawals.expectedArrival")}</th></tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {summary.withdrawals.map((w) => (
                  <tr key={w.withdrawalNo} title={w.withdrawalNo}>
                    <td className="whitespace-nowrap py-2 pr-3 text-slate-600">{formatDate(w.createdAt, language, true)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{formatUsd(w.amountCents, language)}</td>
                    <td className="py-2 pr-3">{t(`withdrawalStates.${w.state}`, { defaultValue: String(w.state) })}</td>
                    <td className="py-2">{w.expectedArrival ? formatDate(`${w.expectedArrival}T00:00:00+08:00`, language) : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>

      <section aria-labelledby="usage-title" className="card">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="usage-title" className="font-semibold">{t("usage.title")}</h2>
          <p className="text-sm text-slate-600" data-testid="usage-total">{t("usage.total", { gb: usage.totalGb.toFixed(2) })}</p>
        </div>
        <p className="mt-1 text-sm text-slate-500">{t("usage.intro")}</p>
        <div className="mt-4"><UsageChart usage={usage} language={language} /></div>
      </section>

      <section aria-labelledby="transactions-title" className="space-y-3" id="transactions">
        <h2 id="transactions-title" className="font-semibold">{t("transactions.title")}</h2>
        <Form method="get" action="#transactions" aria-label={t("transactions.filters")} className="card grid gap-3 !p-4 sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <label htmlFor="kind" className="label">{t("transactions.kind")}</label>
            <select id="kind" name="kind" defaultValue={filter.kind ?? ""} className="input">
              <option value="">{t("transactions.allKinds")}</option>
              {LEDGER_ENTRY_KINDS.map((k) => <option key={k} value={k}>{t(`kinds.${k}`)}</option>)}
            </select>
          </div>
          <div>
            <label htmlFor="tx-from" className="label">{t("transactions.from")}</label>
            <input id="tx-from" name="dateFrom" type="date" defaultValue={filter.dateFrom ?? ""} className="input" />
          </div>
          <div>
            <label htmlFor="tx-to" className="label">{t("transactions.to")}</label>
            <input id="tx-to" name="dateTo" type="date" defaultValue={filter.dateTo ?? ""} className="input" />
          </div>
          <div className="flex items-end gap-2">
            <button type="submit" className="btn-primary">{t("transactions.search")}</button>
            <Link to={`${ACCOUNT}#transactions`} className="btn-secondary">{t("transactions.reset")}</Link>
          </div>
        </Form>
        {transactions.rows.length === 0 ? (
          <p className="card text-center text-slate-500" data-testid="transactions-empty">{t("transactions.none")}</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="transactions">
              <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className={th}>{t("transactions.time")}</th>
                  <th scope="col" className={th}>{t("transactions.kind")}</th>
                  <th scope="col" className={th}>{t("transactions.reference")}</th>
                  <th scope="col" className={`${th} text-right`}>{t("transactions.balanceChange")}</th>
                  <th scope="col" className={`${th} text-right`}>{t("transactions.invoiceableChange")}</th>
                  <th scope="col" className={`${th} text-right`}>{t("transactions.balanceAfter")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {transactions.rows.map((e) => (
                  <tr key={e.entryId} data-testid="transaction">
                    <td className={`${th} whitespace-nowrap text-slate-600`}>{formatDate(e.createdAt, language, true)}</td>
                    <td className={th}>{t(`kinds.${e.kind}`)}</td>
                    <td className={`${th} font-mono text-xs`}>
                      {e.billId !== null && e.reference ? (
                        <Link to={`/g/home/userCenter/BillDetail?billId=${e.billId}`} className="link">{e.reference}</Link>
                      ) : (e.reference ?? "—")}
                    </td>
                    <td className={`${th} text-right tabular-nums`}><Signed cents={e.balanceDelta} language={language} /></td>
                    <td className={`${th} text-right tabular-nums`}><Signed cents={e.invoiceableDelta} language={language} /></td>
                    <td className={`${th} text-right tabular-nums`}>{formatUsd(e.balanceAfter, language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination pageIndex={transactions.pageIndex} pageSize={transactions.pageSize} total={transactions.total} />
      </section>
    </div>
  );
}
