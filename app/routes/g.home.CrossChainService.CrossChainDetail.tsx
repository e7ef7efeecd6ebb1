import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { crossSendSchema } from "#contract/cross-chain.ts";
import { Pagination } from "#app/components/Pagination.tsx";
import { DayChart } from "#app/components/public-chain/DayChart.tsx";
import { CROSS_CHAIN_INDEX, exportHref } from "#app/lib/cross-chain-urls.ts";
import { CallFilters, CallsTable, callsPerDay } from "#app/components/cross-chain/calls.tsx";
import { SendForm } from "#app/components/cross-chain/send.tsx";
import { CrossStatePanel } from "#app/components/cross-chain/state.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { allCalls, callFilterOf, chartRange } from "#app/lib/cross-chain.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pagingOf } from "#app/lib/paging.ts";
import { requiredId } from "#app/lib/params.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { fixedT } from "#app/lib/i18n.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { CrossStatus } from "#contract/cross-chain-codes.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["crossChain", "publicChain", "billing", "services"],
  breadcrumb: [{ key: "titles.crossChain", to: CROSS_CHAIN_INDEX }, { key: "titles.crossChainDetail" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("crossChainDetail", (d) => d?.detail?.name);

/**
 * SPEC §2 CrossChainService/CrossChainDetail (appId): the service's live cross-chain state (protocol, contract
 * addresses per chain, relayer) and its call records (§3) with filters (status, days, target), pagination and a
 * CSV export of the same filter; calls per day by status as a chart (a table without JavaScript); and a form that
 * sends a sample message, which the relayer delivers to the target chain.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const appId = requiredId(url, "appId");
  const api = apiFor(request, viewer);
  const filter = callFilterOf(url);
  const detail = await api.load("/sys/crossChain/detail", { appId });
  const range = chartRange(filter);
  const [calls, targets, chartRows] = await Promise.all([
    api.load("/sys/crossChain/calls", { appId, ...filter, ...pagingOf(url) }),
    api.load("/sys/crossChain/targets", { appId }),
    allCalls(api, appId, { ...filter, ...range }, 5_000),
  ]);
  const t = fixedT(viewer.language, "crossChain");
  const chart = callsPerDay(chartRows.rows, range.from, range.to, (s) => t(`callStatus.${s}`));
  return json({
    detail,
    calls: calls.page,
    targets,
    filter,
    chart,
    exportTo: exportHref(appId, url.searchParams),
    language: viewer.language,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const appId = requiredId(url, "appId");
  const formData = await request.formData();
  intentOf(formData, ["send"]);
  formData.set("appId", String(appId));
  const submission = parseWithZod(formData, { schema: crossSendSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/crossChain/send", submission.value);
  if (!result.ok)
    return json(
      { result: replyWithFailure(submission, result) },
      { status: result.status === 404 ? 404 : formFailureStatus(result) },
    );
  url.searchParams.delete("index");
  return redirectWithFlash(request, `${url.pathname}?${url.searchParams}`, {
    kind: "success",
    key: "crossChain:send.done",
    params: { txHash: result.data.sourceTxHash },
  });
}

export default function CrossChainDetail() {
  const { detail, calls, targets, filter, chart, exportTo, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("crossChain");
  const location = useLocation();
  const targetOptions = targets.map((c) => ({
    chainName: c.chainName,
    label:
      c.kind === "openAlliance"
        ? `${t("detail.openAlliance")} (${c.chainName})`
        : `${c.serviceName ?? c.chainName} (${c.chainName})`,
  }));
  return (
    <div className="space-y-6">
      <Link to={CROSS_CHAIN_INDEX} className="link text-sm">
        ← {t("detail.back")}
      </Link>
      <div>
        <PageHeader
          title={
            <>
              {t("detail.title")} · {detail.name}
            </>
          }
        />
        <p className="mt-1 font-mono text-xs text-slate-600">
          {detail.appCode} · {t(`crossChain:frameworks.${detail.framework}`, { defaultValue: detail.framework })}
        </p>
      </div>
      <CrossStatePanel detail={detail} language={language} />
      {detail.crossStatus === CrossStatus.ACTIVATED ? (
        <SendForm
          appId={detail.appId}
          protocol={detail.protocol}
          targets={targetOptions}
          lastResult={actionData?.result}
        />
      ) : (
        <p className="card text-sm text-slate-600" data-testid="not-active">
          {t("detail.notActive")}
        </p>
      )}
      <section className="space-y-3" aria-labelledby="calls-title">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="calls-title" className="text-lg font-semibold">
            {t("detail.calls")}
          </h2>
          <a href={exportTo} className="btn-secondary" download data-testid="export-csv">
            {t("detail.export")}
          </a>
        </div>
        <CallFilters
          appId={detail.appId}
          filter={filter}
          targets={targetOptions.map((o) => o.chainName)}
          action={location.pathname}
        />
        <DayChart
          data={chart}
          language={language}
          testId="calls-chart"
          unit={t("detail.callsUnit")}
          texts={{
            title: t("detail.chartTitle"),
            day: t("detail.day"),
            total: t("detail.total"),
            showTable: t("detail.showTable"),
            empty: t("detail.chartEmpty"),
          }}
        />
        {calls.rows.length === 0 ? (
          <p className="card text-center text-sm text-slate-600" data-testid="calls-empty">
            {t("detail.callsEmpty")}
          </p>
        ) : (
          <CallsTable rows={calls.rows} language={language} />
        )}
        <Pagination pageIndex={calls.pageIndex} pageSize={calls.pageSize} total={calls.total} />
      </section>
    </div>
  );
}
