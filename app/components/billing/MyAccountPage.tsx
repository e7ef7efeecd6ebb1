import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { DataOf } from "#contract/paths.ts";
import { LEDGER_ENTRY_KINDS } from "#contract/billing-codes.ts";
import { DateFilter, ListFilterForm, SelectFilter } from "#app/components/ListFilters.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { RecordTable } from "#app/components/RecordTable.tsx";
import { Table, type Column } from "#app/components/Table.tsx";
import { IpfsUsageByGateway } from "#app/components/ipfs/UsageByGateway.tsx";
import { formatDate, formatDay, formatUsd, zoneHeader } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { transactionsCsvHref } from "#app/lib/list-exports.ts";
import { UsageChart } from "./UsageChart.tsx";

const ACCOUNT = "/g/home/userCenter/MyAccount";

/** What the MyAccount route loads (app/routes/g.home.userCenter.MyAccount.tsx). */
export type MyAccountData = SerializeFrom<{
  summary: DataOf<"/sys/account/summary">;
  usage: DataOf<"/sys/account/usage30">;
  ipfsUsage: DataOf<"/sys/ipfsBusiness/ipfs/usageByGateway">;
  transactions: DataOf<"/sys/account/transactions">["page"];
  filter: { kind: string | undefined; dateFrom: string | undefined; dateTo: string | undefined };
  language: Language;
}>;

function Figure({
  label,
  hint,
  cents,
  testId,
  language,
}: {
  label: string;
  hint: string;
  cents: number;
  testId: string;
  language: Language;
}) {
  return (
    <div className="card !p-5">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {formatUsd(cents, language)}
      </dd>
      <dd className="mt-1 text-xs text-slate-500">{hint}</dd>
    </div>
  );
}

function Signed({ cents, language }: { cents: number; language: Language }) {
  if (cents === 0) return <span className="text-slate-400">—</span>;
  return (
    <span className={cents > 0 ? "text-green-700" : "text-slate-900"}>
      {cents > 0 ? "+" : "−"}
      {formatUsd(Math.abs(cents), language)}
    </span>
  );
}

/** The latest few recharges or withdrawals, with a link to all of them (the record's number as a tooltip). */
function RecentRecords<Row>({
  id,
  title,
  allTo,
  allLabel,
  none,
  rows,
  rowKey,
  columns,
}: {
  id: string;
  title: string;
  allTo: string;
  allLabel: string;
  none: string;
  rows: Row[];
  rowKey: (row: Row) => string;
  columns: Column<Row>[];
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="card overflow-x-auto">
      <div className="flex items-center justify-between gap-2">
        <h2 id={`${id}-title`} className="font-semibold">
          {title}
        </h2>
        <Link to={allTo} className="link text-sm">
          {allLabel}
        </Link>
      </div>
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">{none}</p>
      ) : (
        <Table
          variant="compact"
          label={title}
          rows={rows}
          columns={columns}
          rowKey={rowKey}
          rowProps={(row) => ({ title: rowKey(row) })}
          testId={id}
        />
      )}
    </section>
  );
}

type Entry = MyAccountData["transactions"]["rows"][number];

/** Auto-pay of usage bills from the balance (docs/decisions/059): what it does, its state, one button to change it. */
function AutoPay({ on }: { on: boolean }) {
  const { t } = useTranslation("billing");
  return (
    <section aria-labelledby="auto-pay-title" className="card" id="auto-pay">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="auto-pay-title" className="font-semibold">
          {t("account.autoPay.title")}
        </h2>
        <span data-testid="auto-pay-state" className={on ? "font-medium text-green-700" : "font-medium text-slate-600"}>
          {on ? t("account.autoPay.on") : t("account.autoPay.off")}
        </span>
      </div>
      <p className="mt-2 text-sm text-slate-600">{t("account.autoPay.intro")}</p>
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="autoPay" />
        <input type="hidden" name="enabled" value={on ? "off" : "on"} />
        <button type="submit" className={on ? "btn-secondary" : "btn-primary"}>
          {on ? t("account.autoPay.turnOff") : t("account.autoPay.turnOn")}
        </button>
      </Form>
    </section>
  );
}

