import { DOC_LANGS, DOC_QUERY_MAX, DOC_SLUG_RE, textIn, type DocEntry, type DocLang } from "#contract/docs.ts";
import type { Api } from "#app/lib/api.server.ts";
import { renderMarkdown } from "#app/lib/markdown.server.ts";

/**
 * The manual's page (/g/main/documentation; docs/decisions/042): its table of contents, and either a page
 * (`?page=<slug>`, the first page without one) or the results of a search (`?q=` with an optional `lang`).
 * Markdown is rendered here, on the server, by the portal's safe renderer.
 */
export type TocNode = DocEntry & { title: string; fallback: boolean; children: TocNode[] };

export function tocTree(entries: DocEntry[], language: string): TocNode[] {
  const nodes = new Map(
    entries.map((e) => [e.docId, { ...e, ...pick(textIn(e, language)), children: [] as TocNode[] }]),
  );
  const roots: TocNode[] = [];
  for (const e of entries) {
    const node = nodes.get(e.docId)!;
    const parent = e.parentId !== null ? nodes.get(e.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}
const pick = (t: { title: string; fallback: boolean }) => ({ title: t.title, fallback: t.fallback });

export function searchParams(url: URL) {
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, DOC_QUERY_MAX);
  const rawLang = url.searchParams.get("lang") ?? "";
  const lang = (DOC_LANGS as readonly string[]).includes(rawLang) ? (rawLang as DocLang) : undefined;
  const slug = url.searchParams.get("page") ?? "";
  return { q, lang, slug };
}

/** The placeholder of the manual's texts for this server's address (PUBLIC_URL), and the endpoints written with it. */
const SITE_RE = /<(?:site|站点)>/g;
const ENDPOINT_RE = /<(?:site|站点)>((?:\/(?:<[^>\n]+>|[^\s`'"()<>/]+))+)/g;

/** The endpoints a page's text names (`<site>/chain/rpc`, …), on this server: each shown with a Copy button. */
export function endpointsIn(body: string, origin: string): string[] {
  return [...new Set([...body.matchAll(ENDPOINT_RE)].map((m) => `${origin}${m[1]}`))];
}

export async function loadManual(api: Api, url: URL, origin: string) {
  const language = api.viewer.language;
  const { q, lang, slug } = searchParams(url);
  const entries = await api.load("/anon/docs/toc", {});
  const toc = tocTree(entries, language);
  if (q) {
    const { rows } = await api.load("/anon/docs/search", { q, lang, limit: 30 });
    const results = rows.map((r) => ({
      slug: r.slug,
      lang: r.lang,
      snippet: r.snippet,
      title: r.lang === "zh-CN" ? r.titleZh || r.titleEn : r.titleEn || r.titleZh,
    }));
    return { toc, search: { q, lang: lang ?? "", results }, page: null };
  }
  const wanted = slug || entries[0]?.slug;
  if (!wanted) return { toc, search: null, page: null };
  if (!DOC_SLUG_RE.test(wanted)) throw new Response("Not found", { status: 404 });
  const page = await api.load("/anon/docs/page", { slug: wanted });
  const text = textIn(page, language);
  const trail: { slug: string; title: string }[] = [];
  const byId = new Map(entries.map((e) => [e.docId, e]));
  for (
    let at = page.parentId !== null ? byId.get(page.parentId) : undefined;
    at;
    at = at.parentId !== null ? byId.get(at.parentId) : undefined
  ) {
    trail.unshift({ slug: at.slug, title: textIn(at, language).title });
  }
  return {
    toc,
    search: null,
    page: {
      slug: page.slug,
      title: text.title,
      html: renderMarkdown(text.body.replace(SITE_RE, origin)),
      endpoints: endpointsIn(text.body, origin),
      lang: text.lang,
      fallback: text.fallback,
      updatedAt: page.updatedAt,
      trail,
    },
  };
}
