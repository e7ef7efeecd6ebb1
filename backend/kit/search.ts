import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import { searchTerms } from "#backend/db/tables.ts";

/**
 * Search over bilingual content (issue 15) without a full-text parser for Chinese in either database: the
 * words of an item are found with `Intl.Segmenter` when it is saved (ICU segments Chinese by dictionary,
 * English and other scripts at word boundaries) and kept in `search_terms`; a query is segmented the same way
 * and an item matches when it holds every word of the query. A Chinese word of several characters is also
 * indexed by its single characters, so a query the segmenter splits differently ("区块链" as 区块 + 链, or one
 * character typed alone) still finds it. Words are NFKC-normalised and lower-cased (full-width Ａ is A).
 */

export type SearchLang = "en" | "zh-CN";
export type SearchHit = { itemId: number; lang: string; score: number };

const HAN = /\p{Script=Han}/u;
const MAX_TERM = 64;
const segmenters = new Map<string, Intl.Segmenter>();
const segmenterFor = (lang: string) => {
  const locale = lang.startsWith("zh") ? "zh" : "en";
  let s = segmenters.get(locale);
  if (!s) segmenters.set(locale, (s = new Intl.Segmenter(locale, { granularity: "word" })));
  return s;
};

/** The distinct words of a text, as they are indexed and queried. */
export function termsOf(text: string, lang: string): string[] {
  const out = new Set<string>();
  // Chinese text often holds English words and the reverse: a text with any Han character is segmented as
  // Chinese (ICU's Chinese segmenter splits Latin words at the same boundaries as the English one).
  const segmenter = segmenterFor(HAN.test(text) ? "zh" : lang);
  for (const { segment, isWordLike } of segmenter.segment(text.normalize("NFKC"))) {
    if (!isWordLike) continue;
    const word = segment.toLowerCase().slice(0, MAX_TERM);
    out.add(word);
    if (word.length > 1 && HAN.test(word)) for (const ch of word) if (HAN.test(ch)) out.add(ch);
  }
  return [...out];
}

/**
 * Replaces the index of one item in one language (call it in the transaction that saves the item). An empty
 * title and body remove it.
 */
export async function indexItem(
  db: Db | Tx,
  item: { kind: string; itemId: number; lang: SearchLang; title: string; body: string },
): Promise<void> {
  await db
    .delete(searchTerms)
    .where(and(eq(searchTerms.kind, item.kind), eq(searchTerms.itemId, item.itemId), eq(searchTerms.lang, item.lang)));
  const weights = new Map<string, number>();
  for (const t of termsOf(item.body, item.lang)) weights.set(t, 1);
  for (const t of termsOf(item.title, item.lang)) weights.set(t, 3);
  if (weights.size === 0) return;
  const rows = [...weights].map(([term, weight]) => ({
    kind: item.kind,
    itemId: item.itemId,
    lang: item.lang,
    term,
    weight,
  }));
  // Bounded batches: a long manual page has a few thousand distinct words.
  for (let i = 0; i < rows.length; i += 500) await db.insert(searchTerms).values(rows.slice(i, i + 500));
}

/** Forgets an item in every language (when it is deleted). */
export async function removeItem(db: Db | Tx, kind: string, itemId: number): Promise<void> {
  await db.delete(searchTerms).where(and(eq(searchTerms.kind, kind), eq(searchTerms.itemId, itemId)));
}

/**
 * The items of one kind holding every word of the query, best first (title words count three times). With a
 * language, only that language's text is searched; without, both (an item found in both appears twice, once
 * per language). A query without any word finds nothing.
 */
export async function searchItems(
  db: Db | Tx,
  q: { kind: string; query: string; lang?: SearchLang; limit?: number; offset?: number },
): Promise<SearchHit[]> {
  const terms = termsOf(q.query, q.lang ?? (HAN.test(q.query) ? "zh-CN" : "en")).slice(0, 20);
  if (terms.length === 0) return [];
  const where = [eq(searchTerms.kind, q.kind), inArray(searchTerms.term, terms)];
  if (q.lang) where.push(eq(searchTerms.lang, q.lang));
  const score = sql<number>`sum(${searchTerms.weight})::int`;
  const rows = await db
    .select({ itemId: searchTerms.itemId, lang: searchTerms.lang, score })
    .from(searchTerms)
    .where(and(...where))
    .groupBy(searchTerms.itemId, searchTerms.lang)
    .having(sql`count(*) = ${terms.length}`)
    .orderBy(sql`3 desc`, searchTerms.itemId)
    .limit(Math.min(q.limit ?? 20, 100))
    .offset(q.offset ?? 0);
  return rows;
}
