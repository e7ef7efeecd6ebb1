import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** Page links that keep the other query parameters (filters) as they are; plain links, no JavaScript needed. */
export function Pagination({ pageIndex, pageSize, total }: { pageIndex: number; pageSize: number; total: number }) {
  const { t } = useTranslation();
  const location = useLocation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const href = (page: number) => {
    const params = new URLSearchParams(location.search);
    params.set("page", String(page));
    return `${location.pathname}?${params}`;
  };
  return (
    <nav aria-label={t("pagination.label")} className="mt-4 flex items-center justify-between text-sm">
      <p className="text-slate-500">{t("pagination.summary", { page: pageIndex, pages, total })}</p>
      <div className="flex gap-2">
        {pageIndex > 1 ? <Link className="btn-secondary" to={href(pageIndex - 1)} rel="prev">{t("pagination.previous")}</Link> : null}
        {pageIndex < pages ? <Link className="btn-secondary" to={href(pageIndex + 1)} rel="next">{t("pagination.next")}</Link> : null}
      </div>
    </nav>
  );
}
