import { json, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DateFilter, ListFilterForm, SelectFilter } from "~/components/ListFilters";
import { PayStateBadge } from "~/components/billing/PayStateBadge";
import { RecordTable, type Column } from "~/components/RecordTable";
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

type Bill = SerializeFrom<typeof loader>["page"]["rows"][number];

export default function MyBills() {
  const { page, filter, language, now } = useLoaderData<typeof loader>();
  const { t } = useTranslation("billing");
  const exportQuery = new URLSearchParams(
    Object.entries(filter).map(([k, v]) => [k, String(v)]),
  ).toString();
  const overdue = (b: Bill) => b.payState === 1 && Date.parse(b.deadline) <= now;
  // Prepaid bills past their deadline are about to expire; usage bills stay payable (ADR 006).
  const payable = (b: Bill) => b.payState === 1 && (b.payMode === 2 || !overdue(b));
  const columns: Column<Bill>[] = [
    { header: t("bills.billNo"), className: "whitespace-nowrap font-mono text-xs", cell: (b) => <Link to={billDetailHref(b)} className="link">{b.billNo}</Link> },
    {
      header: t("bills.service"),
      cell: (b) => (
        <>
          <span className="block text-slate-900">{billSubject(t, b)}</span>
          <span className="block text-xs text-slate-500">{billTypeLabel(t, b.billType)} · {t(`cycles.${b.cycle}`, { defaultValue: "" })}</span>
        </>
      ),
    },
    { header: t("bills.amount"), numeric: true, className: "whitespace-nowrap", cell: (b) => formatUsd(b.payCents, language) },
    { header: t("bills.status"), cell: (b) => <PayStateBadge payState={b.payState} overdue={overdue(b)} /> },
    { header: t("bills.created"), className: "whitespace-nowrap text-slate-600", cell: (b) => formatDate(b.createdAt, language, true) },
    { header: t("bills.deadline"), className: "whitespace-nowrap text-slate-600", cell: (b) => formatDate(b.deadline, language, true) },
    {
      header: t("bills.actions"),
      className: "whitespace-nowrap",
      cell: (b) => (
        <>
          <Link to={billDetailHref(b)} className="link">{t("bills.details")}</Link>
          {payable(b) ? <Link to={billDetailHref(b, "&confirm=pay")} className="link ml-3 font-medium">{t("bills.pay")}</Link> : null}
        </>
      ),
    },
  ];
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">{t("bills.title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("bills.intro")}</p>
      </div>
      <ListFilterForm label={t("bills.filters")} grid="lg:grid-cols-5" searchLabel={t("bills.search")} resetLabel={t("bills.reset")} resetTo="/g/home/userCenter/MyBills">
        <SelectFilter id="billType" label={t("bills.type")} value={filter.billType} allLabel={t("bills.allTypes")}
          options={BILL_TYPE_OPTIONS.map((code) => ({ value: code, label: billTypeLabel(t, code) }))} />
        <SelectFilter id="payState" label={t("bills.payState")} value={filter.payState} allLabel={t("bills.allStates")}
          options={PAY_STATE_OPTIONS.map((s) => ({ value: s, label: t(`payStates.${s}`) }))} />
        <DateFilter id="dateFrom" label={t("bills.from")} value={filter.dateFrom} />
        <DateFilter id="dateTo" label={t("bills.to")} value={filter.dateTo} />
      </ListFilterForm>
      <div className="flex justify-end">
        <a href={`/g/home/userCenter/MyBills/export.csv${exportQuery ? `?${exportQuery}` : ""}`} className="btn-secondary" download>
          {t("bills.export")}
        </a>
      </div>
      <RecordTable page={page} columns={columns} rowKey={(b) => b.billId} rowTestId="bill-row" testId="bills"
        empty={t("bills.none")} emptyTestId="bills-empty" />
    </div>
  );
}
