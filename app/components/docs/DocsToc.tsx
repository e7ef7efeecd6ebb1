import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export type TocItem = { docId: number; slug: string; title: string; fallback: boolean; children: TocItem[] };

/** The manual's table of contents: nested lists of links, the current page marked. */
export function DocsToc({ items, current }: { items: TocItem[]; current: string | null }) {
  const { t } = useTranslation("docs");
  return (
    <nav aria-label={t("toc")} data-testid="docs-toc">
      <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-600">{t("toc")}</h2>
      <TocList items={items} current={current} depth={0} />
    </nav>
  );
}

function TocList({ items, current, depth }: { items: TocItem[]; current: string | null; depth: number }) {
  const { t } = useTranslation("docs");
  return (
    <ul className={depth ? "ml-3 border-l border-slate-200 pl-3" : "space-y-1"}>
      {items.map((item) => (
        <li key={item.docId} className="py-0.5">
          <Link
            to={`/g/main/documentation?page=${encodeURIComponent(item.slug)}`}
            aria-current={item.slug === current ? "page" : undefined}
            className={`text-sm ${item.slug === current ? "font-semibold text-brand-700" : "text-slate-700 hover:text-brand-700"} ${depth ? "" : "font-medium"}`}
          >
            {item.title}
            {item.fallback ? <span className="ml-1 text-xs text-slate-500">({t("untranslated")})</span> : null}
          </Link>
          {item.children.length ? <TocList items={item.children} current={current} depth={depth + 1} /> : null}
        </li>
      ))}
    </ul>
  );
}
