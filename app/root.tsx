import { json, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import {
  type ClientLoaderFunctionArgs,
  Links,
  LiveReload,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import stylesheet from "#app/tailwind.css";
import { ErrorView } from "./components/ErrorView.tsx";
import {
  awaitingDelivery,
  FlashBanner,
  flashNamespaces,
  takeUndelivered,
  useFlashOnce,
} from "./components/FlashBanner.tsx";
import { MobileNotice } from "./components/MobileNotice.tsx";
import { OfflineWatcher } from "./components/OfflineWatcher.tsx";
import { TestModeBanner } from "./components/TestModeBanner.tsx";
import { getViewer } from "./lib/api.server.ts";
import { getEnv } from "./lib/env.server.ts";
import { resources } from "./lib/resources.server.ts";
import { pageTitle } from "./lib/meta.ts";
import { isMobileAllowed } from "./lib/mobile.ts";
import { loadNamespaces } from "./lib/namespaces.ts";
import { useNonce } from "./lib/nonce.ts";
import { getFlash } from "./lib/session.server.ts";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const handle = { i18n: ["common", "errors", "forms"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const [viewer, { flash, setCookies }] = await Promise.all([getViewer(request), getFlash(request)]);
  const pathname = new URL(request.url).pathname;
  // The page titles come straight from the language's strings (no i18next instance per request).
  const common = resources[viewer.language].common as {
    brand: string;
    description: string;
    titles: Record<string, string>;
  };
  return json(
    {
      locale: viewer.language,
      brand: common.brand,
      description: common.description,
      titles: common.titles,
      flash,
      mobileBlocked: viewer.mobile && !isMobileAllowed(pathname),
      signedIn: !!viewer.user,
      testMode: getEnv().testMode,
    },
    { headers: setCookies.map((c): [string, string] => ["Set-Cookie", c]) },
  );
}

/**
 * When the root's data is loaded again in the browser (after a form, a redirect), a flash's namespace is
 * loaded before it shows (issue 30). A flash the server gave to a load whose page was never shown (its page
 * redirected, and the router dropped that round's data) is given to the next load instead: the client's side
 * of redirectKeepingFlash, needed now that a route's data may be asked for after the root's (its module, and so
 * its clientLoader, loads first). At hydration the server's data is used as it is.
 */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const data = await serverLoader<typeof loader>();
  const flash = data.flash ?? takeUndelivered();
  await loadNamespaces(flashNamespaces(flash)).catch(() => undefined);
  return { ...data, flash: awaitingDelivery(flash) };
}

export const meta = pageTitle("");

/**
 * Zod asks once whether it may compile validators with `new Function`, when a page's modules first make a schema;
 * the Content-Security-Policy forbids it, and the browser reports the refused test as a violation (Lighthouse's
 * best practices count it). Its `jitless` setting skips the test. Zod keeps its settings on this global object, and
 * reads it when its module runs, so the setting goes in before the page's modules: a classic script runs first.
 */
const ZOD_WITHOUT_EVAL = "globalThis.__zod_globalConfig={jitless:true};";

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const { i18n } = useTranslation();
  const nonce = useNonce();
  const lang = data?.locale ?? i18n.language ?? "en";
  return (
    <html lang={lang} dir={i18n.dir(lang)} className="h-full bg-slate-50">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="h-full text-slate-800 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: ZOD_WITHOUT_EVAL }} />
        <Scripts nonce={nonce} />
        <LiveReload nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const data = useLoaderData<typeof loader>();
  const { mobileBlocked, signedIn, testMode } = data;
  const flash = useFlashOnce(data.flash);
  // Marks the page as interactive, for people and tests that need to know JavaScript has taken over.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <>
      {testMode ? <TestModeBanner /> : null}
      {flash ? <FlashBanner flash={flash} /> : null}
      <OfflineWatcher signedIn={signedIn} />
      {mobileBlocked ? <MobileNotice signedIn={signedIn} /> : <Outlet />}
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorView standalone />;
}
