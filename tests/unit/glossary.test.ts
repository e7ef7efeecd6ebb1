import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CITY_NODES } from "#backend/domains/platform/catalogue.ts";

/**
 * Issue 30 item 9: one word per concept. `locales/glossary.json` names each product term in both languages and the
 * words not to use for it; every text of every locale file (and the catalogue's Chinese names, which pages show as
 * data) is checked against it. A word to avoid that is the term's own word in a language (Singapore in English, in any case) is
 * not checked in that language.
 */
const ROOT = path.resolve(__dirname, "../..");
const LANGUAGES = ["en", "zh-CN"] as const;
type Term = { en: string; "zh-CN": string; avoid: string[] };
const glossary = Object.entries(
  JSON.parse(readFileSync(path.join(ROOT, "locales", "glossary.json"), "utf8")) as Record<string, Term | string>,
).filter((e): e is [string, Term] => typeof e[1] === "object");

function* texts(value: unknown, at: string): Generator<[string, string]> {
  if (typeof value === "string") yield [at, value];
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) yield* texts(v, at ? `${at}.${k}` : k);
}

function offences(language: (typeof LANGUAGES)[number], entries: Iterable<[string, string]>) {
  const found: string[] = [];
  for (const [where, text] of entries)
    for (const [term, words] of glossary)
      for (const avoid of words.avoid)
        if (avoid.toLowerCase() !== words[language].toLowerCase() && text.includes(avoid))
          found.push(`${where}: "${avoid}" (glossary: ${term} = "${words[language]}")`);
  return found;
}

describe("the glossary", () => {
  it("names every term in both languages", () => {
    expect(glossary.length).toBeGreaterThan(20);
    for (const [term, words] of glossary) {
      expect(words.en, term).toBeTruthy();
      expect(words["zh-CN"], term).toBeTruthy();
      expect(Array.isArray(words.avoid), term).toBe(true);
    }
  });

  for (const language of LANGUAGES)
    it(`holds in every ${language} locale file`, () => {
      const dir = path.join(ROOT, "locales", language);
      const found = readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .flatMap((f) =>
          offences(language, texts(JSON.parse(readFileSync(path.join(dir, f), "utf8")), f.replace(/\.json$/, ""))),
        );
      expect(found).toEqual([]);
    });

  it("holds in the catalogue's Chinese names", () => {
    const zh = CITY_NODES.flatMap((n) =>
      [n.nameZh, n.operatorZh, n.cloudProviderZh, n.addressZh].map((v): [string, string] => [n.code, v]),
    );
    expect(offences("zh-CN", zh)).toEqual([]);
  });

  it("catches a word to avoid", () => {
    expect(offences("zh-CN", [["x", "您的专属节点"]])).toHaveLength(1);
    expect(offences("en", [["x", "Singapore"]])).toEqual([]);
    expect(offences("zh-CN", [["x", "Singapore"]])).toHaveLength(1);
  });
});
