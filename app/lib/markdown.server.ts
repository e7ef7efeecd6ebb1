import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

/**
 * Markdown of operator-written content (issue 15: news, release notes, announcements, documentation) as safe
 * HTML. The portal renders it (it never trusts HTML from the backend): remark parses CommonMark with GitHub's
 * extensions, raw HTML inside the Markdown is dropped, and rehype-sanitize keeps only GitHub's allow-list of
 * elements and attributes, so a script, an event handler or a `javascript:` link cannot reach the page.
 * Headings get `id`s (prefixed `user-content-` by the schema) so a table of contents can link to them.
 *
 * The same text is rendered again on every view of a page, so results are kept by text (at most 200).
 */
const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype) // allowDangerousHtml is off: raw HTML in the source is not carried over
  .use(rehypeSanitize, { ...defaultSchema })
  .use(rehypeStringify);

const kept = new Map<string, string>();
const KEEP = 200;

export function renderMarkdown(markdown: string): string {
  const hit = kept.get(markdown);
  if (hit !== undefined) return hit;
  const html = String(processor.processSync(markdown));
  if (kept.size >= KEEP) kept.delete(kept.keys().next().value as string);
  kept.set(markdown, html);
  return html;
}

/** The text of a Markdown source without its markup, for summaries and search snippets. */
export function markdownToText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[#>*_`~|-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
