import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { upgradeDecisionSchema } from "#contract/configuration.ts";
import { ConfigList, UpgradeStatusBadge } from "#app/components/configuration/upgrades.tsx";
import { approveReject, DecisionForm } from "#app/components/ReviewRow.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { decideQueueItem, queueDecision } from "#app/lib/operations-review.server.ts";
import { oneOf, pageParam } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["configuration", "services", "billing", "payments"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.configUpgradeReviews" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("configUpgradeReviews");

const QUEUES = ["pending", "rejected"] as const;

/**
 * Operations: configuration upgrades waiting for review (oldest first) and those not approved, with the
 * configuration before and after and the price; approve, or reject with comments (SPEC §4 review 1 / 5).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const queue = oneOf(QUEUES, url.searchParams.get("queue")) ?? "pending";
  const data = await apiFor(request, viewer).load("/sys/ops/configUpgrades/list", {
    queue,
    pageIndex: pageParam(url),
    pageSize: 10,
  });
  return json({ ...data, queue, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  return decideQueueItem(request, {
    idName: "upgradeId",
    confirm: true,
    decisions: {
      review: queueDecision({
        schema: upgradeDecisionSchema,
        decide: (v) => apiFor(request, viewer).call("/sys/ops/configUpgrades/decide", v),
        flash: (v) => ({ approve: "configuration:flash.approved", reject: "configuration:flash.rejected" })[v.decision],
      }),
    },
  });
}

export default function ConfigUpgradeReviews() {
  const { page, queue, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("configuration");
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold">{t("ops.title")}</h2>
      <nav aria-label={t("ops.title")} className="flex gap-2 text-sm">
        {QUEUES.map((q) => (
          <Link
            key={q}
            to={`?queue=${q}`}
            aria-current={queue === q ? "page" : undefined}
            className={`rounded-full px-3 py-1 ${queue === q ? "bg-brand-600 text-white" : "bg-white text-slate-700 ring-1 ring-slate-200"}`}
          >
            {t(`ops.queues.${q}`)}
          </Link>
        ))}
      </nav>
      {page.rows.length === 0 ? (
        <EmptyState message={t("ops.empty")} />
      ) : (
        <ul className="space-y-4">
          {page.rows.map((u) => (
            <li
              key={u.upgradeId}
              className="card space-y-3"
              data-testid="upgrade-review"
              aria-labelledby={`upgrade-${u.upgradeId}`}
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 id={`upgrade-${u.upgradeId}`} className="font-semibold">
                  <span data-user-content="">{u.serviceName}</span> · {t(`types.${u.upgradeType}`)}{" "}
                  <span className="font-mono text-xs font-normal">{u.upgradeNo}</span>
                </h3>
                <UpgradeStatusBadge status={u.status} />
              </div>
              <p className="text-xs text-slate-600">
                {t("ops.publisher")}: <span data-user-content="">{u.publisher}</span> · {t("ops.requested")}:{" "}
                {formatDate(u.createdAt, language, true)} · {t("ops.amount")}: {formatUsd(u.amountCents, language)}
              </p>
              <div className="grid gap-3 sm:grid-cols-2">
                <div>
                  <h4 className="text-sm font-semibold">{t("detail.before")}</h4>
                  <ConfigList nodes={u.before} language={language} testId="review-before" />
                </div>
                <div>
                  <h4 className="text-sm font-semibold">{t("detail.after")}</h4>
                  <ConfigList nodes={u.after} language={language} testId="review-after" />
                </div>
              </div>
              {queue === "pending" ? (
                <DecisionForm
                  id={`upgrade-${u.upgradeId}-decision`}
                  intent="review"
                  idName="upgradeId"
                  idValue={u.upgradeId}
                  subject={u.serviceName}
                  decisions={approveReject(t)}
                  comments={{ label: t("ops.comments"), hint: t("ops.commentsHint") }}
                />
              ) : u.reviewComments ? (
                <p className="text-sm">
                  <span className="font-semibold">{t("detail.reviewComments")}:</span> {u.reviewComments}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
