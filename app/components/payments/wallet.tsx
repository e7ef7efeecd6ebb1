import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { Language } from "#app/lib/i18n.ts";
import { formatUsd } from "#app/lib/format.ts";
import { Badge } from "#app/components/Badge.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { isBankTransfer, PaymentStatus, WithdrawalState } from "#contract/payments-codes.ts";

/** The heading of a page under My account (recharge, withdrawal, card) with the way back to the account. */
export function AccountPageHeading({ title }: { title: string }) {
  const { t } = useTranslation("payments");
  return (
    <PageHeader
      title={title}
      actions={
        <>
          <Link to="/g/home/userCenter/MyAccount" className="link text-sm">
            {t("account.backToAccount")}
          </Link>
        </>
      }
    />
  );
}

/** Balance and withdrawable amount (SPEC §3 Account), shown on the recharge and withdrawal pages. */
export function WalletSummary({
  totals,
  language,
}: {
  totals: { balanceCents: number; withdrawableCents: number };
  language: Language;
}) {
  const { t } = useTranslation("payments");
  return (
    <dl className="grid max-w-lg grid-cols-2 gap-4">
      <div className="card">
        <dt className="text-sm text-slate-500">{t("account.balance")}</dt>
        <dd className="mt-1 text-2xl font-semibold" data-testid="balance">
          {formatUsd(totals.balanceCents, language)}
        </dd>
      </div>
      <div className="card">
        <dt className="text-sm text-slate-500">{t("account.withdrawable")}</dt>
        <dd className="mt-1 text-2xl font-semibold" data-testid="withdrawable">
          {formatUsd(totals.withdrawableCents, language)}
        </dd>
      </div>
    </dl>
  );
}

/**
 * SPEC §4 Payment status as a badge; a bank transfer (GT0003, GT0004) in payment awaits confirmation; a payment held
 * for an operator (the provider's amount or currency differs: docs/decisions/019) is in review.
 */
export function PaymentStatusBadge({
  status,
  payType,
  inReview = false,
}: {
  status: number;
  payType: string;
  inReview?: boolean;
}) {
  const { t } = useTranslation("payments");
  const tone =
    inReview || status === PaymentStatus.IN_PAYMENT || status === PaymentStatus.UNPAID
      ? "wait"
      : status === PaymentStatus.PAID
        ? "ok"
        : status === PaymentStatus.FAILED
          ? "bad"
          : "off";
  const label = inReview
    ? t("inReview")
    : status === PaymentStatus.IN_PAYMENT && isBankTransfer(payType)
      ? t("awaitingConfirmation")
      : t(`paymentStatus.${status}`);
  return (
    <Badge tone={tone} testId="status">
      {label}
    </Badge>
  );
}

/** SPEC §4 Refund review state of a withdrawal. */
export function WithdrawalStateBadge({ state }: { state: number }) {
  const { t } = useTranslation("payments");
  const W = WithdrawalState;
  const tone =
    state === W.APPROVED || state === W.CONFIRMED
      ? "ok"
      : state === W.PENDING
        ? "wait"
        : state === W.REJECTED
          ? "bad"
          : "off";
  return (
    <Badge tone={tone} testId="status">
      {t(`withdrawalState.${state}`)}
    </Badge>
  );
}

/** The platform's bank account for offline remittances (SPEC §9: confirmed in 1-3 working days). */
export function RemittanceInstructions({ paymentNo }: { paymentNo?: string }) {
  const { t } = useTranslation("payments");
  return (
    <section
      className="rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm"
      data-testid="remittance-instructions"
    >
      <h2 className="font-semibold">{t("remittance.title")}</h2>
      <p className="mt-1 text-slate-600">{t("remittance.intro")}</p>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-slate-500">{t("remittance.beneficiary")}</dt>
        <dd>{t("remittance.beneficiaryName")}</dd>
        <dt className="text-slate-500">{t("remittance.bank")}</dt>
        <dd>{t("remittance.bankName")}</dd>
        <dt className="text-slate-500">{t("remittance.account")}</dt>
        <dd className="font-mono">{t("remittance.accountNumber")}</dd>
        <dt className="text-slate-500">{t("remittance.swift")}</dt>
        <dd className="font-mono">{t("remittance.swiftCode")}</dd>
      </dl>
      {paymentNo ? <p className="mt-3 font-medium">{t("remittance.reference", { paymentNo })}</p> : null}
      <p className="mt-2 text-slate-600">{t("remittance.time")}</p>
    </section>
  );
}
