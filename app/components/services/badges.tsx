import { useTranslation } from "react-i18next";
import { VerState } from "#contract/service-status.ts";

const TONE: Record<number, string> = {
  [VerState.RUNNING]: "bg-green-50 text-green-800 ring-green-200",
  [VerState.TO_BE_PAID]: "bg-amber-50 text-amber-800 ring-amber-200",
  [VerState.PENDING_PUBLISH]: "bg-sky-50 text-sky-800 ring-sky-200",
  [VerState.PENDING_TEST]: "bg-sky-50 text-sky-800 ring-sky-200",
  [VerState.PENDING_INITIAL_REVIEW]: "bg-sky-50 text-sky-800 ring-sky-200",
  [VerState.PENDING_REVIEW]: "bg-sky-50 text-sky-800 ring-sky-200",
  [VerState.TEST_FAILED]: "bg-red-50 text-red-800 ring-red-200",
  [VerState.INITIAL_REVIEW_REJECTED]: "bg-red-50 text-red-800 ring-red-200",
  [VerState.REVIEW_REJECTED]: "bg-red-50 text-red-800 ring-red-200",
  [VerState.PUBLISH_FAILED]: "bg-red-50 text-red-800 ring-red-200",
};

/** SPEC §4 Service status as a badge. */
export function StatusBadge({ verState }: { verState: number }) {
  const { t } = useTranslation("services");
  return (
    <span
      data-testid="status"
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${TONE[verState] ?? "bg-slate-50 text-slate-700 ring-slate-200"}`}
    >
      {t(`status.${verState}`)}
    </span>
  );
}
