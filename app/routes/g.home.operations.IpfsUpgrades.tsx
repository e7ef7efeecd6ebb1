import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ipfsUpgradeDecisionSchema } from "#contract/ipfs.ts";
import { IpfsUpgradeStatus } from "#contract/ipfs-codes.ts";
import { capacityLabel } from "#app/components/ipfs/badges.tsx";
import { approveReject, DecisionForm, ReviewCard, ReviewCards } from "#app/components/ReviewRow.tsx";
import { UpgradeStatusBadge } from "#app/components/ipfs/upgrades.tsx";
import { apiFor, badRequest, redirectAfter, requireOperator } from "#app/lib/api.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { decideQueueItem, queueDecision } from "#app/lib/operations-review.server.ts";
import { pageParam, positiveId } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["ipfs", "payments"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.ipfsUpgradeReviews" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("ipfsUpgradeReviews");

/**
 * Operations: IPFS capacity upgrades pending (0) and being processed (2), oldest first (SPEC §4 IPFS upgrade;
 * docs/decisions/039). A pending one is taken (0 → 2); one being processed succeeds (5, the new capacity
 * applies) or fails with a reason (6, the difference is refunded).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const data = await apiFor(request, viewer).load("/sys/ops/ipfsUpgrades/list", {
    pageIndex: pageParam(url),
    pageSize: 10,
  });
  return json({ ...data, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const api = apiFor(request, viewer);
  if ((await request.clone().formData()).get("intent") === "take") {
    const ipfsUpgradeId = positiveId(String((await request.formData()).get("ipfsUpgradeId") ?? ""));
    if (!ipfsUpgradeId) throw badRequest();
    const url = new URL(request.url);
    return redirectAfter(
      request,
      await api.call("/sys/ops/ipfsUpgrades/take", { ipfsUpgradeId }),
      url.pathname + url.search,
      "ipfs:ops.taken",
    );
  }
  return decideQueueItem(request, {
    idName: "ipfsUpgradeId",
    confirm: true,
    decisions: {
      decide: queueDecision({
        schema: ipfsUpgradeDecisionSchema,
        decide: (v) => api.call("/sys/ops/ipfsUpgrades/decide", v),
        flash: (v) => ({ approve: "ipfs:ops.approved", reject: "ipfs:ops.rejected" })[v.decision],
      }),
    },
  });
}

export default function IpfsUpgradeQueue() {
  const { page, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("ipfs");
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold">{t("ops.title")}</h2>
      <p className="text-sm text-slate-600">{t("ops.intro")}</p>
      <ReviewCards page={page} empty={<EmptyState message={t("ops.empty")} />}>
        {(u) => (
          <ReviewCard
            key={u.ipfsUpgradeId}
            id={`ipfs-upgrade-${u.ipfsUpgradeId}`}
            testId="ipfs-upgrade-review"
            title={`${u.serviceName} · ${capacityLabel(u.fromStoreUnit)} → ${capacityLabel(u.toStoreUnit)}`}
            badge={<UpgradeStatusBadge status={u.status} />}
          >
            <p className="text-xs text-slate-600">
              {t("ops.owner")}: {u.owner} · {t("upgrade.requested")}: {formatDate(u.createdAt, language, true)} ·{" "}
              {t("upgrade.priceDiff")}: {formatUsd(u.priceDiffCents, language)}
              {u.billNo ? (
                <>
                  {" "}
                  · {t("upgrade.bill")}: <span className="font-mono">{u.billNo}</span>
                </>
              ) : null}
            </p>
            {u.status === IpfsUpgradeStatus.PENDING ? (
              <Form method="post" className="flex justify-end">
                <input type="hidden" name="ipfsUpgradeId" value={u.ipfsUpgradeId} />
                <button type="submit" name="intent" value="take" className="btn-primary">
                  {t("ops.take")}
                </button>
              </Form>
            ) : (
              <DecisionForm
                id={`ipfs-upgrade-${u.ipfsUpgradeId}-decision`}
                intent="decide"
                idName="ipfsUpgradeId"
                idValue={u.ipfsUpgradeId}
                subject={u.serviceName}
                decisions={approveReject(t)}
                comments={{ label: t("ops.comments"), hint: t("ops.commentsHint") }}
              />
            )}
          </ReviewCard>
        )}
      </ReviewCards>
    </div>
  );
}
