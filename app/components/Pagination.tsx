import { Form, Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PAGE_SIZES, pageItems } from "#app/lib/paging.ts";

/**
 * The page links of a list (issue 16, docs/decisions/027): previous, page numbers with ellipses, next, and,
 * for lists that read `?pageSize=` (app/lib/paging.ts `pagingOf`), a page-size choice. Plain links and a GET
 * form: no JavaScript needed. Every other query parameter (the filters) is kept; a new page size starts
 * again at page 1.
 */
export function Pagination({
  pageIndex,
  pageSize,
  total,
  sizes = false,
  param = "page",
}: {
  pageIndex: number;
  pageSize: number;
  total: number;
  sizes?: boolean;
  /** The query parameter of the page number (a second list on one page has its own). */
  param?: string;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const showSizes = sizes && total > PAGE_SIZES[0];
  if (pages <= 1 && !showSizes) return null;
  const params = new URLSearchParams(location.search);
  params.delete("index");
  const href = (page: number) => {
    const next = new URLSearchParams(params);
    next.set(param, String(page));
    return `${location.pathname}?${next}`;
  };
  const kept = [...params].filter(([name]) => name !== param && name !== "pageSize");
  return (
    <nav
      aria-label={t("pagination.label")}
      className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm"
      data-testid="pagination"
    >
      <p className="text-slate-600">{t("pagination.summary", { page: pageIndex, pages, total })}</p>
      {pages > 1 ? (
        <ul className="flex flex-wrap items-center gap-1">
          {pageIndex > 1 ? (
            <li>
              <Link className="btn-secondary !px-2 !py-1" to={href(pageIndex - 1)} rel="prev">
                {t("pagination.previous")}
              </Link>
            </li>
          ) : null}
          {pageItems(pageIndex, pages).map((item, i) =>
            item === "gap" ? (
              <li key={`gap-${i}`} className="px-1 text-slate-500" aria-label={t("pagination.gap")}>
                …
              </li>
            ) : item === pageIndex ? (
              <li key={item}>
                <span
                  aria-current="page"
                  aria-label={t("pagination.current", { page: item })}
                  className="inline-block min-w-[2rem] rounded-md bg-brand-600 px-2 py-1 text-center font-semibold text-white"
                >
                  {item}
                </span>
              </li>
            ) : (
              <li key={item}>
                <Link
                  to={href(item)}
                  aria-label={t("pagination.page", { page: item })}
                  className="inline-block min-w-[2rem] rounded-md px-2 py-1 text-center ring-1 ring-slate-200 hover:bg-slate-50"
                >
                  {item}
                </Link>
              </li>
            ),
          )}
          {pageIndex < pages ? (
            <li>
              <Link className="btn-secondary !px-2 !py-1" to={href(pageIndex + 1)} rel="next">
                {t("pagination.next")}
              </Link>
            </li>
          ) : null}
        </ul>
      ) : null}
      {showSizes ? (
        <Form method="get" action={location.pathname} className="flex items-center gap-2" data-testid="page-size">
          {kept.map(([name, value], i) => (
            <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
          ))}
          <label htmlFor="pageSize" className="text-slate-600">
            {t("pagination.size")}
          </label>
          <select
            id="pageSize"
            name="pageSize"
            defaultValue={String(pageSize)}
            className="rounded-md border-slate-300 py-1 text-sm"
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
          <button type="submit" className="btn-secondary !px-2 !py-1">
            {t("pagination.apply")}
          </button>
        </Form>
      ) : null}
    </nav>
  );
}
