import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { jobRetrySchema } from "#contract/operations.ts";
import { FailedJobCard, RetryConfirmStep } from "#app/components/operations/FailedJobs.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { apiFor, badRequest, redirectAfter, requireOperator } from "#app/lib/api.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["operations"], breadcrumb: [{ key: "titles.failedJobs" }] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("failedJobs");

const PAGE_SIZE = 20;

/**
 * Operations: the background jobs that used up their attempts (the dead-letter list, docs/decisions/005),
 * the latest first, each with a Retry that puts it back in the queue now. Operators only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const data = await apiFor(request, viewer).load("/sys/ops/jobs/failedList", {
    pageIndex: pageParam(new URL(request.url)),
    pageSize: PAGE_SIZE,
  });
  return json({ ...data, language: viewer.language });
}

/** One intent, `retry`: confirmed first (without JavaScript the first post answers the confirm step); anything else is a 400. */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const form = await request.formData();
  const parsed = jobRetrySchema.safeParse({ jobId: form.get("jobId") });
  if (form.get("intent") !== "retry" || !parsed.success) throw badRequest();
  if (form.get("confirmed") !== "yes") return json({ confirm: parsed.data.jobId });
  const url = new URL(request.url);
  const result = await apiFor(request, viewer).call("/sys/ops/jobs/retry", parsed.data);
  return redirectAfter(request, result, url.pathname + url.search, "operations:failedJobs.retried");
}

export default function FailedJobs() {
  const { page, language } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const { t } = useTranslation("operations");
  const confirming = reply
    ? (page.rows.find((r) => r.jobId === reply.confirm) ?? { jobId: reply.confirm, kind: "" })
    : null;
  return (
    <section className="space-y-4">
      <div className="space-y-1">
        <h2 className="text-lg font-semibold">{t("failedJobs.title")}</h2>
        <p className="text-sm text-slate-600">{t("failedJobs.intro")}</p>
      </div>
      {confirming ? <RetryConfirmStep job={confirming} /> : null}
      {page.rows.length === 0 ? (
        <EmptyState message={t("failedJobs.empty")} />
      ) : (
        <ul className="space-y-3">
          {page.rows.map((job) => (
            <FailedJobCard key={job.jobId} job={job} language={language} />
          ))}
        </ul>
      )}
      <Pagination pageIndex={page.pageIndex} pageSize={page.pageSize} total={page.total} />
    </section>
  );
}
