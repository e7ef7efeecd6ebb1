import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

const SOCIAL = [
  { key: "github", href: "https://github.com/BSNDA" },
  { key: "twitter", href: "https://twitter.com/BSNbase" },
  { key: "linkedin", href: "https://www.linkedin.com/company/blockchain-based-service-network" },
];

/** SPEC §2 footer: privacy statement and agreement links, social links. */
export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-6 text-sm text-slate-600 md:flex-row md:items-center md:justify-between">
        <p>
          © {new Date().getUTCFullYear()} {t("brand")}
        </p>
        <nav aria-label={t("footer.legal")} className="flex flex-wrap gap-4">
          <Link className="link" to="/g/main/PrivacyStatement">
            {t("footer.privacyStatement")}
          </Link>
          <Link className="link" to="/g/main/PrivateAgreement">
            {t("footer.agreement")}
          </Link>
          <Link className="link" to="/g/main/privacy">
            {t("footer.privacy")}
          </Link>
          <Link className="link" to="/g/main/contactUs">
            {t("nav.contactUs")}
          </Link>
          <Link className="link" to="/g/main/announcements">
            {t("nav.announcements")}
          </Link>
          <Link className="link" to="/g/main/serviceNetworkLeague">
            {t("nav.partners")}
          </Link>
          <Link className="link" to="/g/main/technicalSupport">
            {t("nav.technicalSupport")}
          </Link>
          <Link className="link" to="/g/main/subscribes">
            {t("nav.subscribes")}
          </Link>
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
