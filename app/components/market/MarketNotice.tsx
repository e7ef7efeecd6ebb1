import { useTranslation } from "react-i18next";

/** The wizard's first step when a new service starts from a chaincode market package (docs/decisions/042). */
export function MarketNotice({ name, language }: { name: string; language: string }) {
  const { t } = useTranslation("market");
  return (
    <div
      role="note"
      className="rounded-md border border-brand-200 bg-brand-50 px-3 py-2 text-sm text-slate-800"
      data-testid="market-notice"
    >
      <p>{t("wizardNotice", { name, language: t(`languages.${language}`) })}</p>
      {language === "solidity" ? <p className="mt-1">{t("detail.frameworkNote")}</p> : null}
    </div>
  );
}
