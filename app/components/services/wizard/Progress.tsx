import { useTranslation } from "react-i18next";
import { VerState } from "#contract/service-status.ts";

/** The stages a submitted version goes through (SPEC §4), in order, and the states that sit at each. */
const STAGES = [
  { key: "initialReview", at: [VerState.PENDING_INITIAL_REVIEW, VerState.INITIAL_REVIEW_REJECTED] },
  { key: "test", at: [VerState.PENDING_TEST, VerState.TEST_FAILED] },
  { key: "review", at: [VerState.PENDING_REVIEW, VerState.REVIEW_REJECTED] },
  { key: "pay", at: [VerState.TO_BE_PAID] },
  { key: "deploy", at: [VerState.PENDING_PUBLISH, VerState.PUBLISH_FAILED] },
  { key: "running", at: [VerState.RUNNING] },
] as const;

/**
 * Where a submitted service is and what happens next (issue 30 item 14): the stages from the initial review to
 * running, the current one marked, the ones before it done. A state outside the path (deactivated, uninstalled)
 * shows no stages.
 */
export function SubmittedProgress({ verState }: { verState: number }) {
  const { t } = useTranslation("wizard");
  const current = STAGES.findIndex((s) => (s.at as readonly number[]).includes(verState));
  if (current < 0) return null;
  return (
    <ol className="space-y-2" aria-label={t("progress.label")} data-testid="wizard-progress">
      {STAGES.map((stage, i) => {
        const state = i < current ? "done" : i === current ? "current" : "next";
        return (
          <li
            key={stage.key}
            className="flex gap-3 text-sm"
            aria-current={state === "current" ? "step" : undefined}
            data-state={state}
          >
            <span
              aria-hidden="true"
              className={`mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${
                state === "done"
                  ? "bg-emerald-600 text-white"
                  : state === "current"
                    ? "bg-brand-600 text-white"
                    : "bg-slate-200 text-slate-700"
              }`}
            >
              {state === "done" ? "✓" : i + 1}
            </span>
            <span>
              <span className={state === "current" ? "font-semibold text-slate-900" : "text-slate-700"}>
                {t(`progress.${stage.key}.title`)}
              </span>
              <span className="sr-only"> ({t(`progress.${state}`)})</span>
              <span className="block text-slate-600">{t(`progress.${stage.key}.body`)}</span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}