/** The body of SPEC §2 MyAccount: figures, card, quick actions, recent records, usage and the transaction inquiry. */
export function MyAccountPage({ summary, usage, ipfsUsage, transactions, filter, language }: MyAccountData) {
  const { t } = useTranslation("billing");
  const columns: Column<Entry>[] = [
    {
      header: zoneHeader(t, t("transactions.time")),
      className: "whitespace-nowrap text-slate-600",
      cell: (e) => formatDate(e.createdAt, language, true, false),
    },
    { header: t("transactions.kind"), cell: (e) => t(`kinds.${e.kind}`) },
    {
      header: t("transactions.reference"),
      className: "font-mono text-xs",
      cell: (e) =>
        e.billId !== null && e.reference ? (
          <Link to={`/g/home/userCenter/BillDetail?billId=${e.billId}`} className="link">
            {e.reference}
          </Link>
        ) : (
          (e.reference ?? "—")
        ),
    },
    {
      header: t("transactions.balanceChange"),
      numeric: true,
      cell: (e) => <Signed cents={e.balanceDelta} language={language} />,
    },
    {
      header: t("transactions.invoiceableChange"),
      numeric: true,
      cell: (e) => <Signed cents={e.invoiceableDelta} language={language} />,
    },
    { header: t("transactions.balanceAfter"), numeric: true, cell: (e) => formatUsd(e.balanceAfter, language) },
  ];
  return (
    <div className="space-y-6">
      <PageHeader title={t("account.title")} />

      <section aria-label={t("account.figures")}>
        <dl className="grid gap-4 sm:grid-cols-3">
          <Figure
            label={t("account.balance")}
            hint={t("account.balanceHint")}
            cents={summary.balanceCents}
            testId="balance"
            language={language}
          />
          <Figure
            label={t("account.withdrawable")}
            hint={t("account.withdrawableHint")}
            cents={summary.withdrawableCents}
            testId="withdrawable"
            language={language}
          />
          <Figure
            label={t("account.invoiceable")}
            hint={t("account.invoiceableHint")}
            cents={summary.invoiceableCents}
            testId="invoiceable"
            language={language}
          />
        </dl>
        {summary.unpaidBills > 0 ? (
          <p role="status" className="mt-3 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            <span data-testid="unpaid-bills">{t("account.unpaid", { count: summary.unpaidBills })}</span>{" "}
            <Link to="/g/home/userCenter/MyBills?payState=1" className="link font-medium">
              {t("account.unpaidLink")}
            </Link>
          </p>
        ) : null}
      </section>

      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="card-title" className="card">
          <h2 id="card-title" className="font-semibold">
            {t("account.card.title")}
          </h2>
          {summary.card ? (
            <p className="mt-3 text-lg" data-testid="card">
              <span className="font-medium">{summary.card.brand}</span>{" "}
              <span className="tracking-widest text-slate-500">••••</span> {summary.card.last4}
              {summary.card.expMonth && summary.card.expYear ? (
                <span className="ml-3 text-sm text-slate-500">
                  {t("account.card.expires", {
                    month: String(summary.card.expMonth).padStart(2, "0"),
                    year: String(summary.card.expYear).slice(-2),
                  })}
                </span>
              ) : null}
            </p>
          ) : (
            <p className="mt-3 text-slate-500" data-testid="card">
              {t("account.card.none")}
            </p>
          )}
          <Link to={`${ACCOUNT}/Update`} className="link mt-3 inline-block text-sm">
            {summary.card ? t("account.card.update") : t("account.card.add")}
          </Link>
        </section>
        <section aria-labelledby="actions-title" className="card">
          <h2 id="actions-title" className="font-semibold">
            {t("account.actions.title")}
          </h2>
          <div className="mt-3 flex flex-wrap gap-2">
            <Link to={`${ACCOUNT}/Recharge`} className="btn-primary">
              {t("account.actions.recharge")}
            </Link>
            <Link to={`${ACCOUNT}/Withdraw`} className="btn-secondary">
              {t("account.actions.withdraw")}
            </Link>
            <Link to="/g/home/userCenter/Invoices" className="btn-secondary">
              {t("account.actions.invoice")}
            </Link>
          </div>
        </section>
      </div>

      <AutoPay on={summary.autoPay} />

      <div className="grid gap-4 lg:grid-cols-2">
        <RecentRecords
          id="recharges"
          title={t("account.recharges.title")}
          allTo={`${ACCOUNT}/Recharge`}
          allLabel={t("account.recharges.all")}
          none={t("account.recharges.none")}
          rows={summary.recharges}
          rowKey={(r) => r.paymentNo}
          columns={[
            {
              header: zoneHeader(t, t("account.recharges.time")),
              className: "whitespace-nowrap text-slate-600",
              cell: (r) => formatDate(r.createdAt, language, true, false),
            },
            { header: t("account.recharges.amount"), numeric: true, cell: (r) => formatUsd(r.amountCents, language) },
            {
              header: t("account.recharges.method"),
              cell: (r) => t(`payTypes.${r.payType}`, { defaultValue: r.payType }),
            },
            {
              header: t("account.recharges.status"),
              cell: (r) => t(`payStates.${r.status}`, { defaultValue: String(r.status) }),
            },
          ]}
        />
        <RecentRecords
          id="withdrawals"
          title={t("account.withdrawals.title")}
          allTo={`${ACCOUNT}/Withdraw`}
          allLabel={t("account.withdrawals.all")}
          none={t("account.withdrawals.none")}
          rows={summary.withdrawals}
          rowKey={(w) => w.withdrawalNo}
          columns={[
            {
              header: zoneHeader(t, t("account.withdrawals.time")),
              className: "whitespace-nowrap text-slate-600",
              cell: (w) => formatDate(w.createdAt, language, true, false),
            },
            { header: t("account.withdrawals.amount"), numeric: true, cell: (w) => formatUsd(w.amountCents, language) },
            {
              header: t("account.withdrawals.status"),
              cell: (w) => t(`withdrawalStates.${w.state}`, { defaultValue: String(w.state) }),
            },
            {
              header: t("account.withdrawals.expectedArrival"),
              cell: (w) => formatDay(w.expectedArrival, language) || "—",
            },
          ]}
        />
      </div>

      <section aria-labelledby="usage-title" className="card">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="usage-title" className="font-semibold">
            {t("usage.title")}
          </h2>
          <p className="text-sm text-slate-600" data-testid="usage-total">
            {t("usage.total", { gb: usage.totalGb.toFixed(2) })}
          </p>
        </div>
        <p className="mt-1 text-sm text-slate-500">{t("usage.intro")}</p>
        <div className="mt-4">
          <UsageChart usage={usage} language={language} />
        </div>
      </section>

      <IpfsUsageByGateway usage={ipfsUsage} language={language} />

      <section aria-labelledby="transactions-title" className="space-y-3" id="transactions">
        <h2 id="transactions-title" className="font-semibold">
          {t("transactions.title")}
        </h2>
        <ListFilterForm
          label={t("transactions.filters")}
          action="#transactions"
          grid="lg:grid-cols-4"
          searchLabel={t("transactions.search")}
          resetLabel={t("transactions.reset")}
          resetTo={`${ACCOUNT}#transactions`}
        >
          <SelectFilter
            id="kind"
            label={t("transactions.kind")}
            value={filter.kind}
            allLabel={t("transactions.allKinds")}
            options={LEDGER_ENTRY_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
          />
          <DateFilter id="tx-from" name="dateFrom" label={t("transactions.from")} value={filter.dateFrom} />
          <DateFilter id="tx-to" name="dateTo" label={t("transactions.to")} value={filter.dateTo} />
        </ListFilterForm>
        <div className="flex justify-end">
          <a href={transactionsCsvHref(filter)} className="btn-secondary" data-testid="transactions-csv" download>
            {t("transactions.export")}
          </a>
        </div>
        <RecordTable
          label={t("transactions.title")}
          page={transactions}
          sizes
          columns={columns}
          rowKey={(e) => e.entryId}
          rowTestId="transaction"
          testId="transactions"
          empty={t("transactions.none")}
          emptyTestId="transactions-empty"
        />
      </section>
    </div>
  );
}
