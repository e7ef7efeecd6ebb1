import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { supportedLanguages } from "#app/lib/i18n.ts";

/** A plain link per language: works without JavaScript (SPEC §1, issue "Foundation" §4). */
export function LanguageSwitch({ className = "" }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const back = location.pathname + location.search;
  return (
    <nav aria-label={t("language.label")} className={`flex items-center gap-1 text-sm ${className}`}>
      {supportedLanguages.map((lng) => (
        <a
          key={lng}
          href={`/g/lang?lng=${encodeURIComponent(lng)}&redirectTo=${encodeURIComponent(back)}`}
          lang={lng}
          hrefLang={lng}
          aria-current={i18n.language === lng ? "true" : undefined}
          className={`rounded px-2 py-1 ${i18n.language === lng ? "bg-brand-600 text-white" : "text-slate-600 hover:bg-slate-100"}`}
        >
          {t(`language.${lng}`)}
        </a>
      ))}
    </nav>
  );
}
