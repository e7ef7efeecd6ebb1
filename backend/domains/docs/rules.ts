import { DOC_SEARCH_KIND } from "#contract/docs-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { indexItem, removeItem } from "#backend/kit/search.ts";

/**
 * The search index of one page (backend/kit/search.ts, kind "doc"): its English and Chinese text, each in
 * its own language; an unpublished page is not indexed, so the public search never finds it.
 */
export async function reindex(
  q: Db | Tx,
  page: { id: number; titleEn: string; bodyEn: string; titleZh: string; bodyZh: string; published: boolean },
) {
  if (!page.published) {
    await removeItem(q, DOC_SEARCH_KIND, page.id);
    return;
  }
  await indexItem(q, { kind: DOC_SEARCH_KIND, itemId: page.id, lang: "en", title: page.titleEn, body: page.bodyEn });
  await indexItem(q, { kind: DOC_SEARCH_KIND, itemId: page.id, lang: "zh-CN", title: page.titleZh, body: page.bodyZh });
}

/** The text of a Markdown source for a search snippet: markup removed, at most `max` characters. */
export function snippetOf(markdown: string, max = 180): string {
  const text = markdown
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[#>*_`~|]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Whether `candidate` may become the parent of `pageId`: not the page itself, nor one of its descendants. */
export function parentAllowed(pageId: number | null, candidate: number, parentOf: Map<number, number | null>): boolean {
  if (pageId === null) return parentOf.has(candidate);
  if (!parentOf.has(candidate)) return false;
  for (let at: number | null = candidate, hops = 0; at !== null && hops < 1000; at = parentOf.get(at) ?? null, hops++) {
    if (at === pageId) return false;
  }
  return true;
}
