import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { supportedLanguages, type Language } from "./i18n.ts";

/**
 * Every UI string of the portal, by language and namespace: each file locales/<language>/<namespace>.json,
 * read once at start from the project's locales folder (the server runs from the project root), so a
 * new namespace needs no registration.
 */
export type Namespace = string;
type Resources = Record<Language, Record<Namespace, Record<string, unknown>>>;

const LOCALES_DIR = path.resolve(process.env.LOCALES_DIR ?? "locales");

function load(): Resources {
  const out = {} as Resources;
  for (const language of supportedLanguages) {
    const dir = path.join(LOCALES_DIR, language);
    out[language] = {};
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort()) {
      out[language][file.slice(0, -".json".length)] = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
    }
  }
  return out;
}

export const resources: Resources = load();

export function isNamespace(value: string): value is Namespace {
  return Object.prototype.hasOwnProperty.call(resources.en, value);
}
