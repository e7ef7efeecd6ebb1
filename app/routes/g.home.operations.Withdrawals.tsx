import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { withdrawalMachine } from "#contract/payment-machines.ts";
import { eventsFrom } from "#contract/state-machine.ts";
import { withdrawalReviewSchema } from "#contract/payments.ts";
import { WithdrawalStateBadge } from "#app/components/payments/wallet.tsx";
import { ReviewQueue } from "#app/components/ReviewRow.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { formatDay } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { decideQueueItem, loadMoneyQueue, queueDecision } from "#app/lib/operations-review.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["payments"], breadcrumb: [{ key: "titles.withdrawals" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("withdrawals");

const DONE_KEYS = {
  approve: "payments:ops.withdrawals.approved",
  reject: "payments:ops.withdrawals.rejectedDone",
  confirm: "payments:ops.withdrawals.confirmedDone",
};

/** Operators: withdrawals to review (state 1) or to mark paid out (state 10), or all (SPEC §4 Refund review). */
export async function loader({ request }: LoaderFunctionArgs) {
  return loadMoneyQueue(request, "/ops/withdrawals/list");
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  return decideQueueItem(request, {
    idName: "withdrawalNo",
    confirm: true,
    machine: withdrawalMachine,
    decisions: {
      review: queueDecision({
        schema: withdrawalReviewSchema,
        decide: (review) => apiFor(request, viewer).call("/ops/withdrawals/review", review),
        flash: (review) => DONE_KEYS[review.decision],
      }),
    },
  });
}

export default function WithdrawalsQueue() {
  const { page, status, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("payments");
  return (
    <ReviewQueue
      title={t("ops.withdrawals.title")}
      status={status}
      page={page}
      empty={t("ops.withdrawals.empty")}
      language={language}
      noField="withdrawalNo"
      noOf={(w) => w.withdrawalNo}
      itemTestId="withdrawal"
      itemNoAttribute="data-withdrawal-no"
      labels={{
        approve: t("ops.withdrawals.approve"),
        reject: t("ops.withdrawals.reject"),
        confirm: t("ops.withdrawals.confirm"),
      }}
      decisionsOf={(w) => eventsFrom(withdrawalMachine, w.state, "operator")}
      badge={(w) => <WithdrawalStateBadge state={w.state} />}
      extra={(w) =>
        w.expectedArrival ? (
          <p>
            {t("withdraw.columns.arrival")}: {formatDay(w.expectedArrival, language)}
          </p>
        ) : null
      }
    />
  );
}
