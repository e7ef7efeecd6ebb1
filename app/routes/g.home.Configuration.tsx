import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Pagination } from "#app/components/Pagination.tsx";
import { UpgradeTable } from "#app/components/configuration/upgrades.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { positiveParam } from "#app/lib/params.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["configuration", "billing"],
  breadcrumb: [{ key: "menu.permissionedServices" }, { key: "titles.configuration" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("configuration");

/**
 * SPEC §2 Configuration: the caller's configuration upgrades, newest first (optionally of one service,
 * `?appId=`), with number, time, amount, status and payment (§3 Config upgrade application). New upgrades
 * start from a running service's "Config upgrade" (docs/decisions/036).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const appId = positiveParam(url.searchParams.get("appId")) ?? undefined;
  const { page } = await apiFor(request, viewer).load("/sys/configUpgrade/list", { appId, ...pagingOf(url) });
  return json({ page, appId: appId ?? null, language: viewer.language });
}

export default function ConfigurationPage() {
  const { page, appId, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("configuration");
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <PageHeader title={t("title")} />
        {appId ? (
          <Link className="link text-sm" to="/g/home/Configuration">
            {t("allServices")}
          </Link>
        ) : null}
      </div>
      <p className="text-sm text-slate-700">{t("intro")}</p>
      <UpgradeTable rows={page.rows} language={language} />
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
