import { json, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  Outlet,
  useLoaderData,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Breadcrumbs } from "#app/components/Breadcrumbs.tsx";
import { ErrorView } from "#app/components/ErrorView.tsx";
import { Footer } from "#app/components/Footer.tsx";
import { ConsoleNotFound } from "#app/components/home/NotFound.tsx";
import { ConsoleForbidden } from "#app/components/home/Forbidden.tsx";
import { AccountSwitcher } from "#app/components/team/AccountSwitcher.tsx";
import { LanguageSwitch } from "#app/components/LanguageSwitch.tsx";
import { Logo } from "#app/components/Logo.tsx";
import { ProfilePanel } from "#app/components/ProfilePanel.tsx";
import { TopSearch } from "#app/components/search/TopSearch.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { AnnouncementBanner } from "#app/components/community/content.tsx";
import { bannerAnnouncements } from "#app/lib/community.server.ts";
import { shellMenu, type MenuEntry } from "#app/lib/menu.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";
import { useAreaNavigation } from "#app/lib/area-navigation.ts";

export const handle = { i18n: ["home"] };
export const clientLoader = withNamespaces(handle);

/** The logged-in shell of /g/home (SPEC §2 Layout and access). Each child guards itself as well. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const [summary, banner, accounts] = await Promise.all([
    api.load("/main/home/summary", {}),
    bannerAnnouncements(request, viewer.language),
    // The accounts the login acts for (issue 33): the switcher, and the role the menu is cut to.
    api.load("/main/team/accounts", {}),
  ]);
  const teamRole = accounts.find((a) => a.current)?.role ?? "owner";
  return json({
    user: viewer.user,
    summary,
    unread: summary.unreadMessages,
    accounts,
    menu: shellMenu(viewer.user.role, teamRole, getEnv().SOURCE_REPOSITORY_URL),
    userManualUrl: getEnv().USER_MANUAL_URL,
    banner,
  });
}

const isUnder = (pathname: string, path: string) => pathname === path || pathname.startsWith(`${path}/`);

/** Whether a menu entry is the current page, as NavLink decides it (case aside; `exact` is its `end`). */
function isCurrent(pathname: string, to: string, exact: boolean | undefined) {
  const here = pathname.toLowerCase();
  const path = to.toLowerCase();
  const end = path !== "/" && path.endsWith("/") ? path.length - 1 : path.length;
  return here === path || (!exact && here.startsWith(path) && here.charAt(end) === "/");
}

const linkClass = (current: boolean) =>
  `block rounded-md px-3 py-2 text-sm ${current ? "bg-brand-50 font-semibold text-brand-700" : "text-slate-700 hover:bg-slate-100"}`;

/**
 * The left menu (SPEC §2). One component reads the language and the address for every entry, and each entry
 * is plain markup, its links navigating in the app through the menu's one listener (issue 34: a component and
 * a NavLink per entry, each with its own hooks and path resolution, were a measurable part of every console
 * page's server time).
 */
