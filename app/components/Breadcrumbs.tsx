import { Link, useMatches } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export type BreadcrumbHandle = { breadcrumb?: { key: string; to?: string }[] };

/** SPEC §2 breadcrumbs, from the `handle.breadcrumb` of the matched routes. */
export function Breadcrumbs() {
  const { t } = useTranslation();
  const crumbs = useMatches().flatMap((m) => (m.handle as BreadcrumbHandle | undefined)?.breadcrumb ?? []);
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
