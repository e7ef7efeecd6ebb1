import { useTranslation } from "react-i18next";
import { useAreaNavigation } from "#app/lib/area-navigation.ts";

const SOCIAL = [
  { key: "github", href: "https://github.com/BSNDA" },
  { key: "twitter", href: "https://twitter.com/BSNbase" },
  { key: "linkedin", href: "https://www.linkedin.com/company/blockchain-based-service-network" },
];

/** SPEC §2 footer: privacy statement and agreement links, social links. */
export function Footer() {
  const { t } = useTranslation();
  // Plain anchors that navigate in the app through one listener (issue 34; app/lib/area-navigation.ts).
  const area = useAreaNavigation<HTMLElement>();
  return (
    <footer ref={area} className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-6 text-sm text-slate-600 md:flex-row md:items-center md:justify-between">
        <p>
          © {new Date().getUTCFullYear()} {t("brand")}
        </p>
        <nav aria-label={t("footer.legal")} className="flex flex-wrap gap-4">
          <a className="link" href="/g/main/PrivacyStatement">
            {t("footer.privacyStatement")}
          </a>
          <a className="link" href="/g/main/PrivateAgreement">
            {t("footer.agreement")}
          </a>
          <a className="link" href="/g/main/privacy">
            {t("footer.privacy")}
          </a>
          <a className="link" href="/g/main/contactUs">
            {t("nav.contactUs")}
          </a>
          <a className="link" href="/g/main/announcements">
            {t("nav.announcements")}
          </a>
          <a className="link" href="/g/main/serviceNetworkLeague">
            {t("nav.partners")}
          </a>
          <a className="link" href="/g/main/technicalSupport">
            {t("nav.technicalSupport")}
          </a>
          <a className="link" href="/g/main/subscribes">
            {t("nav.subscribes")}
          </a>
        </nav>
        <nav aria-label={t("footer.social")} className="flex gap-4">
          {SOCIAL.map((s) => (
            <a key={s.key} className="link" href={s.href} target="_blank" rel="noreferrer noopener">
              {t(`footer.${s.key}`)}
            </a>
          ))}
        </nav>
      </div>
    </footer>
  );
}
