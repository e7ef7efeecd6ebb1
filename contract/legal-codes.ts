/**
 * Codes of the legal and contact texts (issue 30 item 16; docs/decisions/089), without Zod, for browser code.
 * contract/legal.ts re-exports them.
 */

/** The public pages whose text operators edit: the URL's page (SPEC §2) → the key of its shipped draft. */
export const LEGAL_PAGES = ["privacy", "privacyStatement", "agreement", "contact"] as const;
export type LegalPage = (typeof LEGAL_PAGES)[number];

export const LEGAL_TITLE_MAX = 120;
export const LEGAL_INTRO_MAX = 1_000;
export const LEGAL_BODY_MAX = 30_000;

export type LegalSection = { heading: string; body: string[] };

/** The contact page's addresses; an empty one is not configured. */
export type ContactAddresses = { supportEmail: string; partnersEmail: string };

/**
 * A page's text as operators write it: paragraphs separated by an empty line; a line starting with "## " is the
 * heading of a new section. Text before the first heading is a section without a heading. No markup otherwise:
 * the pages show it as plain text.
 */
export function sectionsOf(text: string): LegalSection[] {
  const sections: LegalSection[] = [];
  let current: LegalSection | null = null;
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length === 0) return;
    if (!current) sections.push((current = { heading: "", body: [] }));
    current.body.push(paragraph.join(" "));
    paragraph = [];
  };
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    if (line.startsWith("## ")) {
      endParagraph();
      sections.push((current = { heading: line.slice(3).trim(), body: [] }));
    } else if (line === "") endParagraph();
    else paragraph.push(line);
  }
  endParagraph();
  return sections;
}

/** The sections back as the text operators edit (the shipped drafts are kept as sections). */
export function textOf(sections: readonly LegalSection[]): string {
  return sections.map((s) => [...(s.heading ? [`## ${s.heading}`] : []), ...s.body].join("\n\n")).join("\n\n");
}
