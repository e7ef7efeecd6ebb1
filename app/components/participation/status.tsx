import { useTranslation } from "react-i18next";
import type { ListStatus } from "#contract/participation.ts";
import { formatDate } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { AuditState } from "#contract/participation-codes.ts";

/** Shared pieces of the participation pages (docs/decisions/013). */

const LIST_TONE: Record<ListStatus, string> = {
  reviewing: "bg-amber-50 text-amber-800 ring-amber-200",
  rejected: "bg-red-50 text-red-700 ring-red-200",
  toConfirm: "bg-blue-50 text-blue-700 ring-blue-200",
  confirmed: "bg-green-50 text-green-700 ring-green-200",
  deactivated: "bg-slate-100 text-slate-700 ring-slate-200",
  uninstalled: "bg-slate-100 text-slate-500 ring-slate-200",
};
const badge = "inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1";

export function ListStatusBadge({ status }: { status: ListStatus }) {
  const { t } = useTranslation("participation");
  return (
    <span data-testid="list-status" className={`${badge} ${LIST_TONE[status]}`}>
      {t(`listStatus.${status}`)}
    </span>
  );
}

export function AuditBadge({ auditState }: { auditState: number }) {
  const { t } = useTranslation("participation");
  const tone =
    auditState === AuditState.PUBLISHER_REJECTED || auditState === AuditState.OPERATOR_REJECTED
      ? LIST_TONE.rejected
      : auditState === AuditState.CONFIRMED
        ? LIST_TONE.confirmed
        : auditState === AuditState.WORK_ORDER_DONE
          ? LIST_TONE.toConfirm
          : LIST_TONE.reviewing;
  return (
    <span data-testid="audit-state" className={`${badge} ${tone}`}>
      {t(`audit.${auditState}`)}
    </span>
  );
}

type Step = { event: string; actorKind: string; comments: string | null; createdAt: string; toState: number };

/** The approval records and timeline of a participation: every step with actor, time and comments. */
export function Timeline({ steps, language }: { steps: Step[]; language: Language }) {
  const { t } = useTranslation("participation");
  return (
    <ol className="space-y-2 border-l-2 border-slate-200 pl-4" data-testid="timeline">
      {steps.map((s, i) => (
        <li key={i} className="text-sm">
          <p>
            <span className="font-medium">{t(`events.${s.event}`)}</span>
            <span className="text-slate-500">
              {" "}
              · {t(`actors.${s.actorKind}`)} · {formatDate(s.createdAt, language, true)}
            </span>
          </p>
          {s.comments ? (
            <p className="text-slate-700" data-testid="timeline-comments">
              {t("detail.comments")}: {s.comments}
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
