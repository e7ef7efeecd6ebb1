import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import Backend from "i18next-http-backend";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { getInitialNamespaces } from "remix-i18next/client";
import { i18nConfig } from "./lib/i18n.ts";

async function hydrate() {
  await i18next
    .use(initReactI18next)
    .use(Backend)
    .init({
      ...i18nConfig,
      ns: [...new Set([...i18nConfig.ns, ...getInitialNamespaces()])],
      lng: document.documentElement.lang,
      backend: { loadPath: "/locales/{{lng}}/{{ns}}.json" },
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
