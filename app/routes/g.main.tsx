import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorView } from "~/components/ErrorView";
import { Footer } from "~/components/Footer";
import { LanguageSwitch } from "~/components/LanguageSwitch";
import { Logo } from "~/components/Logo";
import { getViewer } from "~/lib/api.server";

/** The public area /g/main (SPEC §2): header with the language switch, pages, footer. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  return json({ signedIn: !!viewer.user, userName: viewer.user?.userName ?? null });
}

export default function PublicLayout() {
  const { signedIn } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const nav = [
    { to: "/g/main/index", label: t("nav.home") },
    { to: "/g/main/documentation", label: t("nav.documentation") },
    { to: "/g/main/contactUs", label: t("nav.contactUs") },
  ];
  return (
    <div className="flex min-h-full flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <Logo />
          <nav aria-label={t("nav.main")} className="flex gap-4 text-sm">
            {nav.map((n) => (
              <NavLink key={n.to} to={n.to} className={({ isActive }) => (isActive ? "font-semibold text-brand-700" : "text-slate-600 hover:text-brand-700")}>
                {n.label}
              </NavLink>
            ))}
          </nav>
          <div className="flex items-center gap-3">
            <LanguageSwitch />
            {signedIn ? (
              <Link to="/g/home/index" className="btn-primary">{t("nav.console")}</Link>
            ) : (
              <>
                <Link to="/g/main/Login/Logins" className="btn-secondary">{t("nav.login")}</Link>
                <Link to="/g/main/register" className="btn-primary">{t("nav.register")}</Link>
              </>
            )}
          </div>
        </div>
      </header>
      <main className="flex-1">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView standalone />;
}
