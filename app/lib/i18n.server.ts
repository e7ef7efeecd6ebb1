import { createCookie } from "@remix-run/node";
import { createInstance, type i18n as I18n, type TFunction } from "i18next";
import { initReactI18next } from "react-i18next";
import { RemixI18Next } from "remix-i18next/server";
import { getEnv } from "./env.server.ts";
import { fallbackLanguage, i18nConfig, supportedLanguages, type Language, isLanguage } from "./i18n.ts";
import { resources, type Namespace } from "./resources.server.ts";

/** The language cookie (a year), written with cookie.serialize (SPEC §1 "user language"). */
export const languageCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

/** The Set-Cookie of a language choice: Secure by the session cookie's rule (COOKIE_SECURE, on in production). */
export function languageSetCookie(lng: Language): Promise<string> {
  return languageCookie.serialize(lng, { secure: getEnv().cookieSecure });
}

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage,
    cookie: languageCookie,
    // The default is English whatever the browser says (SPEC §9); only the user's choice changes it.
    order: ["cookie"],
  },
  i18next: { ...i18nConfig, resources },
});

export async function getLanguage(request: Request): Promise<Language> {
  const lng = await i18nServer.getLocale(request);
  return isLanguage(lng) ? lng : fallbackLanguage;
}

/**
 * One initialised i18next instance per language, made once when this module loads (issue 11): every
 * namespace of locales/ is in memory (app/lib/resources.server.ts), so a request renders with its
 * language's instance as it is, without creating or initialising anything. Nothing changes an instance's
 * language or resources after this, which is what makes sharing one between concurrent requests safe.
 */
function makeInstance(lng: Language): I18n {
  const instance = createInstance();
  // initImmediate false: with the resources given inline, init finishes synchronously.
  void instance
    .use(initReactI18next)
    .init({ ...i18nConfig, lng, ns: Object.keys(resources[lng]), resources, initImmediate: false });
  return rememberPlainTexts(instance, lng);
}

/** At most this many remembered texts per language: the keys are the code's, but a key may be built from data. */
export const REMEMBERED_TEXTS_MAX = 20_000;
/**
 * The options a plain call may have: those a `t` from `useTranslation` or `getFixedT` adds by itself, and a
 * text default (the labels of codes give the code); any other makes a call not plain.
 */
const PLAIN_OPTIONS = new Set(["lng", "lngs", "ns", "keyPrefix", "defaultValue"]);

/**
 * Remembers the texts of plain calls (docs/decisions/030, issue 34): `t(key)` with no count, context or
 * values (a text default allowed), which is most of a page's calls (the menu, table heads, labels of codes). Its answer depends
 * only on the language, the namespaces and the key, and the instance's resources never change after start,
 * so i18next's resolution (namespaces, fallbacks, nesting, interpolation, post-processing) runs once per
 * text instead of on every render. Any other call goes to i18next as before.
 */
export function rememberPlainTexts(instance: I18n, lng: Language): I18n {
  const texts = new Map<string, string>();
  const translate = instance.t.bind(instance) as (key: unknown, options?: unknown) => unknown;
  const remembering = (key: unknown, options?: unknown): unknown => {
    const plainKey = typeof key === "string" ? plainCallKey(key, options, lng) : undefined;
    if (plainKey === undefined) return translate(key, options);
    const known = texts.get(plainKey);
    if (known !== undefined) return known;
    const text = translate(key, options);
    if (typeof text === "string" && texts.size < REMEMBERED_TEXTS_MAX) texts.set(plainKey, text);
    return text;
  };
  instance.t = remembering as I18n["t"];
  return instance;
}

/** The memory's key of a plain call (namespaces and key), or undefined when the call has anything else. */
function plainCallKey(key: string, options: unknown, lng: Language): string | undefined {
  if (options === undefined) return `\u0000${key}`;
  if (typeof options !== "object" || options === null) return undefined;
  const o = options as Record<string, unknown>;
  // A fixed `t` sets the options it was made with, null or undefined when it was made without.
  for (const name in o) if (o[name] != null && !PLAIN_OPTIONS.has(name)) return undefined;
  if (o.lng != null && o.lng !== lng) return undefined;
  if (o.lngs != null && !(Array.isArray(o.lngs) && o.lngs.length === 1 && o.lngs[0] === lng)) return undefined;
  if (o.keyPrefix != null) return undefined;
  const ns =
    o.ns == null ? "" : typeof o.ns === "string" ? o.ns : Array.isArray(o.ns) ? o.ns.join("\u0001") : undefined;
  if (ns === undefined) return undefined;
  if (o.defaultValue == null) return `${ns}\u0000${key}`;
  return typeof o.defaultValue === "string" ? `${ns}\u0000${key}\u0000${o.defaultValue}` : undefined;
}

const instances = Object.fromEntries(supportedLanguages.map((lng) => [lng, makeInstance(lng)])) as Record<
  Language,
  I18n
>;

/** The ready instance of a language (entry.server renders with it). */
export function i18nFor(lng: Language): I18n {
  return instances[lng];
}

/** A `t` of one language and namespace from the ready instance (CSV exports, mails). */
export function fixedT(lng: Language, ns: Namespace): TFunction {
  return instances[lng].getFixedT(lng, ns);
}
