import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Table, td } from "#app/components/Table.tsx";
import { CrossStatusBadge } from "#app/components/cross-chain/badges.tsx";
import { CROSS_CHAIN_INDEX, dredgeHref } from "#app/lib/cross-chain-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { CrossStatus } from "#contract/cross-chain-codes.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["crossChain"],
  breadcrumb: [{ key: "titles.crossChain", to: CROSS_CHAIN_INDEX }, { key: "titles.crossChainSelect" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("crossChainSelect");

/**
 * SPEC §2 CrossChainService/SelectService: the user's running services (verState 25), each one either chosen
 * (on to Dredge) or with the §5/§8 reason it cannot be opened now, as the backend decides it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const rows = await apiFor(request, viewer).load("/sys/crossChain/selectable", {});
  return json({ rows });
}

export default function SelectService() {
  const { rows } = useLoaderData<typeof loader>();
  const { t } = useTranslation("crossChain");
  return (
    <div className="space-y-6">
      <PageHeader title={t("select.title")} description={t("select.intro")} />
      {rows.length === 0 ? (
        <EmptyState
          message={t("select.empty")}
          action={
            <>
              <p className="mt-3">
                <Link className="btn-primary" to="/g/home/PermissionedServices/PublishedServices">
                  {t("select.publish")}
                </Link>
              </p>
            </>
          }
          testId="empty"
        />
      ) : (
        <Table
          label={t("select.title")}
          regionTestId="selectable"
          head={[
            t("index.service"),
            t("select.framework"),
            t("index.chain"),
            t("select.protocols"),
            t("index.status"),
            t("index.actions"),
          ]}
        >
          {rows.map((s) => (
            <tr key={s.appId} data-testid="selectable-row">
              <td className={td}>
                <span className="font-medium">{s.name}</span>
                <span className="block font-mono text-xs text-slate-600">{s.appCode}</span>
              </td>
              <td className={td}>{t(`frameworks.${s.framework}`, { defaultValue: s.framework })}</td>
              <td className={td}>
                {s.chainName ? <span className="font-mono text-xs">{s.chainName}</span> : t("index.noChain")}
              </td>
              <td className={td}>
                {s.protocols.length ? s.protocols.map((p) => t(`protocols.${p}.name`)).join(", ") : "—"}
              </td>
              <td className={td}>
                {s.crossStatus === CrossStatus.CLOSED || s.crossStatus === CrossStatus.DEACTIVATED ? (
                  "—"
                ) : (
                  <CrossStatusBadge status={s.crossStatus} />
                )}
              </td>
              <td className={td}>
                {s.canOpen ? (
                  <Link
                    className="btn-primary text-sm"
                    to={dredgeHref(s.appId)}
                    aria-label={t("select.chooseName", { name: s.name })}
                  >
                    {t("select.choose")}
                  </Link>
                ) : (
                  <p className="text-sm text-slate-600" data-testid="why-not">
                    <span className="sr-only">{t("select.why")}: </span>
                    {s.reason ? t(`errors:${s.reason}`) : "—"}
                  </p>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}
