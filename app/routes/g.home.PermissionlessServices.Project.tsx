import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { STATS_RANGES } from "#contract/public-chain-codes.ts";
import { FormErrors } from "#app/components/form-parts.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { Field, inLanguage } from "#app/components/details.tsx";
import { ChartHeading, DayChart, byMethod } from "#app/components/public-chain/DayChart.tsx";
import { ProjectActions, ProjectKeyCard } from "#app/components/public-chain/project.tsx";
import { ProjectStatusBadge } from "#app/components/public-chain/badges.tsx";
import { PC, accountsHref, contractsHref, projectHref } from "#app/lib/public-chain-urls.ts";
import { apiFor, failureStatus, redirectAfter, requireUser } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { rpcUsageCsvHref } from "#app/lib/list-exports.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { oneOf } from "#app/lib/params.ts";
import { idParam, siteOrigin } from "#app/lib/public-chain.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["publicChain", "services", "billing"],
  breadcrumb: [
    { key: "menu.permissionlessServices", to: PC },
    { key: "titles.publicChainHome", to: `${PC}/Home` },
    { key: "titles.publicChainProject" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("publicChainProject", (d: { project?: { name: string } }) => d.project?.name);

const RANGES = Object.keys(STATS_RANGES) as (keyof typeof STATS_RANGES)[];
const INTENTS = ["showKey", "regenerateKey", "enableKey", "disableKey", "enable", "deactivate", "redeploy"] as const;
type Intent = (typeof INTENTS)[number];
/** The moves that ask first (a dialog with JavaScript, a confirm step without). */
const CONFIRMED: readonly Intent[] = ["regenerateKey", "disableKey", "deactivate"];

/**
 * SPEC §2 project management: the §4 status, the endpoints /chain/rpc/<key> and /chain/rpc with x-api-key,
 * the key (show, copy, regenerate, enable, disable), enable (11 → 16), deactivate (→ 20), redeploy after a
 * failure with its reason, and the plan's statistics over 7 days / 1 month / 3 months (§9).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const projectId = idParam(request, "projectId");
  const range = oneOf(RANGES, new URL(request.url).searchParams.get("range")) ?? "7d";
  const api = apiFor(request, viewer);
  const [project, stats] = await Promise.all([
    api.load("/sys/opc/project/detail", { projectId }),
    api.load("/sys/opc/project/stats", { projectId, range }),
  ]);
  return json({ project, stats, range, origin: siteOrigin(request), language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const projectId = idParam(request, "projectId");
  const formData = await request.formData();
  const intent = intentOf(formData, INTENTS);
  if (CONFIRMED.includes(intent) && formData.get("confirmed") !== "yes")
    return json({ kind: "confirm" as const, intent });
  const api = apiFor(request, viewer);
  const here = projectHref(projectId);
  if (intent === "showKey" || intent === "regenerateKey") {
    const result = await api.call("/sys/opc/project/key", {
      projectId,
      action: intent === "showKey" ? "show" : "regenerate",
    });
    if (!result.ok)
      return json({ kind: "refused" as const, messageKey: result.messageKey }, { status: failureStatus(result) });
    return json({ kind: "key" as const, apiKey: result.data.apiKey, regenerated: intent === "regenerateKey" });
  }
  if (intent === "enableKey" || intent === "disableKey") {
    const action = intent === "enableKey" ? "enable" : "disable";
    return redirectAfter(
      request,
      await api.call("/sys/opc/project/key", { projectId, action }),
      here,
      `publicChain:key.${action}d`,
    );
  }
  const path = (
    {
      enable: "/sys/opc/project/enable",
      deactivate: "/sys/opc/project/deactivate",
      redeploy: "/sys/opc/project/redeploy",
    } as const
  )[intent];
  return redirectAfter(request, await api.call(path, { projectId }), here, `publicChain:project.${intent}d`);
}

export default function ProjectPage() {
  const { project: p, stats, range, origin, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("publicChain");
  const here = projectHref(p.projectId);
  const confirm = actionData?.kind === "confirm" ? actionData.intent : null;
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("project.title", { name: p.name })}
        actions={
          <>
            <div className="flex gap-3">
              <Link className="btn-secondary" to={accountsHref(p.projectId)}>
                {t("project.accounts")}
              </Link>
              <Link className="btn-secondary" to={contractsHref(p.projectId)}>
                {t("project.contracts")}
              </Link>
            </div>
          </>
        }
      />
      {confirm ? (
        <IntentConfirmStep
          id="project-confirm"
          title={t(`confirm.${confirm}.title`)}
          question={t(`confirm.${confirm}.question`, { name: p.name })}
          intent={confirm}
          fields={{}}
          action={here}
          cancelTo={here}
          confirmLabel={t(`confirm.${confirm}.confirm`)}
          cancelLabel={t("common:actions.cancel")}
          danger
        />
      ) : null}
      {actionData?.kind === "refused" ? <FormErrors errors={[actionData.messageKey]} /> : null}
      <section className="card space-y-4">
        <dl className="grid gap-4 sm:grid-cols-3">
          <Field label={t("project.status")}>
            <ProjectStatusBadge status={p.status} />
          </Field>
          <Field label={t("project.node")}>{inLanguage(p.orgName, p.orgNameZh, language)}</Field>
          <Field label={t("project.framework")}>{t(`framework.${p.framework}`, { defaultValue: p.framework })}</Field>
          <Field label={t("project.chain")}>
            {p.chainId === null ? p.chain : t("project.chainWithId", { chain: p.chain, id: p.chainId })}
          </Field>
          <Field label={t("project.daily")}>
            {t("project.usedOf", {
              used: p.requestsToday.toLocaleString(language),
              max: p.dailyRequests.toLocaleString(language),
            })}
          </Field>
          <Field label={t("project.created")}>{formatDate(p.createdAt, language, true)}</Field>
        </dl>
        {p.failReason ? (
          <div
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700"
            data-testid="fail-reason"
          >
            {t("project.failed", { reason: p.failReason })}
          </div>
        ) : null}
        <ProjectActions project={p} here={here} />
      </section>
      <ProjectKeyCard project={p} origin={origin} here={here} shown={actionData?.kind === "key" ? actionData : null} />
      <section className="card space-y-3">
        <ChartHeading
          title={t("stats.title")}
          keep={{ name: "projectId", value: p.projectId }}
          name="range"
          value={range}
          ranges={RANGES}
          labelOf={(r) => t(`stats.ranges.${r}`)}
        />
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <p className="text-sm text-slate-600" data-testid="stats-total">
            {t("stats.total", { count: stats.total, range: t(`stats.ranges.${range}`) })}
          </p>
          <a href={rpcUsageCsvHref(p.projectId, range)} className="btn-secondary" data-testid="stats-csv" download>
            {t("stats.export")}
          </a>
        </div>
        <DayChart
          data={byMethod(stats)}
          language={language}
          testId="stats"
          unit={t("stats.unit")}
          texts={{
            title: t("stats.title"),
            day: t("stats.day"),
            total: t("stats.dayTotal"),
            showTable: t("stats.showTable"),
            empty: t("stats.none"),
          }}
        />
      </section>
    </div>
  );
}
