import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import resourcesToBackend from "i18next-resources-to-backend";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { getInitialNamespaces } from "remix-i18next/client";
import { i18nConfig } from "./lib/i18n.ts";

async function loadNamespace(language: string, namespace: string) {
  const response = await fetch(`/locales/${language}/${namespace}.json`);
  if (!response.ok) throw new Error(`${response.status} for the ${language} ${namespace} translations`);
  return response.json();
}

async function hydrate() {
  await i18next
    .use(initReactI18next)
    // A namespace a page needs that the server did not send is fetched from app/routes/locales.$lng.$ns.ts.
    .use(resourcesToBackend(loadNamespace))
    .init({
      ...i18nConfig,
      ns: [...new Set([...i18nConfig.ns, ...getInitialNamespaces()])],
      lng: document.documentElement.lang,
    });

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

hydrate();
