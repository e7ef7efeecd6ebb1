import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PlanStatus } from "#contract/public-chain-codes.ts";
import { Pagination } from "#app/components/Pagination.tsx";
import { SearchForm } from "#app/components/SearchForm.tsx";
import { inLanguage } from "#app/components/details.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { ConsoleTabs, PlanStatusBadge, ProjectStatusBadge } from "#app/components/public-chain/badges.tsx";
import { PC, accountsHref, projectHref } from "#app/lib/public-chain-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam, positiveId, searchParam } from "#app/lib/params.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["publicChain", "services"],
  breadcrumb: [{ key: "menu.permissionlessServices", to: PC }, { key: "titles.publicChainHome" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("publicChainHome");

const PAGE_SIZE = 10;

/** SPEC §2 PermissionlessServices Home, the open-alliance console: my plans and my projects (§4 statuses). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const name = searchParam(url.searchParams);
  const api = apiFor(request, viewer);
  const plans = await api.load("/sys/opc/plan/list", {});
  const wanted = positiveId(url.searchParams.get("planId"));
  const planId = wanted && plans.some((p) => p.planId === wanted) ? wanted : null;
  const projects = await api.load("/sys/opc/project/list", {
    pageIndex: pageParam(url),
    pageSize: PAGE_SIZE,
    ...(planId ? { planId } : {}),
    ...(name ? { name } : {}),
  });
  return json({ plans, page: projects.page, name, planId: planId ? String(planId) : "", language: viewer.language });
}

export default function PublicChainHome() {
  const { plans, page, name, planId, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("publicChain");
  const planLabel = (p: (typeof plans)[number]) =>
    `${inLanguage(p.planName, p.planNameZh, language)} · ${inLanguage(p.orgName, p.orgNameZh, language)}`;
  return (
    <div className="space-y-6">
      <PageHeader title={t("home.title")} />
      <ConsoleTabs current="home" />
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">{t("home.plans")}</h2>
        {plans.length === 0 ? (
          <p className="card text-slate-600" data-testid="no-plans">
            {t("home.noPlans")}{" "}
            <Link to={PC} className="link">
              {t("home.buyFirst")}
            </Link>
          </p>
        ) : (
          <Table
            label={t("home.plans")}
            regionTestId="plan-list"
            head={[
              t("home.plan"),
              t("home.status"),
              t("home.projects"),
              zoneHeader(t, t("home.expires")),
              t("home.bill"),
              t("index.actions"),
            ]}
          >
            {plans.map((p) => (
              <tr key={p.planId} data-testid="plan-row">
                <td className={td}>{planLabel(p)}</td>
                <td className={td}>
                  <PlanStatusBadge status={p.status} />
                </td>
                <td className={td}>{t("home.projectCount", { used: p.projectNum, max: p.projectMax })}</td>
                <td className={td}>{formatDate(p.expiresAt, language, true, false)}</td>
                <td className={`${td} font-mono text-xs`}>
                  {p.billId ? (
                    <Link className="link" to={`/g/home/userCenter/BillDetail?billId=${p.billId}`}>
                      {p.billNo}
                    </Link>
                  ) : (
                    "—"
                  )}
                </td>
                <td className={td}>
                  {p.status !== PlanStatus.ACTIVE ? (
                    <span className="text-xs text-slate-600">{t("home.planDeactivated")}</span>
                  ) : p.projectNum >= p.projectMax ? (
                    <span className="text-xs text-slate-600">{t("home.limitReached")}</span>
                  ) : (
                    <Link className="btn-primary !py-1" to={`${PC}/NewProject?planId=${p.planId}`}>
                      {t("home.createProject")}
                    </Link>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </section>
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">{t("home.projectsTitle")}</h2>
        <SearchForm
          idPrefix="pcp"
          search={{ label: t("home.search"), value: name }}
          filter={{
            name: "planId",
            label: t("home.plan"),
            value: planId,
            allLabel: t("home.allPlans"),
            options: plans.map((p) => ({ value: p.planId, label: planLabel(p) })),
          }}
          submit={{ label: t("index.filter"), className: "btn-secondary" }}
        />
        {page.rows.length === 0 ? (
          <EmptyState message={name || planId ? t("home.emptyFiltered") : t("home.empty")} testId="empty" />
        ) : (
          <Table
            label={t("home.projectsTitle")}
            regionTestId="project-list"
            head={[
              t("project.name"),
              t("project.node"),
              t("project.status"),
              t("project.daily"),
              zoneHeader(t, t("project.created")),
              t("index.actions"),
            ]}
          >
            {page.rows.map((p) => (
              <tr key={p.projectId} data-testid="project-row">
                <td className={td} data-user-content="">
                  <Link className="link" to={projectHref(p.projectId)}>
                    {p.name}
                  </Link>
                </td>
                <td className={td}>{inLanguage(p.orgName, p.orgNameZh, language)}</td>
                <td className={td}>
                  <ProjectStatusBadge status={p.status} />
                </td>
                <td className={`${td} tabular-nums`}>
                  {t("project.usedOf", {
                    used: p.requestsToday.toLocaleString(language),
                    max: p.dailyRequests.toLocaleString(language),
                  })}
                </td>
                <td className={td}>{formatDate(p.createdAt, language, true, false)}</td>
                <td className={`${td} space-x-3`}>
                  <Link className="link" to={projectHref(p.projectId)}>
                    {t("project.detail")}
                  </Link>
                  <Link className="link" to={accountsHref(p.projectId)}>
                    {t("project.accounts")}
                  </Link>
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
      </section>
    </div>
  );
}
