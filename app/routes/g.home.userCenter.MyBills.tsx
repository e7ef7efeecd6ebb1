import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DateFilter, ListFilterForm, SelectFilter } from "#app/components/ListFilters.tsx";
import { PayStateBadge } from "#app/components/billing/PayStateBadge.tsx";
import { PayBillsForm, PayFailure } from "#app/components/BlockedAction.tsx";
import { RecordTable, type Column } from "#app/components/RecordTable.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import {
  BILL_TYPE_OPTIONS,
  billDetailHref,
  billSubject,
  billCycleLabel,
  billTypeLabel,
  PAY_STATE_OPTIONS,
} from "#app/lib/bills.ts";
import { billFilterFromQuery } from "#app/lib/bills.server.ts";
import { formatDate, formatUsd, zoneHeader } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { payBillsAndReturn, type PayManyFailure } from "#app/lib/unpaid-guard.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { PayState } from "#contract/billing-codes.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["billing"],
  breadcrumb: [{ key: "menu.userCenter", to: "/g/home/userCenter/MyAccount" }, { key: "menu.myBills" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("myBills");

const MY_BILLS = "/g/home/userCenter/MyBills";

/**
 * SPEC §2 My Bills: the caller's bills, filtered by type, payment status and created date (a GET form), paged
 * (?page, ?pageSize), with the total due and "Pay all" (issue 16): `?confirm=payAll` is its confirmation step
 * (a page state, so it works without JavaScript), which issues the payment's idempotency key.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const filter = billFilterFromQuery(url.searchParams);
  const api = apiFor(request, viewer);
  const [data, due] = await Promise.all([
    api.load("/sys/system/clientInfo/h5billList", { page: { ...pagingOf(url), condition: filter } }),
    api.load("/sys/system/clientInfo/h5billDue", {}),
  ]);
  const confirming = due.count > 0 && url.searchParams.get("confirm") === "payAll";
  const balanceCents = confirming ? (await api.load("/sys/account/summary", {})).balanceCents : null;
  url.searchParams.delete("confirm");
  const here = url.pathname + url.search;
  return json({
    ...data,
    filter,
    due,
    confirming,
    balanceCents,
    here,
    idempotencyKey: crypto.randomUUID(),
    language: viewer.language,
    now: Date.now(),
  });
}

/** The page's one form: Pay all (intent payAll) from its confirmation step; any other intent is a 400. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const form = await request.formData();
  intentOf(form, ["payAll"]);
  return payBillsAndReturn(request, apiFor(request, viewer), form, MY_BILLS);
}

type Bill = SerializeFrom<typeof loader>["page"]["rows"][number];

export default function MyBills() {
  const { page, filter, due, confirming, balanceCents, here, idempotencyKey, language, now } =
    useLoaderData<typeof loader>();
  const failure = useActionData<PayManyFailure>();
  const { t } = useTranslation("billing");
  const exportQuery = new URLSearchParams(Object.entries(filter).map(([k, v]) => [k, String(v)])).toString();
  const overdue = (b: Bill) => b.payState === PayState.UNPAID && Date.parse(b.deadline) <= now;
  // Prepaid bills past their deadline are about to expire; usage bills stay payable (ADR 006).
  const payable = (b: Bill) => b.payState === PayState.UNPAID && (b.payMode === 2 || !overdue(b));
  const columns: Column<Bill>[] = [
    {
      header: t("bills.billNo"),
      className: "whitespace-nowrap font-mono text-xs",
      cell: (b) => (
        <Link to={billDetailHref(b)} className="link">
          {b.billNo}
        </Link>
      ),
    },
    {
      header: t("bills.service"),
      cell: (b) => (
        <>
          <span className="block text-slate-900" data-user-content="">
            {billSubject(t, b)}
          </span>
          <span className="block text-xs text-slate-500">
            {billTypeLabel(t, b.billType)} · {billCycleLabel(t, b)}
          </span>
        </>
      ),
    },
    {
      header: t("bills.amount"),
      numeric: true,
      className: "whitespace-nowrap",
      cell: (b) => formatUsd(b.payCents, language),
    },
    { header: t("bills.status"), cell: (b) => <PayStateBadge {...b} overdue={overdue(b)} /> },
    {
      header: zoneHeader(t, t("bills.created")),
      className: "whitespace-nowrap text-slate-600",
      cell: (b) => formatDate(b.createdAt, language, true, false),
    },
    {
      header: zoneHeader(t, t("bills.deadline")),
      className: "whitespace-nowrap text-slate-600",
      cell: (b) => formatDate(b.deadline, language, true, false),
    },
    {
      header: t("bills.actions"),
      className: "whitespace-nowrap",
      cell: (b) => (
        <>
          <Link to={billDetailHref(b)} className="link">
            {t("bills.details")}
          </Link>
          {payable(b) ? (
            <Link to={billDetailHref(b, "&confirm=pay")} className="link ml-3 font-medium">
              {t("bills.pay")}
            </Link>
          ) : null}
        </>
      ),
    },
  ];
  return (
    <div className="space-y-4">
      <PageHeader title={t("bills.title")} description={t("bills.intro")} />
      {due.count > 0 ? (
        <section aria-labelledby="due-title" className="card space-y-3 border-amber-200" data-testid="bills-due">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <h2 id="due-title" className="font-semibold">
                {t("bills.due.title")}
              </h2>
              <p className="mt-1 text-sm text-slate-700" data-testid="bills-due-total">
                {t("bills.due.total", { count: due.count, amount: formatUsd(due.payableCents, language) })}
              </p>
            </div>
            {!confirming ? (
              <Link to={`${here}${here.includes("?") ? "&" : "?"}confirm=payAll`} className="btn-primary">
                {t("bills.due.payAll")}
              </Link>
            ) : null}
          </div>
          <PayFailure failure={failure} />
          {confirming ? (
            <div
              role="alertdialog"
              aria-labelledby="pay-all-title"
              aria-describedby="pay-all-question"
              className="space-y-3"
            >
              <h3 id="pay-all-title" className="font-semibold">
                {t("bills.due.confirmTitle")}
              </h3>
              <p id="pay-all-question" className="text-slate-700">
                {t("bills.due.confirmText", {
                  count: due.bills.length,
                  amount: formatUsd(
                    due.bills.reduce((s, b) => s + b.payCents, 0),
                    language,
                  ),
                })}
              </p>
              {balanceCents !== null ? (
                <p className="text-sm text-slate-600" data-testid="pay-all-balance">
                  {t("pay.balance", { balance: formatUsd(balanceCents, language) })}
                </p>
              ) : null}
              {due.count > due.bills.length ? (
                <p className="text-sm text-slate-600">{t("bills.due.limited", { count: due.bills.length })}</p>
              ) : null}
              <PayBillsForm
                bills={due.bills}
                idempotencyKey={idempotencyKey}
                returnTo={here}
                intent="payAll"
                label={t("bills.due.confirm")}
                cancel={{ to: here, label: t("pay.cancel") }}
              />
            </div>
          ) : null}
        </section>
      ) : null}
      <ListFilterForm
        label={t("bills.filters")}
        grid="lg:grid-cols-5"
        searchLabel={t("bills.search")}
        resetLabel={t("bills.reset")}
        resetTo="/g/home/userCenter/MyBills"
      >
        <SelectFilter
          id="billType"
          label={t("bills.type")}
          value={filter.billType}
          allLabel={t("bills.allTypes")}
          options={BILL_TYPE_OPTIONS.map((code) => ({ value: code, label: billTypeLabel(t, code) }))}
        />
        <SelectFilter
          id="payState"
          label={t("bills.payState")}
          value={filter.payState}
          allLabel={t("bills.allStates")}
          options={PAY_STATE_OPTIONS.map((s) => ({ value: s, label: t(`payStates.${s}`) }))}
        />
        <DateFilter id="dateFrom" label={t("bills.from")} value={filter.dateFrom} />
        <DateFilter id="dateTo" label={t("bills.to")} value={filter.dateTo} />
      </ListFilterForm>
      <div className="flex justify-end">
        <a
          href={`/g/home/userCenter/MyBills/export.csv${exportQuery ? `?${exportQuery}` : ""}`}
          className="btn-secondary"
          download
        >
          {t("bills.export")}
        </a>
      </div>
      <RecordTable
        label={t("bills.title")}
        page={page}
        sizes
        columns={columns}
        rowKey={(b) => b.billId}
        rowTestId="bill-row"
        testId="bills"
        empty={t("bills.none")}
        emptyTestId="bills-empty"
      />
    </div>
  );
}
