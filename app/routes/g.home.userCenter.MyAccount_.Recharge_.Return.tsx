import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorView } from "#app/components/ErrorView.tsx";
import { PaymentStatusBadge, RemittanceInstructions } from "#app/components/payments/wallet.tsx";
import { apiFor, notFound, requireUser } from "#app/lib/api.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { recordNumberParam } from "#app/lib/params.ts";
import { pageTitleRefreshing, useRefreshWhile } from "#app/lib/pending-refresh.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { isBankTransfer, NET_BANKING_PAY_TYPE, PaymentStatus } from "#contract/payments-codes.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["payments"],
  breadcrumb: [
    { key: "menu.userCenter" },
    { key: "menu.myAccount", to: "/g/home/userCenter/MyAccount" },
    { key: "titles.recharge", to: "/g/home/userCenter/MyAccount/Recharge" },
    { key: "titles.rechargeResult" },
  ],
};
export const clientLoader = withNamespaces(handle);

/** While the provider has not answered, the page refreshes itself (a meta refresh works without JavaScript). */
export const meta = pageTitleRefreshing<typeof loader>("rechargeResult", (data) => data.waiting);

/** Where the provider sends the browser back (and the link of each record): the outcome of one payment. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const paymentNo = recordNumberParam(new URL(request.url).searchParams.get("paymentNo"));
  if (!paymentNo) throw notFound();
  // SPEC §4 "Status refreshes": the backend asks the provider about a payment still in payment.
  const data = await apiFor(request, viewer).load("/sys/account/payment", { paymentNo, refresh: true });
  // A payment held for an operator waits for a person, not for the provider: no refreshing.
  const waiting =
    data.payment.status === PaymentStatus.IN_PAYMENT && !isBankTransfer(data.payment.payType) && !data.payment.inReview;
  return json({ ...data, waiting, language: viewer.language });
}

export default function RechargeReturnPage() {
  const { payment, totals, waiting, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("payments");
  const location = useLocation();
  useRefreshWhile(waiting);
  const amount = formatUsd(payment.amountCents, language);
  // Both bank transfers (net banking and offline remittance) wait for an operator to match the money.
  const offline = isBankTransfer(payment.payType);
  return (
    <div className="max-w-2xl space-y-4">
      <div className="card space-y-3" data-testid="recharge-result">
        <div className="flex items-center justify-between gap-3">
          <PageHeader title={t("result.title", { paymentNo: payment.paymentNo })} />
          <PaymentStatusBadge status={payment.status} payType={payment.payType} inReview={payment.inReview} />
        </div>
        <p className="text-sm text-slate-500">
          {t(`payTypes.${payment.payType}`)} · {amount} · {formatDate(payment.createdAt, language, true)}
        </p>
        {payment.status === PaymentStatus.PAID ? (
          <p className="text-green-700">{t("result.paid", { amount })}</p>
        ) : null}
        {waiting ? (
          <p role="status" className="text-amber-800">
            {t("result.waiting")}{" "}
            <Link className="link" to={location.pathname + location.search}>
              {t("result.refresh")}
            </Link>
          </p>
        ) : null}
        {payment.inReview ? (
          <p role="status" className="text-amber-800">
            {t("result.inReview", { amount })}
          </p>
        ) : null}
        {payment.status === PaymentStatus.IN_PAYMENT && offline ? (
          <p data-testid="transfer-note">
            {t(payment.payType === NET_BANKING_PAY_TYPE ? "result.netBanking" : "result.offline", {
              amount,
              paymentNo: payment.paymentNo,
            })}
          </p>
        ) : null}
        {payment.status === PaymentStatus.FAILED ? (
          <p className="text-red-700">
            {t("result.failed")} {payment.failureReason ? t(`reasons.${payment.failureReason}`) : null}{" "}
            {payment.reviewComments ?? null}
          </p>
        ) : null}
        {payment.status === PaymentStatus.EXPIRED && !payment.inReview ? (
          <p className="text-slate-700">{t("result.expired")}</p>
        ) : null}
        <p className="font-medium" data-testid="balance">
          {t("result.newBalance", { balance: formatUsd(totals.balanceCents, language) })}
        </p>
        <div className="flex flex-wrap gap-3 pt-2">
          <Link to="/g/home/userCenter/MyAccount/Recharge" className="btn-primary">
            {t("result.again")}
          </Link>
          <Link to="/g/home/userCenter/MyAccount" className="btn-secondary">
            {t("account.backToAccount")}
          </Link>
        </div>
      </div>
      {payment.status === PaymentStatus.IN_PAYMENT && offline ? (
        <RemittanceInstructions paymentNo={payment.paymentNo} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView />;
}
