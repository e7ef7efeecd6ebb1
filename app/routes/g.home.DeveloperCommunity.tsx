import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorView } from "#app/components/ErrorView.tsx";
import { requireUser } from "#app/lib/api.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { MENU, withSourceRepository } from "#app/lib/menu.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["community"] };
export const clientLoader = withNamespaces(handle);

/**
 * SPEC §2 DeveloperCommunity (default News_Events): a layout whose tabs are the children of the menu group
 * "developerCommunity" (app/lib/menu.ts), so each area of the community adds its tab there once its page works.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const group = withSourceRepository(MENU, getEnv().SOURCE_REPOSITORY_URL).find((e) => e.key === "developerCommunity");
  const tabs = (group?.children ?? []).filter((c) => c.navigation > 0).sort((a, b) => a.navigation - b.navigation);
  return json({ tabs: tabs.map((c) => ({ key: c.key, to: c.to, newWindow: !!c.newWindow })) });
}

export default function DeveloperCommunity() {
  const { tabs } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="space-y-4">
      <PageHeader title={t("menu.developerCommunity")} />
      <nav
        aria-label={t("menu.developerCommunity")}
        className="flex flex-wrap gap-2 border-b border-slate-200 pb-2 text-sm"
      >
        {tabs.map((tab) =>
          tab.newWindow ? (
            // SPEC §2: OnlineHelp, Documentation and the source repository open in a new window instead of navigating.
            <a
              key={tab.key}
              href={tab.to}
              target="_blank"
              rel="noopener"
              className="rounded-md px-3 py-1.5 text-slate-700 hover:bg-slate-100"
            >
              {t(`menu.${tab.key}`)}
              <span className="sr-only"> ({t("menu.opensInNewWindow")})</span>
            </a>
          ) : (
            <NavLink
              key={tab.key}
              to={tab.to}
              className={({ isActive }) =>
                `rounded-md px-3 py-1.5 ${isActive ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100"}`
              }
            >
              {t(`menu.${tab.key}`)}
            </NavLink>
          ),
        )}
      </nav>
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView />;
}
