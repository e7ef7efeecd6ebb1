import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { IpfsUpgradeStatus } from "#contract/ipfs-codes.ts";
import { Field } from "#app/components/details.tsx";
import { capacityLabel } from "#app/components/ipfs/badges.tsx";
import { IPFS, serviceHref } from "#app/lib/ipfs-urls.ts";
import { UpgradeStatusBadge, billHref } from "#app/components/ipfs/upgrades.tsx";
import { apiFor, notFound, requireUser } from "#app/lib/api.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveId } from "#app/lib/params.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["ipfs", "services"],
  breadcrumb: [{ key: "titles.ipfs", to: IPFS }, { key: "titles.ipfsUpgradeDetail" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("ipfsUpgradeDetail");

/**
 * Upgrade detail (SPEC §2 IPFS "upgrade detail", §4 IPFS upgrade): its status, the capacities before and after,
 * the difference paid with its bill, when it was taken and decided, and on failure the reason and the refund.
 * The owner's only: another user's upgrade is not found.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const ipfsUpgradeId = positiveId(new URL(request.url).searchParams.get("upgradeId"));
  if (!ipfsUpgradeId) throw notFound();
  const upgrade = await apiFor(request, viewer).load("/sys/ipfsBusiness/ipfsUpgrade/detail", { ipfsUpgradeId });
  return json({ upgrade, language: viewer.language });
}

export default function IpfsUpgradeDetail() {
  const { upgrade: u, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("ipfs");
  return (
    <div className="max-w-3xl space-y-4">
      <PageHeader
        title={t("upgrade.detailTitle", { name: u.serviceName })}
        actions={
          <>
            <Link className="btn-secondary" to={serviceHref(u.ipfsServiceId)}>
              {t("upgrade.backToService")}
            </Link>
          </>
        }
      />
      <section className="card">
        <dl className="grid gap-4 sm:grid-cols-3">
          <Field label={t("upgrade.status")}>
            <UpgradeStatusBadge status={u.status} />
          </Field>
          <Field label={t("upgrade.from")}>
            <span data-testid="upgrade-from">{capacityLabel(u.fromStoreUnit)}</span>
          </Field>
          <Field label={t("upgrade.to")}>
            <span data-testid="upgrade-to">{capacityLabel(u.toStoreUnit)}</span>
          </Field>
          <Field label={t("upgrade.priceDiff")}>
            <span className="tabular-nums" data-testid="upgrade-price">
              {formatUsd(u.priceDiffCents, language)}
            </span>
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
          <Field label={t("upgrade.taken")}>{u.takenAt ? formatDate(u.takenAt, language, true) : "—"}</Field>
          <Field label={t("upgrade.decided")}>{u.decidedAt ? formatDate(u.decidedAt, language, true) : "—"}</Field>
          {u.status === IpfsUpgradeStatus.FAILED ? (
            <Field label={t("upgrade.refunded")}>
              <span className="tabular-nums">{formatUsd(u.refundCents, language)}</span>
            </Field>
          ) : null}
        </dl>
      </section>
      <p className="text-sm text-slate-600" data-testid="upgrade-explain">
        {t(`upgrade.explain.${u.status}`, { to: capacityLabel(u.toStoreUnit) })}
      </p>
      {u.failReason ? (
        <p className="card text-sm" data-testid="upgrade-reason">
          <span className="font-semibold">{t("upgrade.failReason")}:</span> {u.failReason}
        </p>
      ) : null}
    </div>
  );
}
