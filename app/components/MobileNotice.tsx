import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** SPEC §2: on a mobile device only some pages are reachable; the rest ask for a desktop. */
export function MobileNotice() {
  const { t } = useTranslation();
  return (
    <main className="mx-auto max-w-md p-6 text-center">
      <h1 className="text-xl font-semibold">{t("mobile.title")}</h1>
      <p className="mt-3 text-slate-600">{t("mobile.body")}</p>
      <div className="mt-6 flex flex-col gap-2">
        <Link className="btn-primary" to="/g/main/index">{t("mobile.home")}</Link>
        <Link className="btn-secondary" to="/g/main/documentation">{t("nav.documentation")}</Link>
      </div>
    </main>
  );
}
