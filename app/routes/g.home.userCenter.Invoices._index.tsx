import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { INVOICE_STATUSES } from "@contract/invoice-codes";
import { Pagination } from "~/components/Pagination";
import { apiFor, requireUser } from "~/lib/api.server";
import { formatDate, formatUsd } from "~/lib/format";
import { pageTitle } from "~/lib/meta";
import { readListQuery, StatusBadge } from "./g.home.userCenter.Invoices/ui";

export const handle = { i18n: ["invoices"] };
export const meta = pageTitle("invoices");

const PAGE_SIZE = 10;

/** SPEC §2 Invoices list: the applications with their status (§4), filter and pages, the invoiceable amount. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const { status, page } = readListQuery(new URL(request.url), INVOICE_STATUSES);
  const data = await apiFor(request, viewer).load("/sys/system/invoiceAccountTrade/h5queryInvoiceAccountTradeList", {
    page: { pageSize: PAGE_SIZE, pageIndex: page, condition: status === undefined ? {} : { status: status as 1 | 3 | 5 | 10 } },
  });
  return json({ ...data, status: status ?? null, language: viewer.language });
}

export default function InvoicesList() {
  const { page, invoiceableCents, status, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("invoices");
  const filters: (number | null)[] = [null, ...INVOICE_STATUSES];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold">{t("list.title")}</h1>
        <div className="flex flex-wrap gap-2">
          <Link to="/g/home/userCenter/Invoices/Titles" className="btn-secondary">{t("list.titles")}</Link>
          <Link to="/g/home/userCenter/Invoices/Addresses" className="btn-secondary">{t("list.addresses")}</Link>
          <Link to="/g/home/userCenter/Invoices/Add" className="btn-primary">{t("list.add")}</Link>
        </div>
      </div>
      <div className="card flex items-baseline gap-3">
        <span className="text-sm text-slate-500">{t("fields.invoiceable")}</span>
        <span className="text-2xl font-semibold" data-testid="invoiceable-amount">{formatUsd(invoiceableCents, language)}</span>
      </div>
      <nav aria-label={t("list.filter")} className="flex flex-wrap gap-2 text-sm">
        {filters.map((s) => (
          <Link key={s ?? "all"} to={s === null ? "?" : `?status=${s}`} aria-current={status === s ? "page" : undefined}
            className={`rounded-full px-3 py-1 ${status === s ? "bg-brand-600 text-white" : "bg-white text-slate-700 ring-1 ring-slate-200"}`}>
            {s === null ? t("list.all") : t(`status.${s}`)}
          </Link>
        ))}
      </nav>
      {page.rows.length === 0 ? (
        <div className="card text-center text-slate-500" data-testid="empty">
          <p>{t(status === null ? "list.empty" : "list.emptyFiltered")}</p>
        </div>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-slate-500">
              <tr>
                <th className="px-4 py-2">{t("fields.applicationNo")}</th>
                <th className="px-4 py-2">{t("fields.title")}</th>
                <th className="px-4 py-2">{t("fields.invoiceType")}</th>
                <th className="px-4 py-2">{t("fields.issuance")}</th>
                <th className="px-4 py-2 text-right">{t("fields.amount")}</th>
                <th className="px-4 py-2">{t("fields.status")}</th>
                <th className="px-4 py-2">{t("fields.createdAt")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {page.rows.map((r) => (
                <tr key={r.invoiceId} data-testid="invoice-row">
                  <td className="px-4 py-2"><Link className="link" to={`/g/home/userCenter/Invoices/Detail?id=${r.invoiceId}`}>{r.applicationNo}</Link></td>
                  <td className="px-4 py-2">{r.title}</td>
                  <td className="px-4 py-2">{t(`invoiceType.${r.invoiceType}`)}</td>
                  <td className="px-4 py-2">{t(`issuance.${r.issuance}`)}</td>
                  <td className="px-4 py-2 text-right">{formatUsd(r.amountCents, language)}</td>
                  <td className="px-4 py-2"><StatusBadge status={r.status} /></td>
                  <td className="px-4 py-2">{formatDate(r.createdAt, language, true)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
