import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SEARCH_QUERY_MAX } from "#contract/search-codes.ts";

export const SEARCH_PAGE = "/g/home/search";

/**
 * The console top bar's one search box (issue 35 §2, docs/decisions/086): a GET form to the results page, so it
 * works without JavaScript; on the results page it shows the query searched. Its button says "Find", not
 * "Search": the pages' own filter forms have a "Search" button, which specs and readers tell apart by name.
 */
export function TopSearch() {
  const { t } = useTranslation();
  const location = useLocation();
  const q = location.pathname === SEARCH_PAGE ? (new URLSearchParams(location.search).get("q") ?? "") : "";
  return (
    <Form
      method="get"
      action={SEARCH_PAGE}
      role="search"
      // Named, unlike the pages' own filter forms (also search landmarks): each landmark has its own name (axe
      // landmark-unique).
      aria-label={t("topbar.searchLabel")}
      className="flex items-center gap-1"
      data-testid="topbar-search"
    >
      <label htmlFor="topbar-search-q" className="sr-only">
        {t("topbar.searchLabel")}
      </label>
      <input
        key={q}
        id="topbar-search-q"
        type="search"
        name="q"
        defaultValue={q}
        required
        maxLength={SEARCH_QUERY_MAX}
        placeholder={t("topbar.searchPlaceholder")}
        className="input w-44 py-1 text-sm md:w-64"
      />
      <button type="submit" className="btn-secondary px-2 py-1 text-sm">
        {t("topbar.find")}
      </button>
    </Form>
  );
}
