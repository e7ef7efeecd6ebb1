import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { DataOf } from "#contract/paths.ts";
import { VerState } from "#contract/service-status.ts";
import {
  SERVICE_OPS_FILTERS,
  serviceOpsDecisionSchema,
  type ServiceOpsDecision,
  type ServiceOpsFilter,
} from "#contract/services.ts";
import { Pagination } from "#app/components/Pagination.tsx";
import { DecisionForm } from "#app/components/ReviewRow.tsx";
import { ServiceNameSearch } from "#app/components/services/NameSearch.tsx";
import { StatusBadge } from "#app/components/services/badges.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { decideQueueItem, queueDecision } from "#app/lib/operations-review.server.ts";
import { pageParam } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

// "payments" holds the decision form's shared texts (ReviewRow).
export const handle = { i18n: ["services", "payments"], breadcrumb: [{ key: "titles.runningServices" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("runningServices");

const PAGE_SIZE = 10;
/** Suspending and declining a request need comments (docs/decisions/015); enabling does not. */
const NEED_COMMENTS: readonly ServiceOpsDecision[] = ["suspend", "decline"];
const DONE_KEYS: Record<ServiceOpsDecision, string> = {
  suspend: "services:flash.suspended",
  enable: "services:flash.enabledByOperations",
  decline: "services:flash.enableDeclined",
};
type Row = DataOf<"/sys/ops/services/list">["page"]["rows"][number];

function readQuery(url: URL) {
  const asked = url.searchParams.get("filter") ?? "";
  const filter: ServiceOpsFilter = (SERVICE_OPS_FILTERS as readonly string[]).includes(asked)
    ? (asked as ServiceOpsFilter)
    : "all";
  const name = (url.searchParams.get("name") ?? "").trim().slice(0, 50);
  return { filter, name, page: pageParam(url) };
}

const queryOf = (filter: ServiceOpsFilter, name: string) =>
  `?${new URLSearchParams(name ? { filter, name } : { filter })}`;

/**
 * Operations: services at 25 (running) and 40 (suspended by operations), with the publishers' pending
 * requests to enable first. Suspend a running service (comments required), enable a suspended one, or
 * decline a pending request (comments required); each decision is confirmed first. Operators only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const { filter, name, page } = readQuery(new URL(request.url));
  const data = await apiFor(request, viewer).load("/sys/ops/services/list", {
    filter,
    name: name || undefined,
    pageIndex: page,
    pageSize: PAGE_SIZE,
  });
  return json({ ...data, filter, name, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  return decideQueueItem(request, {
    idName: "appVerId",
    confirm: true,
    needComments: NEED_COMMENTS,
    decisions: {
      decide: queueDecision({
        schema: serviceOpsDecisionSchema,
        // Suspending needs the typed name; the backend compares it with the service's.
        refuse: (v) => (v.decision === "suspend" && !v.confirmName?.trim() ? "forms:validation.nameMismatch" : null),
        decide: (v) => apiFor(request, viewer).call("/sys/ops/services/decide", v),
        flash: (v) => DONE_KEYS[v.decision],
      }),
    },
  });
}

function useDecisionTexts() {
  const { t } = useTranslation("services");
  return {
    label: (d: ServiceOpsDecision) => t(`ops.running.decisions.${d}`),
    question: (d: ServiceOpsDecision, row: Pick<Row, "name" | "version">) =>
      t(`ops.running.questions.${d}`, { name: row.name, version: row.version }),
    /** Suspending is confirmed by typing the service's name (docs/decisions/029). */
    typeToConfirm: (d: ServiceOpsDecision, row: Pick<Row, "name">) =>
      d === "suspend" ? { name: row.name, label: t("confirm.typeName", { name: row.name }) } : undefined,
  };
}

function ServiceItem({ row, language }: { row: Row; language: Language }) {
  const { t } = useTranslation("services");
  const { t: tp } = useTranslation("payments");
  const texts = useDecisionTexts();
  const offered: ServiceOpsDecision[] =
    row.verState === VerState.RUNNING ? ["suspend"] : row.enableRequestedAt ? ["enable", "decline"] : ["enable"];
  const decisions = offered.map((d) => ({
    value: d,
    label: texts.label(d),
    danger: d !== "enable",
    question: texts.question(d, row),
    typeToConfirm: texts.typeToConfirm(d, row),
  }));
  const when = (iso: string) => formatDate(iso, language, true);
  return (
    <li
      className="card grid gap-4 p-4 md:grid-cols-2"
      data-testid="ops-service"
      aria-labelledby={`ops-service-${row.appVerId}-title`}
    >
      <div className="space-y-1 text-sm">
        <h3 id={`ops-service-${row.appVerId}-title`} className="flex flex-wrap items-center gap-2 font-semibold">
          <span data-user-content="">{row.name}</span> <span className="font-normal text-slate-500">{row.version}</span>{" "}
          <StatusBadge verState={row.verState} />
        </h3>
        <p>
          {t("ops.publisher")}: <span data-user-content="">{row.publisher}</span> ·{" "}
          <span className="font-mono text-xs">{row.appCode}</span>
        </p>
        <p className="text-slate-500">
          {t(row.verState === VerState.RUNNING ? "ops.running.runningSince" : "ops.running.suspendedSince", {
            date: when(row.since),
          })}
        </p>
        {row.suspendComments ? (
          <p data-testid="suspend-comments">
            {t("ops.running.suspendComments")}: <span data-user-content="">{row.suspendComments}</span>
          </p>
        ) : null}
        {row.enableRequestedAt ? (
          <div className="rounded-md bg-amber-50 p-2 text-amber-900 ring-1 ring-amber-200" data-testid="enable-request">
            <p className="font-medium">{t("ops.running.requestedAt", { date: when(row.enableRequestedAt) })}</p>
            {row.enableRequestNote ? <p>{row.enableRequestNote}</p> : null}
          </div>
        ) : null}
      </div>
      <DecisionForm
        id={`ops-service-${row.appVerId}`}
        intent="decide"
        idName="appVerId"
        idValue={row.appVerId}
        subject={row.name}
        decisions={decisions}
        comments={{
          label: tp("ops.comments"),
          hint: t(
            row.verState === VerState.RUNNING
              ? "ops.running.hintRunning"
              : row.enableRequestedAt
                ? "ops.running.hintRequested"
                : "ops.running.hintSuspended",
          ),
        }}
      />
    </li>
  );
}

export default function RunningServices() {
  const { page, filter, name, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("services");
  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">{t("ops.running.title")}</h2>
        <nav aria-label={t("ops.running.filterLabel")} className="flex flex-wrap gap-2 text-sm">
          {SERVICE_OPS_FILTERS.map((f) => (
            <Link
              key={f}
              to={queryOf(f, name)}
              aria-current={filter === f ? "page" : undefined}
              className={`rounded-full px-3 py-1 ${filter === f ? "bg-brand-600 text-white" : "bg-white text-slate-700 ring-1 ring-slate-200"}`}
            >
              {t(`ops.running.filters.${f}`)}
            </Link>
          ))}
        </nav>
      </div>
      <ServiceNameSearch id="ops-service-name" name={name} keep={{ filter }} clearTo={queryOf(filter, "")} />
      {page.rows.length === 0 ? (
        <EmptyState message={name ? t("ops.running.emptySearch") : t(`ops.running.empty.${filter}`)} />
      ) : (
        <ul className="space-y-3">
          {page.rows.map((row) => (
            <ServiceItem key={row.appVerId} row={row} language={language} />
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </section>
  );
}
