import { json, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { INVOICE_STATUSES } from "#contract/invoice-codes.ts";
import { FilterPills } from "#app/components/FilterPills.tsx";
import { RecordTable, type Column } from "#app/components/RecordTable.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatUsd } from "#app/lib/format.ts";
import { invoicesCsvHref } from "#app/lib/list-exports.ts";
import { applicationColumns } from "#app/components/invoices/application.tsx";
import { pageTitle } from "#app/lib/meta.ts";
import { oneOf, pageParam } from "#app/lib/params.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["invoices"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("invoices");

const PAGE_SIZE = 10;

/** SPEC §2 Invoices list: the applications with their status (§4), filter and pages, the invoiceable amount. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const status = oneOf(INVOICE_STATUSES, url.searchParams.get("status"));
  const page = pageParam(url);
  const data = await apiFor(request, viewer).load("/sys/system/invoiceAccountTrade/h5queryInvoiceAccountTradeList", {
    page: {
      pageSize: PAGE_SIZE,
      pageIndex: page,
      condition: status === undefined ? {} : { status: status as 1 | 3 | 5 | 10 },
    },
  });
  return json({ ...data, status: status ?? null, language: viewer.language });
}

type Application = SerializeFrom<typeof loader>["page"]["rows"][number];

export default function InvoicesList() {
  const { page, invoiceableCents, status, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("invoices");
  const filters: (number | null)[] = [null, ...INVOICE_STATUSES];
  const columns: Column<Application>[] = [
    {
      header: t("fields.applicationNo"),
      cell: (r) => (
        <Link className="link" to={`/g/home/userCenter/Invoices/Detail?id=${r.invoiceId}`}>
          {r.applicationNo}
        </Link>
      ),
    },
    ...applicationColumns<Application>(t, language),
  ];
  return (
    <div className="space-y-4">
      <PageHeader
        title={t("list.title")}
        actions={
          <>
            <div className="flex flex-wrap gap-2">
              <Link to="/g/home/userCenter/Invoices/Titles" className="btn-secondary">
                {t("list.titles")}
              </Link>
              <Link to="/g/home/userCenter/Invoices/Addresses" className="btn-secondary">
                {t("list.addresses")}
              </Link>
              <Link to="/g/home/userCenter/Invoices/Add" className="btn-primary">
                {t("list.add")}
              </Link>
            </div>
          </>
        }
      />
      <div className="card flex items-baseline gap-3">
        <span className="text-sm text-slate-500">{t("fields.invoiceable")}</span>
        <span className="text-2xl font-semibold" data-testid="invoiceable-amount">
          {formatUsd(invoiceableCents, language)}
        </span>
      </div>
      <FilterPills
        label={t("list.filter")}
        links={filters.map((s) => ({
          key: s ?? "all",
          to: s === null ? "?" : `?status=${s}`,
          current: status === s,
          label: s === null ? t("list.all") : t(`status.${s}`),
        }))}
      />
      <div className="flex justify-end">
        <a href={invoicesCsvHref(status)} className="btn-secondary" data-testid="invoices-csv" download>
          {t("list.export")}
        </a>
      </div>
      <RecordTable
        label={t("list.title")}
        page={page}
        columns={columns}
        rowKey={(r) => r.invoiceId}
        rowTestId="invoice-row"
        empty={t(status === null ? "list.empty" : "list.emptyFiltered")}
        emptyTestId="empty"
      />
    </div>
  );
}
