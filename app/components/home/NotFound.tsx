import { Link, useMatches } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { BreadcrumbHandle } from "#app/components/Breadcrumbs.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { handleNamespaces } from "#app/lib/namespaces.ts";

/** Where the console starts (SPEC §2): the way back when a page has no list of its own. */
const CONSOLE_HOME = "/g/home/index";

/**
 * What a console page says when what it shows does not exist, or is not the viewer's (a 404 its loader
 * threw, issue 30 item 10; docs/decisions/066): inside the shell, with the menu. It names the page that
 * was asked for (the last crumb of the matched routes' `handle.breadcrumb`) and links to its list (the
 * nearest crumb with an address); an unknown /g/home path (g.home.$.tsx) has neither, and says so. A plain
 * not-found offers no "Try again": nothing went wrong that trying again would fix.
 */
export function ConsoleNotFound() {
  const matches = useMatches();
  const { t } = useTranslation(["common", ...new Set(matches.flatMap((m) => handleNamespaces(m.handle)))]);
  const crumbs = matches.flatMap((m) => (m.handle as BreadcrumbHandle | undefined)?.breadcrumb ?? []);
  const page = crumbs.at(-1);
  const list = [...crumbs].reverse().find((c) => c.to);
  return (
    <section className="space-y-4" data-testid="not-found">
      <PageHeader title={t("common:notFound.title")} />
      <div role="alert" className="card space-y-3">
        <p className="text-slate-800" data-testid="not-found-what">
          {page ? t("common:notFound.what", { what: t(page.key) }) : t("common:notFound.page")}
        </p>
        <p className="text-sm text-slate-600">{page ? t("common:notFound.whyRecord") : t("common:notFound.whyPage")}</p>
        <p>
          {list ? (
            <Link to={list.to!} className="btn-primary" data-testid="not-found-list">
              {t("common:notFound.toList", { list: t(list.key) })}
            </Link>
          ) : (
            <Link to={CONSOLE_HOME} className="btn-primary" data-testid="not-found-list">
              {t("common:notFound.toConsole")}
            </Link>
          )}
        </p>
      </div>
    </section>
  );
}