function Menu({ label, entries }: { label: string; entries: MenuEntry[] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const area = useAreaNavigation<HTMLElement>();
  const item = (entry: MenuEntry): React.ReactNode => {
    const label = t(`menu.${entry.key}`);
    if (entry.newWindow) {
      // SPEC §2: opens in a new window instead of navigating.
      return (
        <li key={entry.key}>
          <a href={entry.to} target="_blank" rel="noopener" className={linkClass(false)}>
            {label}
            <span className="sr-only"> ({t("menu.opensInNewWindow")})</span>
          </a>
        </li>
      );
    }
    if (!entry.children?.length) {
      const current =
        (entry.currentUnder !== undefined && isUnder(pathname, entry.currentUnder)) ||
        isCurrent(pathname, entry.to, entry.exact);
      return (
        <li key={entry.key}>
          <a href={entry.to} className={linkClass(current)} aria-current={current ? "page" : undefined}>
            {label}
          </a>
        </li>
      );
    }
    return (
      <li key={entry.key}>
        <p className="px-3 pb-1 pt-4 text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</p>
        <ul className="space-y-1">{entry.children.map(item)}</ul>
      </li>
    );
  };
  return (
    <nav ref={area} aria-label={label} className="p-3">
      <ul className="space-y-1">{entries.map(item)}</ul>
    </nav>
  );
}

type ShellData = SerializeFrom<typeof loader>;

export default function HomeShell() {
  return (
    <Shell data={useLoaderData<typeof loader>()}>
      <Outlet />
    </Shell>
  );
}

/** The console's frame: header, menu, breadcrumbs, and the page (or its not-found) in the main area. */
function Shell({ data, children }: { data: ShellData; children: React.ReactNode }) {
  const { user, unread, menu, userManualUrl, banner, accounts } = data;
  const { t } = useTranslation();
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const panelOpen = params.get("panel") === "profile";
  params.delete("panel");
  const closeHref = location.pathname + (params.size ? `?${params}` : "");
  return (
    <div className="flex min-h-full flex-col">
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
        <div className="flex flex-wrap items-center justify-between gap-3 px-4 py-2">
          <Logo to="/g/home/index" />
          <TopSearch />
          <nav aria-label={t("topbar.label")} className="flex flex-wrap items-center gap-2">
            <AccountSwitcher accounts={accounts} />
            <ProfilePanel
              userName={user.userName}
              realName={user.realName}
              userType={user.userType}
              open={panelOpen}
              closeHref={closeHref}
            />
            <Link
              to="/g/home/userCenter/MessageCenter"
              className="relative rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100"
            >
              {t("topbar.messages")}
              {unread > 0 ? (
                <span
                  data-testid="unread-count"
                  className="ml-1 rounded-full bg-red-600 px-1.5 py-0.5 text-xs font-semibold text-white"
                >
                  <span className="sr-only">{t("topbar.unread")}: </span>
                  {unread}
                </span>
              ) : null}
            </Link>
            <a
              href="/g/main/documentation"
              target="_blank"
              rel="noopener"
              className="rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100"
            >
              {t("topbar.documentation")}
            </a>
            <a
              href={userManualUrl}
              target="_blank"
              rel="noopener"
              className="rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100"
            >
              {t("topbar.userManual")}
            </a>
            <LanguageSwitch />
          </nav>
        </div>
      </header>
      <AnnouncementBanner items={banner} />
      <div className="flex flex-1 flex-col md:flex-row">
        <aside className="border-b border-slate-200 bg-white md:w-56 md:border-b-0 md:border-r">
          <Menu label={t("menu.label")} entries={menu} />
        </aside>
        <main className="flex-1 px-4 py-6 md:px-8">
          <Breadcrumbs operator={user.role === "operator"} />
          <div className="mt-4">{children}</div>
        </main>
      </div>
      <Footer />
    </div>
  );
}

/**
 * A page of the console that does not exist or is not the viewer's (a 404 a page's loader threw, or an
 * unknown /g/home path) is said inside the shell, menu and all (issue 30 item 10; docs/decisions/066). Any
 * other error, and any error of the shell's own loader (it has no data to draw the shell with), replaces
 * the page as before. A page the member's role may not open (a 403, issue 33) is said the same way.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("routes/g.home");
  if (data && isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Shell data={data}>
        <ConsoleNotFound />
      </Shell>
    );
  }
  // A page the member's role may not open (issue 33): a 403 inside the shell, naming the roles that may.
  if (data && isRouteErrorResponse(error) && error.status === 403) {
    const messageKey = (error.data as { messageKey?: unknown } | null)?.messageKey;
    return (
      <Shell data={data}>
        <ConsoleForbidden messageKey={typeof messageKey === "string" ? messageKey : null} />
      </Shell>
    );
  }
  return <ErrorView standalone />;
}
