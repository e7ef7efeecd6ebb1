import { useTranslation } from "react-i18next";
import { payStateTone } from "#app/lib/bills.ts";
import { Badge } from "#app/components/Badge.tsx";

/** A §4 payment status as a coloured badge (the `billing` namespace must be loaded by the route). */
export function PayStateBadge({
  payState,
  overdue = false,
  awaitsFinance = false,
}: {
  payState: number;
  overdue?: boolean;
  /** Waiting for a finance member (a member's spending limit, ADR 080). */
  awaitsFinance?: boolean;
}) {
  const { t } = useTranslation("billing");
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Badge tone={payStateTone(payState)} testId="pay-state">
        {t(`payStates.${payState}`, { defaultValue: String(payState) })}
      </Badge>
      {overdue ? <Badge tone="bad">{t("bills.overdue")}</Badge> : null}
      {awaitsFinance ? (
        <Badge tone="wait" testId="awaits-finance">
          {t("bills.awaitsFinance")}
        </Badge>
      ) : null}
    </span>
  );
}
