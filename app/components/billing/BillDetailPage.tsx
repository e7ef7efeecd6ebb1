import type { SerializeFrom } from "@remix-run/node";
import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { PayState } from "#contract/billing-codes.ts";
import type { DataOf } from "#contract/paths.ts";
import { SubmitButton } from "#app/components/form-parts.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { Table } from "#app/components/Table.tsx";
import { billDetailHref, billSubject, billCycleLabel, billTypeLabel } from "#app/lib/bills.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { hostOf } from "#app/lib/host-config.ts";
import type { Language } from "#app/lib/i18n.ts";
import { BillBreakdown } from "./BillBreakdown.tsx";
import { PayStateBadge } from "./PayStateBadge.tsx";

const RECHARGE = "/g/home/userCenter/MyAccount/Recharge";

/** What the BillDetail route loads, and its action's refusal (app/routes/g.home.userCenter.BillDetail.tsx). */
export type BillDetailData = SerializeFrom<{
  bill: DataOf<"/sys/system/clientInfo/h5billDetail">;
  breakdown: DataOf<"/sys/system/clientInfo/billBreakdown">;
  confirming: boolean;
  balanceCents: number | null;
  idempotencyKey: string;
  language: Language;
}>;
export type PayFailure = { messageKey: string; insufficient: boolean };

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium text-slate-900">{children === null || children === "" ? "—" : children}</dd>
    </div>
  );
}

