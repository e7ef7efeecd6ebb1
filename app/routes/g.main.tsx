import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorView } from "#app/components/ErrorView.tsx";
import { Footer } from "#app/components/Footer.tsx";
import { LanguageSwitch } from "#app/components/LanguageSwitch.tsx";
import { Logo } from "#app/components/Logo.tsx";
import { getViewer } from "#app/lib/api.server.ts";
import { AnnouncementBanner } from "#app/components/community/content.tsx";
import { bannerAnnouncements } from "#app/lib/community.server.ts";

/** The public area /g/main (SPEC §2): header with the language switch, pages, footer. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  return json({
    signedIn: !!viewer.user,
    userName: viewer.user?.userName ?? null,
    banner: await bannerAnnouncements(request, viewer.language),
  });
}

export default function PublicLayout() {
  const { signedIn, banner } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const nav = [
    { to: "/g/main/index", label: t("nav.home") },
    { to: "/g/main/documentation", label: t("nav.documentation") },
    { to: "/g/main/technicalSupport", label: t("nav.technicalSupport") },
    { to: "/g/main/subscribes", label: t("nav.subscribes") },
    { to: "/g/main/contactUs", label: t("nav.contactUs") },
    { to: "/g/main/announcements", label: t("nav.announcements") },
    { to: "/g/main/serviceNetworkLeague", label: t("nav.partners") },
  ];
  return (
    <div className="flex min-h-full flex-col">
      <header className="relative border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3 xl:flex-nowrap">
          <Logo />
          {/* Wide screens: the navigation and the account links in one row (issue 30 item 6: from 1280 px up, where
              they fit in both languages; narrower screens use the menu button). */}
          <nav aria-label={t("nav.main")} className="hidden gap-4 whitespace-nowrap text-sm xl:flex">
            {nav.map((n) => (
              <NavItem key={n.to} {...n} />
            ))}
          </nav>
          <div className="hidden shrink-0 items-center gap-3 whitespace-nowrap xl:flex">
            <LanguageSwitch />
            <AccountLinks signedIn={signedIn} />
          </div>
          {/* Narrow screens (SPEC §2 mobile): the same behind a menu button; <details> opens without JavaScript. */}
          <details className="group xl:hidden" data-testid="mobile-menu">
            <summary className="btn-secondary cursor-pointer list-none" aria-label={t("nav.menu")}>
              <span aria-hidden="true">☰</span> {t("nav.menu")}
            </summary>
            <div className="absolute inset-x-0 z-30 mt-3 space-y-3 border-b border-slate-200 bg-white px-4 pb-4 shadow-md">
              <nav aria-label={t("nav.main")} className="flex flex-col gap-2 text-sm">
                {nav.map((n) => (
                  <NavItem key={n.to} {...n} />
                ))}
              </nav>
              <LanguageSwitch />
              <div className="flex gap-3">
                <AccountLinks signedIn={signedIn} />
              </div>
            </div>
          </details>
        </div>
      </header>
      <AnnouncementBanner items={banner} />
      <main className="flex-1">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}

function NavItem({ to, label }: { to: string; label: string }) {
  return (
    <NavLink
      to={to}
      className={({ isActive }) => (isActive ? "font-semibold text-brand-700" : "text-slate-600 hover:text-brand-700")}
    >
      {label}
    </NavLink>
  );
}

function AccountLinks({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  return signedIn ? (
    <Link to="/g/home/index" className="btn-primary">
      {t("nav.console")}
    </Link>
  ) : (
    <>
      <Link to="/g/main/Login/Logins" className="btn-secondary">
        {t("nav.login")}
      </Link>
      <Link to="/g/main/register" className="btn-primary">
        {t("nav.register")}
      </Link>
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorView standalone />;
}
