import { useTranslation } from "react-i18next";
import { payStateTone } from "~/lib/bills";

/** A §4 payment status as a coloured badge (the `billing` namespace must be loaded by the route). */
export function PayStateBadge({ payState, overdue = false }: { payState: number; overdue?: boolean }) {
  const { t } = useTranslation("billing");
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <span data-testid="pay-state" className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${payStateTone(payState)}`}>
        {t(`payStates.${payState}`, { defaultValue: String(payState) })}
      </span>
      {overdue ? <span className="inline-flex rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700 ring-1 ring-inset ring-red-200">{t("bills.overdue")}</span> : null}
    </span>
  );
}
