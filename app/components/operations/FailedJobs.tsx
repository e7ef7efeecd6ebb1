import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { FailedJob } from "#contract/operations.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { IntentConfirmStep } from "#app/components/IntentConfirmStep.tsx";
import { formatDate } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";

/** A job kind in words (common.json jobKinds), with the kind itself for operators who search the logs. */
function KindName({ kind }: { kind: string }) {
  const { t } = useTranslation();
  return (
    <>
      {t(`jobKinds.${kind}`, { defaultValue: kind })}{" "}
      <span className="font-mono text-xs font-normal text-slate-500">{kind}</span>
    </>
  );
}

/**
 * One dead job in the operations area (docs/decisions/005): what it is, whom it concerns, its attempts and
 * last error, and Retry, confirmed first (a dialog with JavaScript, the confirm step without).
 */
export function FailedJobCard({ job, language }: { job: FailedJob; language: Language }) {
  const { t } = useTranslation("operations");
  const location = useLocation();
  const formId = `retry-job-${job.jobId}`;
  const when = (iso: string) => formatDate(iso, language, true);
  return (
    <li
      className="card grid gap-4 p-4 md:grid-cols-[1fr_auto]"
      data-testid="failed-job"
      data-job-id={job.jobId}
      aria-labelledby={`${formId}-title`}
    >
      <div className="min-w-0 space-y-1 text-sm">
        <h3 id={`${formId}-title`} className="font-semibold">
          {t("failedJobs.job", { id: job.jobId })} · <KindName kind={job.kind} />
        </h3>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          <dt className="text-slate-500">{t("failedJobs.target")}</dt>
          <dd className="break-all font-mono text-xs" data-testid="target">
            {job.target}
          </dd>
          <dt className="text-slate-500">{t("failedJobs.owner")}</dt>
          <dd data-testid="owner">{job.owner ?? t("failedJobs.nobody")}</dd>
          <dt className="text-slate-500">{t("failedJobs.attempts")}</dt>
          <dd data-testid="attempts">{job.attempts}</dd>
          <dt className="text-slate-500">{t("failedJobs.failedAt")}</dt>
          <dd>{when(job.deadAt)}</dd>
          <dt className="text-slate-500">{t("failedJobs.createdAt")}</dt>
          <dd>{when(job.createdAt)}</dd>
        </dl>
        <p className="text-slate-500">{t("failedJobs.lastError")}</p>
        <pre
          className="whitespace-pre-wrap break-all rounded-md bg-rose-50 p-2 text-xs text-rose-900 ring-1 ring-rose-200"
          data-testid="last-error"
        >
          {job.lastError ?? t("failedJobs.noError")}
        </pre>
        {job.retries > 0 && job.retriedAt ? (
          <p className="text-slate-500">
            {t("failedJobs.retriedBefore", { count: job.retries, date: when(job.retriedAt) })}
          </p>
        ) : null}
      </div>
      <Form method="post" id={formId} action={location.pathname + location.search} className="self-start">
        <input type="hidden" name="jobId" value={job.jobId} />
        <ConfirmSubmit
          formId={formId}
          name="intent"
          value="retry"
          label={t("failedJobs.retry")}
          title={t("failedJobs.retryTitle", { id: job.jobId })}
          question={t("failedJobs.retryQuestion", { id: job.jobId, kind: job.kind })}
          confirmLabel={t("failedJobs.confirm")}
        />
      </Form>
    </li>
  );
}

/** The confirm step of a retry without JavaScript (the action answers it to the first, unconfirmed post). */
export function RetryConfirmStep({ job }: { job: Pick<FailedJob, "jobId" | "kind"> }) {
  const { t } = useTranslation("operations");
  const location = useLocation();
  const here = location.pathname + location.search;
  return (
    <IntentConfirmStep
      id="retry-confirm-title"
      title={t("failedJobs.retryTitle", { id: job.jobId })}
      question={t("failedJobs.retryQuestion", { id: job.jobId, kind: job.kind })}
      intent="retry"
      fields={{ jobId: job.jobId }}
      action={here}
      cancelTo={here}
      confirmLabel={t("failedJobs.confirm")}
      cancelLabel={t("failedJobs.cancel")}
    />
  );
}
