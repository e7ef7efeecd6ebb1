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
  return instance;
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
