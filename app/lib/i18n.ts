/** i18next settings shared by server and browser. English is the default (SPEC §1, §9). */
export const supportedLanguages = ["en", "zh-CN"] as const;
export type Language = (typeof supportedLanguages)[number];
export const fallbackLanguage: Language = "en";

/** A word of platform data in the reader's language: its Chinese value when there is one (docs/decisions/028). */
export const inLanguage = (en: string, zh: string | null | undefined, language: Language) =>
  language === "zh-CN" && zh ? zh : en;

/** A city node's name in the reader's language. */
export const nodeLabel = (n: { name: string; nameZh: string }, language: Language) =>
  inLanguage(n.name, n.nameZh, language);

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (supportedLanguages as readonly string[]).includes(value);
}

export const i18nConfig = {
  supportedLngs: [...supportedLanguages],
  fallbackLng: fallbackLanguage,
  defaultNS: "common",
  ns: ["common", "errors", "forms"],
  // Keys such as "validation.required" are nested; "errors:MSG_10004" names its namespace.
  keySeparator: ".",
  nsSeparator: ":",
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
  load: "currentOnly" as const,
};
