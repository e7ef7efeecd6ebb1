import { useTranslation } from "react-i18next";

/**
 * On every page while the sandbox provider takes the payments (docs/decisions/020): nothing paid here is
 * real money. Not dismissable, so that a screenshot of any page says it too.
 */
export function TestModeBanner() {
  const { t } = useTranslation();
  return (
    <section
      aria-label={t("testMode.title")}
      data-testid="test-mode-banner"
      className="border-b border-amber-300 bg-amber-100 px-4 py-1.5 text-center text-sm text-amber-900"
    >
      <strong>{t("testMode.title")}</strong> {t("testMode.text")}
    </section>
  );
}
