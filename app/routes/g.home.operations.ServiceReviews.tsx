import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { reviewDecisionSchema } from "#contract/services.ts";
import { approveReject, DecisionForm } from "#app/components/ReviewRow.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { StatusBadge } from "#app/components/services/badges.tsx";
import { ServiceNameSearch } from "#app/components/services/NameSearch.tsx";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { decideQueueItem, queueDecision } from "#app/lib/operations-review.server.ts";
import { oneOf, pageParam } from "#app/lib/params.ts";
import type { DataOf } from "#contract/paths.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["services", "payments"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.serviceReviews" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("serviceReviews");

const QUEUES = ["initial", "final"] as const;
type Queue = (typeof QUEUES)[number];
type Item = DataOf<"/sys/ops/serviceReviews/list">["page"]["rows"][number];

function readQuery(url: URL) {
  const queue: Queue = oneOf(QUEUES, url.searchParams.get("queue")) ?? "initial";
  const page = pageParam(url);
  const name = (url.searchParams.get("name") ?? "").trim().slice(0, 50);
  return { queue, name, page };
}

const queryOf = (queue: Queue, name: string) => `?${new URLSearchParams(name ? { queue, name } : { queue })}`;

/**
 * Operations: the initial-review queue (verState 5) and the final-review queue (15, with the test report).
 * Each item shows what the publisher submitted; approve, or reject with comments (required). Operators only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const { queue, name, page } = readQuery(new URL(request.url));
  const data = await apiFor(request, viewer).load("/sys/ops/serviceReviews/list", {
    queue,
    name: name || undefined,
    pageIndex: page,
    pageSize: 10,
  });
  return json({ ...data, queue, name, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  return decideQueueItem(request, {
    idName: "appVerId",
    confirm: true,
    decisions: {
      review: queueDecision({
        schema: reviewDecisionSchema,
        decide: (v) => apiFor(request, viewer).call("/sys/ops/serviceReviews/decide", v),
        flash: (v) => ({ approve: "services:flash.approved", reject: "services:flash.rejected" })[v.decision],
      }),
    },
  });
}

function VersionContents({ item, language }: { item: Pick<Item, "contents">; language: Language }) {
  const { t } = useTranslation("services");
  const c = item.contents;
  return (
    <div className="grid gap-3 text-sm lg:grid-cols-2">
      <div>
        <h3 className="font-semibold">{t("detail.packages")}</h3>
        <ul className="list-disc pl-5">
          {c.packages.map((p) => (
            <li key={p.packageId}>
              <span data-user-content>{p.name}</span> {p.version} ·{" "}
              {t(`languages.${p.language}`, { defaultValue: p.language })} ·{" "}
              <span className="font-mono text-xs">{p.mainPath}</span> · <span data-user-content>{p.fileName}</span> (
              {Math.ceil(p.size / 1024)} KB)
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h3 className="font-semibold">{t("detail.functions")}</h3>
        <ul className="list-disc pl-5">
          {c.functions.map((f) => (
            <li key={f.functionId}>
              <span data-user-content>{f.name}</span> · <span className="font-mono text-xs">{f.func}</span> (
              <span data-user-content>{f.packageName}</span>, {t(`detail.funcTypes.${f.funcType}`)})
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h3 className="font-semibold">{t("detail.tabs.roles")}</h3>
        <ul className="list-disc pl-5">
          {c.roles.map((r) => (
            <li key={r.roleId}>
              <span data-user-content>{r.name}</span>: <span data-user-content>{r.functions.join(", ")}</span>
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h3 className="font-semibold">{t("detail.nodes")}</h3>
        <ul className="list-disc pl-5">
          {c.nodes.map((n) => (
            <li key={n.cityNodeId}>
              {language === "zh-CN" ? n.nameZh : n.name} · {n.tps} TPS · {n.capacityGb} GB · {n.peers}
            </li>
          ))}
        </ul>
        <p className="mt-1">
          <span className="font-semibold">{t("detail.cost")}:</span>{" "}
          {c.costCents === null ? t("detail.none") : formatUsd(c.costCents, language)}
        </p>
      </div>
    </div>
  );
}

function ReviewItem({ item, queue, language }: { item: Item; queue: Queue; language: Language }) {
  const { t } = useTranslation("services");
  const report = item.contents.testReport;
  return (
    <li className="card space-y-3" data-testid="review-item" aria-labelledby={`review-title-${item.appVerId}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`review-title-${item.appVerId}`} className="font-semibold">
          <span data-user-content>{item.name}</span> <span className="font-normal text-slate-500">{item.version}</span>
        </h2>
        <StatusBadge verState={item.verState} />
      </div>
      <p className="text-xs text-slate-500">
        {t("ops.publisher")}: <span data-user-content>{item.publisher}</span> · {t("ops.submitted")}:{" "}
        {formatDate(item.submittedAt, language, true)}
      </p>
      <VersionContents item={item} language={language} />
      {queue === "final" ? (
        <div className="text-sm">
          <h3 className="font-semibold">{t("ops.testReport")}</h3>
          {report && report.passed ? (
            <p className="text-green-700">{t("ops.testPassed")}</p>
          ) : (
            <ul className="list-disc pl-5 text-red-700">
              {report?.reasons.map((r, i) => (
                <li key={i}>{t(r.key, r.params)}</li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
      <DecisionForm
        id={`review-${item.appVerId}`}
        intent="review"
        idName="appVerId"
        idValue={item.appVerId}
        subject={item.name}
        decisions={approveReject(t)}
        comments={{ label: t("ops.comments"), hint: t("ops.commentsHint") }}
      />
    </li>
  );
}

export default function ServiceReviews() {
  const { page, queue, name, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("services");
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold">{t("ops.reviewsTitle")}</h2>
      <nav aria-label={t("ops.reviewsTitle")} className="flex gap-2 text-sm">
        {QUEUES.map((q) => (
          <Link
            key={q}
            to={queryOf(q, name)}
            aria-current={queue === q ? "page" : undefined}
            className={`rounded-full px-3 py-1 ${queue === q ? "bg-brand-600 text-white" : "bg-white text-slate-700 ring-1 ring-slate-200"}`}
          >
            {t(`ops.queues.${q}`)}
          </Link>
        ))}
      </nav>
      <ServiceNameSearch id="review-service-name" name={name} keep={{ queue }} clearTo={queryOf(queue, "")} />
      {page.rows.length === 0 ? (
        <EmptyState message={name ? t("list.emptySearch") : t("ops.empty")} />
      ) : (
        <ul className="space-y-4">
          {page.rows.map((item) => (
            <ReviewItem key={item.appVerId} item={item} queue={queue} language={language} />
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </div>
  );
}