/** The body of SPEC §2 BillDetail: the pay step, every §3 Bill field, the usage, resources and configuration. */
export function BillDetailPage({
  bill,
  breakdown,
  confirming,
  balanceCents,
  idempotencyKey,
  language,
  failure,
}: BillDetailData & { failure: PayFailure | undefined }) {
  const { t } = useTranslation("billing");
  const location = useLocation();
  const money = (cents: number) => formatUsd(cents, language);
  const date = (value: string | null) => (value ? formatDate(value, language, true) : null);
  // A host configuration is read as its vCPUs and memory, never as its code ("c2m4", issue 30 item 7).
  const hostLabel = (code: string | null) => {
    const h = code ? hostOf(code) : null;
    return h ? t("detail.other.hostConfig", { cpu: h.cpu, memory: h.memoryGb }) : code;
  };
  const dataTotal = bill.dataUsage.reduce((s, l) => s + l.amountCents, 0);
  const hasConfig =
    bill.nodeCount !== null ||
    bill.hostConfiguration ||
    bill.dataCapacityGb !== null ||
    bill.cloudPlatform ||
    bill.region;
  const params = new URLSearchParams(location.search);
  params.delete("confirm");
  const cancelHref = `${location.pathname}?${params}`;

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("detail.title", { billNo: bill.billNo })}
        description={
          <>
            {billSubject(t, bill)} · {billTypeLabel(t, bill.billType)}
          </>
        }
        actions={
          <>
            <Link to="/g/home/userCenter/MyBills" className="btn-secondary">
              {t("detail.back")}
            </Link>
          </>
        }
      />

      {bill.overdue && bill.payMode === 2 ? (
        <p role="status" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {t("detail.overdue")}
        </p>
      ) : null}
      {bill.payState === PayState.EXPIRED ? (
        <p role="status" className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
          {t("detail.expired")}
        </p>
      ) : null}

      {bill.payable ? (
        <section aria-labelledby="pay-title" className="card border-amber-200" data-testid="pay-section">
          {failure ? (
            <div
              role="alert"
              data-testid="pay-error"
              className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700"
            >
              <p>{t(failure.messageKey)}</p>
              {failure.insufficient ? (
                <p className="mt-2">
                  {t("pay.insufficientHint")}{" "}
                  <Link to={RECHARGE} className="btn-primary ml-2 !py-1">
                    {t("pay.recharge")}
                  </Link>
                </p>
              ) : null}
            </div>
          ) : null}
          {confirming ? (
            <div role="alertdialog" aria-labelledby="pay-title" aria-describedby="pay-question">
              <h2 id="pay-title" className="font-semibold">
                {t("pay.confirmTitle")}
              </h2>
              <p id="pay-question" className="mt-2 text-slate-700">
                {t("pay.confirmText", { amount: money(bill.payCents), billNo: bill.billNo })}
              </p>
              {balanceCents !== null ? (
                <p className="mt-1 text-sm text-slate-500" data-testid="pay-balance">
                  {t("pay.balance", { balance: money(balanceCents) })}
                </p>
              ) : null}
              <Form method="post" action={location.pathname + location.search} className="mt-4 flex flex-wrap gap-2">
                <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
                <SubmitButton intent="pay" className="btn-primary">
                  {t("pay.confirm")}
                </SubmitButton>
                <Link to={cancelHref} className="btn-secondary">
                  {t("pay.cancel")}
                </Link>
              </Form>
            </div>
          ) : (
            <div className="flex flex-wrap items-center justify-between gap-3">
              <div>
                <h2 id="pay-title" className="font-semibold">
                  {t("pay.title")}
                </h2>
                <p className="mt-1 text-sm text-slate-600">{t("pay.intro")}</p>
              </div>
              <Link to={billDetailHref(bill, "&confirm=pay")} className="btn-primary">
                {t("pay.button", { amount: money(bill.payCents) })}
              </Link>
            </div>
          )}
        </section>
      ) : null}

      <section aria-labelledby="bill-summary" className="card">
        <h2 id="bill-summary" className="font-semibold">
          {t("detail.summary")}
        </h2>
        <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <Field label={t("detail.fields.billNo")}>
            <span className="font-mono" data-testid="bill-no">
              {bill.billNo}
            </span>
          </Field>
          <Field label={t("detail.fields.service")}>{billSubject(t, bill)}</Field>
          <Field label={t("detail.fields.type")}>{billTypeLabel(t, bill.billType)}</Field>
          <Field label={t("detail.fields.payState")}>
            <PayStateBadge payState={bill.payState} overdue={bill.overdue} awaitsFinance={bill.awaitsFinance} />
          </Field>
          {bill.memberName ? (
            <Field label={t("detail.fields.member")}>
              <span data-user-content="" data-testid="bill-member">
                {t("detail.byMember", { name: bill.memberName })}
              </span>
            </Field>
          ) : null}
          <Field label={t("detail.fields.payMode")}>
            {t(`payModes.${bill.payMode}`, { defaultValue: String(bill.payMode) })}
          </Field>
          <Field label={t("detail.fields.payType")}>
            {bill.payType ? t(`payTypes.${bill.payType}`, { defaultValue: bill.payType }) : null}
          </Field>
          <Field label={t("detail.fields.cycle")}>{billCycleLabel(t, bill)}</Field>
          <Field
            label={t("detail.fields.period")}
          >{`${formatDate(bill.periodStart, language, true)} – ${formatDate(bill.periodEnd, language, true)}`}</Field>
          <Field label={t("detail.fields.created")}>{date(bill.createdAt)}</Field>
          <Field label={t("detail.fields.deadline")}>{date(bill.deadline)}</Field>
          <Field label={t("detail.fields.releaseTime")}>{date(bill.releaseTime)}</Field>
          <Field label={t("detail.fields.paidAt")}>{date(bill.paidAt)}</Field>
          <Field label={t("detail.fields.total")}>
            <span data-testid="bill-total">{money(bill.totalCents)}</span>
          </Field>
          <Field label={t("detail.fields.payAmount")}>{money(bill.payCents)}</Field>
          <Field label={t("detail.fields.refundNo")}>{bill.refundNo}</Field>
          <Field label={t("detail.fields.refund")}>{money(bill.refundCents)}</Field>
          <Field label={t("detail.fields.invoiceState")}>
            {t(`invoiceStates.${bill.invoiceState}`, { defaultValue: String(bill.invoiceState) })}
          </Field>
        </dl>
      </section>

      <BillBreakdown breakdown={breakdown} language={language} />

      {bill.dataUsage.length > 0 ? (
        <section aria-labelledby="data-usage" className="card overflow-x-auto">
          <h2 id="data-usage" className="font-semibold">
            {t("detail.dataUsage.title")}
          </h2>
          <Table
            variant="compact"
            label={t("detail.dataUsage.title")}
            testId="data-usage"
            rows={bill.dataUsage}
            rowKey={(l) => l.nodeCode}
            columns={[
              { header: t("detail.dataUsage.node"), cell: (l) => l.nodeName },
              { header: t("detail.dataUsage.usedGb"), numeric: true, cell: (l) => l.usedGb.toFixed(2) },
              { header: t("detail.dataUsage.price"), numeric: true, cell: (l) => money(l.pricePerGbCents) },
              { header: t("detail.dataUsage.amount"), numeric: true, cell: (l) => money(l.amountCents) },
            ]}
            footer={
              <tr className="border-t border-slate-200 font-semibold">
                <th scope="row" colSpan={3} className="py-2 pr-4 text-left">
                  {t("detail.dataUsage.total")}
                </th>
                <td className="py-2 text-right tabular-nums">{money(dataTotal)}</td>
              </tr>
            }
          />
          {bill.billType === 3 ? <p className="mt-3 text-xs text-slate-500">{t("detail.blocking")}</p> : null}
        </section>
      ) : null}

      {bill.resources.length > 0 ? (
        <section aria-labelledby="resources" className="card overflow-x-auto">
          <h2 id="resources" className="font-semibold">
            {t("detail.resources.title")}
          </h2>
          <Table
            variant="compact"
            label={t("detail.resources.title")}
            testId="resources"
            rows={bill.resources}
            rowKey={(l) => l.nodeCode}
            columns={[
              { header: t("detail.resources.node"), cell: (l) => l.nodeName },
              { header: t("detail.resources.tps"), numeric: true, cell: (l) => l.tps },
              { header: t("detail.resources.capacity"), numeric: true, cell: (l) => l.capacityGb },
              { header: t("detail.resources.peers"), numeric: true, cell: (l) => l.peers },
              { header: t("detail.resources.monthly"), numeric: true, cell: (l) => money(l.monthlyPriceCents) },
              { header: t("detail.resources.yearly"), numeric: true, cell: (l) => money(l.yearlyPriceCents) },
              { header: t("detail.resources.amount"), numeric: true, cell: (l) => money(l.amountCents) },
            ]}
          />
        </section>
      ) : null}

      {hasConfig ? (
        <section aria-labelledby="configuration" className="card">
          <h2 id="configuration" className="font-semibold">
            {t("detail.other.title")}
          </h2>
          <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-3">
            <Field label={t("detail.other.nodeCount")}>{bill.nodeCount === null ? null : String(bill.nodeCount)}</Field>
            <Field label={t("detail.other.host")}>{hostLabel(bill.hostConfiguration)}</Field>
            <Field label={t("detail.other.capacity")}>
              {bill.dataCapacityGb === null ? null : t("detail.other.capacityGb", { gb: bill.dataCapacityGb })}
            </Field>
            <Field label={t("detail.other.cloud")}>{bill.cloudPlatform}</Field>
            <Field label={t("detail.other.region")}>{bill.region}</Field>
          </dl>
        </section>
      ) : null}
    </div>
  );
}
