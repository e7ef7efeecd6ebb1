import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field } from "#app/components/details.tsx";
import { UpgradeStatusBadge } from "#app/components/dedicated-nodes/badges.tsx";
import { PRN, billHref, configDetailHref, configHref } from "#app/lib/dedicated-nodes-urls.ts";
import { useUpgradeValue } from "#app/components/dedicated-nodes/upgrades.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { canonicalUpgrade, prnUpdateIdParam } from "#app/lib/dedicated-nodes.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { useRefreshWhile } from "#app/lib/pending-refresh.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { PrnUpgradeStatus } from "#contract/dedicated-nodes-codes.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["dedicatedNodes", "services"],
  breadcrumb: [{ key: "titles.privatedNodes", to: PRN }, { key: "titles.privatedNodesConfigDetail" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle(
  "privatedNodesConfigDetail",
  (d: { upgrade?: { projectName: string } }) => d.upgrade?.projectName,
);

/**
 * One upgrade of a project (SPEC §2 PrivatedNodesConfigDetail (prnProjectUpdateId, prnUpdateType,
 * prnProjectName), §4 dedicated node upgrade: 1 upgrading, 2 success, 3 failed): what changed, the difference
 * paid with its bill, when, and why it failed. The owner's only: another user's upgrade is not found.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const prnProjectUpdateId = prnUpdateIdParam(request);
  const api = apiFor(request, viewer);
  const [upgrade, catalogue] = await Promise.all([
    api.load("/sys/prn/upgrade/detail", { prnProjectUpdateId }),
    api.load("/sys/prn/options", {}),
  ]);
  canonicalUpgrade(request, upgrade, configDetailHref(prnProjectUpdateId, upgrade.updateType, upgrade.projectName));
  return json({ upgrade, hostConfigs: catalogue.hostConfigs, language: viewer.language });
}

export default function DedicatedNodeUpgradeDetail() {
  const { upgrade: u, hostConfigs, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("dedicatedNodes");
  const valueOf = useUpgradeValue();
  // While the upgrade is applied (1) the data is read again every few seconds with JavaScript; Refresh does it without.
  useRefreshWhile(u.status === PrnUpgradeStatus.UPGRADING);
  return (
    <div className="max-w-3xl space-y-4">
      <PageHeader
        title={t("upgrade.detailTitle", { name: u.projectName })}
        actions={
          <>
            <div className="flex flex-wrap gap-2">
              {u.status === PrnUpgradeStatus.UPGRADING ? (
                <Link
                  className="btn-secondary"
                  to={configDetailHref(u.prnProjectUpdateId, u.updateType, u.projectName)}
                  data-testid="refresh"
                >
                  {t("check.refresh")}
                </Link>
              ) : null}
              <Link className="btn-secondary" to={configHref(u.prnProjectId, u.projectName)}>
                {t("upgrade.back")}
              </Link>
            </div>
          </>
        }
      />
      <section className="card">
        <dl className="grid gap-4 sm:grid-cols-3">
          <Field label={t("config.status")}>
            <UpgradeStatusBadge status={u.status} />
          </Field>
          <Field label={t("config.type")}>
            <span data-testid="upgrade-type">{t(`updateType.${u.updateType}`)}</span>
          </Field>
          <Field label={t("config.priceDiff")}>
            <span className="tabular-nums" data-testid="upgrade-price">
              {formatUsd(u.priceDiffCents, language)}
            </span>
          </Field>
          <Field label={t("upgrade.from")}>
            <span data-testid="upgrade-from">{valueOf(u.updateType, u.fromValue, hostConfigs)}</span>
          </Field>
          <Field label={t("upgrade.to")}>
            <span data-testid="upgrade-to">{valueOf(u.updateType, u.toValue, hostConfigs)}</span>
          </Field>
          <Field label={t("upgrade.bill")}>
            {u.billId ? (
              <Link className="link font-mono text-xs" to={billHref(u.billId)} data-testid="upgrade-bill">
                {u.billNo}
              </Link>
            ) : (
              "—"
            )}
          </Field>
          <Field label={t("upgrade.requested")}>{formatDate(u.createdAt, language, true)}</Field>
          <Field label={t("upgrade.finished")}>{u.finishedAt ? formatDate(u.finishedAt, language, true) : "—"}</Field>
        </dl>
      </section>
      <p className="text-sm text-slate-600" data-testid="upgrade-explain">
        {t(`upgrade.explain.${u.status}`)}
      </p>
      {u.failReason ? (
        <p className="card text-sm" data-testid="upgrade-reason">
          <span className="font-semibold">{t("upgrade.failReason")}:</span> {u.failReason}
        </p>
      ) : null}
    </div>
  );
}
