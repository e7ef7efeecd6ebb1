import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { InvoiceDetail } from "#contract/invoices.ts";
import { Badge, type Tone } from "#app/components/Badge.tsx";
import type { Column } from "#app/components/RecordTable.tsx";
import { Table } from "#app/components/Table.tsx";
import { formatDate, zoneHeader, formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { INVOICE_STATUS } from "#contract/invoice-codes.ts";

/* An invoice application as the user's pages and the operators' queue show it (namespace "invoices"). */

const STATUS_TONES: Record<number, Tone> = { 1: "wait", 3: "bad", 5: "info", 10: "ok" };

/** SPEC §4 invoice application status. */
export function StatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("invoices");
  return (
    <Badge tone={STATUS_TONES[status] ?? "off"} testId="invoice-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-3 gap-2 py-1.5 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="col-span-2 text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** Every field of an application (SPEC §3): title, amounts, issuance and delivery, billed bills, review. */
export function InvoiceDetailView({ detail, language }: { detail: InvoiceDetail; language: Language }) {
  const { t } = useTranslation("invoices");
  const ti = detail.titleInfo;
  const r = detail.recipient;
  const paper = detail.issuance === 1;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <section className="card" aria-labelledby="detail-application">
        <h2 id="detail-application" className="font-semibold">
          {t("detail.application")}
        </h2>
        <dl className="mt-3 divide-y divide-slate-100">
          <Row label={t("fields.applicationNo")}>{detail.applicationNo}</Row>
          <Row label={t("fields.status")}>
            <StatusBadge status={detail.status} />
          </Row>
          <Row label={t("fields.amount")} testId="detail-amount">
            {formatUsd(detail.amountCents, language)}
          </Row>
          <Row label={t("fields.invoiceType")}>{t(`invoiceType.${detail.invoiceType}`)}</Row>
          <Row label={t("fields.issuance")}>{t(`issuance.${detail.issuance}`)}</Row>
          <Row label={t("fields.createdAt")}>{formatDate(detail.createdAt, language, true)}</Row>
          {detail.userName ? <Row label={t("fields.applicant")}>{detail.userName}</Row> : null}
        </dl>
      </section>
      <section className="card" aria-labelledby="detail-title">
        <h2 id="detail-title" className="font-semibold">
          {t("detail.title")}
        </h2>
        <dl className="mt-3 divide-y divide-slate-100">
          <Row label={t("fields.titleType")}>{t(`titleType.${ti.titleType}`)}</Row>
          <Row label={t("fields.title")}>{ti.title}</Row>
          {ti.taxNo ? <Row label={t("fields.taxNo")}>{ti.taxNo}</Row> : null}
          {ti.bank ? <Row label={t("fields.bank")}>{ti.bank}</Row> : null}
          {ti.bankAccount ? <Row label={t("fields.bankAccount")}>{ti.bankAccount}</Row> : null}
          {ti.registeredAddress ? <Row label={t("fields.registeredAddress")}>{ti.registeredAddress}</Row> : null}
          {ti.registeredPhone ? <Row label={t("fields.registeredPhone")}>{ti.registeredPhone}</Row> : null}
        </dl>
      </section>
      <section className="card" aria-labelledby="detail-recipient">
        <h2 id="detail-recipient" className="font-semibold">
          {t("detail.recipient")}
        </h2>
        <dl className="mt-3 divide-y divide-slate-100">
          {paper ? (
            <>
              <Row label={t("fields.name")}>{r.name}</Row>
              <Row label={t("fields.mobile")}>{r.mobile}</Row>
              <Row label={t("fields.location")}>{r.location}</Row>
              <Row label={t("fields.address")}>{r.address}</Row>
              {r.postalCode ? <Row label={t("fields.postalCode")}>{r.postalCode}</Row> : null}
              {r.email ? <Row label={t("fields.email")}>{r.email}</Row> : null}
            </>
          ) : (
            <Row label={t("fields.email")}>{r.email}</Row>
          )}
          {r.remark ? <Row label={t("fields.remark")}>{r.remark}</Row> : null}
        </dl>
      </section>
      <section className="card" aria-labelledby="detail-review" data-testid="review-result">
        <h2 id="detail-review" className="font-semibold">
          {t("detail.review")}
        </h2>
        <dl className="mt-3 divide-y divide-slate-100">
          <Row label={t("fields.reviewResult")}>
            {detail.reviewedAt
              ? t(detail.status === INVOICE_STATUS.NOT_APPROVED ? "review.notApproved" : "review.approved")
              : t("review.pending")}
          </Row>
          {detail.reviewedAt ? (
            <Row label={t("fields.reviewedAt")}>{formatDate(detail.reviewedAt, language, true)}</Row>
          ) : null}
          {detail.reviewComments ? (
            <Row label={t("fields.reviewComments")} testId="review-comments">
              {detail.reviewComments}
            </Row>
          ) : null}
          {detail.deliveredAt ? (
            <>
              <Row label={t("fields.deliveredAt")}>{formatDate(detail.deliveredAt, language, true)}</Row>
              {detail.courierName ? (
                <Row label={t("fields.courierName")} testId="courier-name">
                  {detail.courierName}
                </Row>
              ) : null}
              {detail.courierNo ? (
                <Row label={t("fields.courierNo")} testId="courier-no">
                  {detail.courierNo}
                </Row>
              ) : null}
              {detail.deliveryEmail ? (
                <Row label={t("fields.deliveryEmail")} testId="delivery-email">
                  {detail.deliveryEmail}
                </Row>
              ) : null}
            </>
          ) : null}
        </dl>
      </section>
      <section className="card lg:col-span-2" aria-labelledby="detail-bills">
        <h2 id="detail-bills" className="font-semibold">
          {t("detail.bills")}
        </h2>
        <Table
          label={t("detail.bills")}
          variant="compact"
          columns={[
            { header: t("fields.billNo"), cell: (b) => b.billNo },
            { header: t("fields.serviceName"), cell: (b) => b.serviceName },
            { header: t("fields.amount"), cell: (b) => formatUsd(b.amountCents, language), numeric: true },
          ]}
          rows={detail.bills}
          rowKey={(b) => b.billId}
          rowTestId="billed-bill"
        />
      </section>
    </div>
  );
}

type ApplicationRow = {
  title: string;
  invoiceType: number;
  issuance: number;
  amountCents: number;
  status: number;
  createdAt: string;
};

/** The columns an invoice application shows in the user's list and in the operators' queue, after its number. */
export function applicationColumns<Row extends ApplicationRow>(t: TFunction, language: Language): Column<Row>[] {
  return [
    { header: t("fields.title"), userContent: true, cell: (r) => r.title },
    { header: t("fields.invoiceType"), cell: (r) => t(`invoiceType.${r.invoiceType}`) },
    { header: t("fields.issuance"), cell: (r) => t(`issuance.${r.issuance}`) },
    { header: t("fields.amount"), numeric: true, cell: (r) => formatUsd(r.amountCents, language) },
    { header: t("fields.status"), cell: (r) => <StatusBadge status={r.status} /> },
    { header: zoneHeader(t, t("fields.createdAt")), cell: (r) => formatDate(r.createdAt, language, true, false) },
  ];
}
