import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { remittanceMachine } from "#contract/payment-machines.ts";
import { eventsFrom } from "#contract/state-machine.ts";
import { remittanceReviewSchema } from "#contract/payments.ts";
import { PaymentStatusBadge } from "#app/components/payments/wallet.tsx";
import { ReviewQueue } from "#app/components/ReviewRow.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { decideQueueItem, loadMoneyQueue, queueDecision } from "#app/lib/operations-review.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["payments"], breadcrumb: [{ key: "titles.remittances" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("remittances");

/** Operators: offline remittances awaiting confirmation (SPEC §9 GT0004, 1-3 working days), or all. */
export async function loader({ request }: LoaderFunctionArgs) {
  return loadMoneyQueue(request, "/ops/remittances/list");
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  return decideQueueItem(request, {
    idName: "paymentNo",
    confirm: true,
    machine: remittanceMachine,
    decisions: {
      review: queueDecision({
        schema: remittanceReviewSchema,
        decide: (review) => apiFor(request, viewer).call("/ops/remittances/review", review),
        flash: (review) =>
          review.decision === "confirm" ? "payments:ops.remittances.confirmed" : "payments:ops.remittances.rejected",
      }),
    },
  });
}

export default function RemittancesQueue() {
  const { page, status, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("payments");
  return (
    <ReviewQueue
      title={t("ops.remittances.title")}
      status={status}
      page={page}
      empty={t("ops.remittances.empty")}
      language={language}
      noField="paymentNo"
      noOf={(r) => r.paymentNo}
      itemTestId="remittance"
      itemNoAttribute="data-payment-no"
      labels={{ confirm: t("ops.remittances.confirm"), reject: t("ops.remittances.reject") }}
      decisionsOf={(r) => eventsFrom(remittanceMachine, r.status, "operator")}
      badge={(r) => <PaymentStatusBadge status={r.status} payType={r.payType} />}
      extra={(r) => (
        <p>
          {t("ops.remittances.ref")}: <span className="font-mono">{r.remittanceRef}</span>
        </p>
      )}
    />
  );
}
