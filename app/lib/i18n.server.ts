import { createCookie } from "@remix-run/node";
import { RemixI18Next } from "remix-i18next/server";
import { getEnv } from "./env.server";
import { fallbackLanguage, i18nConfig, supportedLanguages, type Language, isLanguage } from "./i18n";
import { resources } from "./resources.server";

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
