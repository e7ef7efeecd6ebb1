import { Link, useMatches } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { handleNamespaces } from "#app/lib/namespaces.ts";

/** A crumb; `operatorKey` names it for an operator (the landing is their Operations, issue 30 item 4). */
export type BreadcrumbHandle = { breadcrumb?: { key: string; operatorKey?: string; to?: string }[] };

/**
 * SPEC §2 breadcrumbs, from the `handle.breadcrumb` of the matched routes. Their keys are read in the matched
 * routes' namespaces (`handle.i18n`), which each route's clientLoader has loaded before the page renders
 * (app/lib/namespaces.ts); naming them here also re-renders the trail should one arrive later.
 */
export function Breadcrumbs({ operator = false }: { operator?: boolean }) {
  const matches = useMatches();
  const namespaces = ["common", ...new Set(matches.flatMap((m) => handleNamespaces(m.handle)))];
  const { t } = useTranslation(namespaces);
  // A layout and its page may both name the area ("Operations / Operations"): a crumb repeating the one before is
  // said once (issue 30 item 4).
  const crumbs = matches
    .flatMap((m) => (m.handle as BreadcrumbHandle | undefined)?.breadcrumb ?? [])
    .map((c) => (operator && c.operatorKey ? { ...c, key: c.operatorKey } : c))
    .filter((c, i, all) => i === 0 || c.key !== all[i - 1].key);
  if (crumbs.length === 0) return null;
  return (
    <nav aria-label={t("breadcrumbs")} className="text-sm text-slate-500">
      <ol className="flex flex-wrap items-center gap-1">
        {crumbs.map((c, i) => (
          <li key={c.key + i} className="flex items-center gap-1">
            {i > 0 ? <span aria-hidden="true">/</span> : null}
            {c.to && i < crumbs.length - 1 ? (
              <Link to={c.to} className="hover:text-brand-700">
                {t(c.key)}
              </Link>
            ) : (
              <span
                aria-current={i === crumbs.length - 1 ? "page" : undefined}
                className={i === crumbs.length - 1 ? "text-slate-800" : ""}
              >
                {t(c.key)}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
