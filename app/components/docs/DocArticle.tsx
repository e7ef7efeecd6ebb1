import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CopyField } from "#app/components/CopyField.tsx";

/** Styles of rendered Markdown (the HTML was sanitised by app/lib/markdown.server.ts). */
export const PROSE =
  "space-y-3 leading-relaxed text-slate-800 [&_a]:text-brand-700 [&_a]:underline [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:text-sm [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:mt-6 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mt-4 [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-6 [&_pre]:overflow-x-auto [&_pre]:whitespace-pre-wrap [&_pre]:break-words [&_pre]:rounded-md [&_pre]:bg-slate-900 [&_pre]:p-3 [&_pre]:text-slate-100 [&_pre_code]:bg-transparent [&_pre_code]:text-slate-100 [&_table]:w-full [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6";

export type ArticlePage = {
  slug: string;
  title: string;
  html: string;
  lang: string;
  fallback: boolean;
  trail: { slug: string; title: string }[];
  /** The endpoints the page names, on this server (app/lib/docs.server.ts `endpointsIn`). */
  endpoints?: string[];
};

/** A manual page: its trail of parents, its title and its text; a missing translation is said, not hidden. */
export function DocArticle({ page }: { page: ArticlePage }) {
  const { t } = useTranslation("docs");
  return (
    <article lang={page.lang} data-testid="doc-article">
      {page.trail.length ? (
        <p className="mb-2 text-sm text-slate-600">
          {page.trail.map((p, i) => (
            <span key={p.slug}>
              {i ? " / " : ""}
              <Link className="link" to={`/g/main/documentation?page=${encodeURIComponent(p.slug)}`}>
                {p.title}
              </Link>
            </span>
          ))}
        </p>
      ) : null}
      <h1 className="text-3xl font-semibold text-slate-900">{page.title}</h1>
      {page.fallback ? (
        <p
          role="note"
          className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="doc-fallback"
        >
          {t("fallback", { language: t(`languages.${page.lang}`) })}
        </p>
      ) : null}
      {page.endpoints?.length ? (
        <section className="mt-6 space-y-2 rounded-md border border-slate-200 p-3" data-testid="doc-endpoints">
          <h2 className="text-sm font-semibold text-slate-700">{t("endpoints")}</h2>
          {page.endpoints.map((e, i) => (
            <CopyField key={e} value={e} label={e} testId={`doc-endpoint-${i}`} />
          ))}
        </section>
      ) : null}
      {/* The HTML was sanitised by rehype-sanitize on the server (app/lib/markdown.server.ts). */}
      <div className={`mt-6 ${PROSE}`} dangerouslySetInnerHTML={{ __html: page.html }} />
    </article>
  );
}
