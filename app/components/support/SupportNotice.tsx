import { useTranslation } from "react-i18next";
import { formatDate } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";

/**
 * SPEC §9 support hours (weekdays 8:00-17:30, UTC+8): open now or not, when it opens, and when a question asked now
 * gets its reply (contract/support-codes.ts supportNotice, computed by the loader at the request's time).
 */
export function SupportNotice({
  notice,
  language,
}: {
  notice: { open: boolean; opensAt: string | null; replyBy: string };
  language: Language;
}) {
  const { t } = useTranslation("support");
  return (
    <aside
      aria-label={t("hours.label")}
      data-testid="support-notice"
      className={`rounded-md border p-3 text-sm ${notice.open ? "border-green-200 bg-green-50 text-green-900" : "border-amber-200 bg-amber-50 text-amber-900"}`}
    >
      <p className="font-semibold">
        {notice.open ? t("hours.open") : t("hours.closed", { opensAt: formatDate(notice.opensAt, language, true) })}
      </p>
      <p>{t("hours.hours")}</p>
      <p>{t("hours.replyBy", { replyBy: formatDate(notice.replyBy, language, true) })}</p>
    </aside>
  );
}
