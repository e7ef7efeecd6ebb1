import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Pagination } from "~/components/Pagination";
import { PayStateBadge } from "~/components/PayStateBadge";
import { apiFor, requireUser } from "~/lib/api.server";
import { BILL_TYPE_OPTIONS, billDetailHref, billSubject, billTypeLabel, PAY_STATE_OPTIONS } from "~/lib/bills";
import { billFilterFromQuery, pageFromQuery } from "~/lib/bills.server";
import { formatDate, formatUsd } from "~/lib/format";
import { pageTitle } from "~/lib/meta";

export const handle = {
  i18n: ["billing"],
  breadcrumb: [{ key: "menu.userCenter", to: "/g/home/userCenter/MyAccount" }, { key: "menu.myBills" }],
};
export const meta = pageTitle("myBills");

const PAGE_SIZE = 10;

/** SPEC §2 My Bills: the caller's bills, filtered by type, payment status and created date (a GET form). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const filter = billFilterFromQuery(params);
  const data = await apiFor(request, viewer).load("/sys/system/clientInfo/h5billList", {
    page: { pageSize: PAGE_SIZE, pageIndex: pageFromQuery(params), condition: filter },
  });
  return json({ ...data, filter, language: viewer.language, now: Date.now() });
}

export default function MyBills() {
  const { page, filter, language, now } = useLoaderData<typeof loader>();
  const { t } = useTranslation("billing");
  const exportQuery = new URLSearchParams(
    Object.entries(filter).map(([k, v]) => [k, String(v)]),
  ).toString();
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">{t("bills.title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("bills.intro")}</p>
      </div>
      <Form method="get" aria-label={t("bills.filters")} className="card grid gap-3 !p-4 sm:grid-cols-2 lg:grid-cols-5">
        <div>
          <label htmlFor="billType" className="label">{t("bills.type")}</label>
          <select id="billType" name="billType" defaultValue={filter.billType ?? ""} className="input">
            <option value="">{t("bills.allTypes")}</option>
            {BILL_TYPE_OPTIONS.map((code) => <option key={code} value={code}>{billTypeLabel(t, code)}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="payState" className="label">{t("bills.payState")}</label>
          <select id="payState" name="payState" defaultValue={filter.payState ?? ""} className="input">
            <option value="">{t("bills.allStates")}</option>
            {PAY_STATE_OPTIONS.map((s) => <option key={s} value={s}>{t(`payStates.${s}`)}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="dateFrom" className="label">{t("bills.from")}</label>
          <input id="dateFrom" name="dateFrom" type="date" defaultValue={filter.dateFrom ?? ""} className="input" />
        </div>
        <div>
          <label htmlFor="dateTo" className="label">{t("bills.to")}</label>
          <input id="dateTo" name="dateTo" type="date" defaultValue={filter.dateTo ?? ""} className="input" />
        </div>
        <div className="flex items-end gap-2">
          <button type="submit" className="btn-primary">{t("bills.search")}</button>
          <Link to="/g/home/userCenter/MyBills" className="btn-secondary">{t("bills.reset")}</Link>
        </div>
      </Form>
      <div className="flex justify-end">
        <a href={`/g/home/userCenter/MyBills/export.csv${exportQuery ? `?${exportQuery}` : ""}`} className="btn-secondary" download>
          {t("bills.export")}
        </a>
      </div>
      {page.rows.length === 0 ? (
        <p className="card text-center text-slate-500" data-testid="bills-empty">{t("bills.none")}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="bills">
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-3 py-2">{t("bills.billNo")}</th>
                <th scope="col" className="px-3 py-2">{t("bills.service")}</th>
                <th scope="col" className="px-3 py-2 text-right">{t("bills.amount")}</th>
                <th scope="col" className="px-3 py-2">{t("bills.status")}</th>
                <th scope="col" className="px-3 py-2">{t("bills.created")}</th>
                <th scope="col" className="px-3 py-2">{t("bills.deadline")}</th>
                <th scope="col" className="px-3 py-2">{t("bills.actions")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {page.rows.map((b) => {
                const overdue = b.payState === 1 && Date.parse(b.deadline) <= now;
                // Prepaid bills past their deadline are about to expire; usage bills stay payable (ADR 006).
                const payable = b.payState === 1 && (b.payMode === 2 || !overdue);
                return (
                  <tr key={b.billId} data-testid="bill-row">
                    <td className="whitespace-nowrap px-3 py-2 font-mono text-xs"><Link to={billDetailHref(b)} className="link">{b.billNo}</Link></td>
                    <td className="px-3 py-2">
                      <span className="block text-slate-900">{billSubject(t, b)}</span>
                      <span className="block text-xs text-slate-500">{billTypeLabel(t, b.billType)} · {t(`cycles.${b.cycle}`, { defaultValue: "" })}</span>
                    </td>
                    <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{formatUsd(b.payCents, language)}</td>
                    <td className="px-3 py-2"><PayStateBadge payState={b.payState} overdue={overdue} /></td>
                    <td className="whitespace-nowrap px-3 py-2 text-slate-600">{formatDate(b.createdAt, language, true)}</td>
                    <td className="whitespace-nowrap px-3 py-2 text-slate-600">{formatDate(b.deadline, language, true)}</td>
                    <td className="whitespace-nowrap px-3 py-2">
                      <Link to={billDetailHref(b)} className="link">{t("bills.details")}</Link>
                      {payable ? <Link to={billDetailHref(b, "&confirm=pay")} className="link ml-3 font-medium">{t("bills.pay")}</Link> : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
