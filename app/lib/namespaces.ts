import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import i18next from "i18next";

/** What a route module declares of its strings: the i18next namespaces its page renders with. */
export type NamespacesHandle = { i18n?: readonly string[] | string };

/** The namespaces a handle names, as a list. */
export function handleNamespaces(handle: unknown): string[] {
  const ns = (handle as NamespacesHandle | undefined)?.i18n;
  if (!ns) return [];
  return typeof ns === "string" ? [ns] : [...ns];
}

/**
 * A route's `clientLoader` that loads the route's namespaces (its `handle.i18n`) into the browser's i18next
 * before Remix renders the page on a client-side navigation, alongside the server loader's data (issue 30).
 * The server renders with every namespace; in the browser only the first page's are loaded at hydration
 * (entry.client.tsx), so a page reached by a link would otherwise paint its keys until its strings arrive.
 * i18next keeps what it loaded, so a namespace is fetched once per page load, never once per navigation.
 * At hydration the server's data is used as it is (no `hydrate`), so this only runs on later navigations,
 * revalidations and fetcher loads. The route needs a server loader (Remix runs a loaderless route's
 * clientLoader at hydration and renders nothing of it on the server), `() => null` when it has nothing to load.
 */
export function withNamespaces(handle: NamespacesHandle) {
  const namespaces = handleNamespaces(handle);
  return async ({ serverLoader }: ClientLoaderFunctionArgs) => {
    const data = serverLoader();
    // A redirect or an error Response rejects `data`; it is handled by whoever awaits the result.
    data.catch(() => undefined);
    // A failed download leaves the keys, not a broken page: the loader's own outcome decides what renders.
    await loadNamespaces(namespaces).catch(() => undefined);
    return data;
  };
}

/** Loads namespaces into the browser's i18next (a no-op for those already there). */
export function loadNamespaces(namespaces: readonly string[]): Promise<void> {
  if (!i18next.isInitialized) return Promise.resolve();
  const missing = namespaces.filter((ns) => !i18next.hasLoadedNamespace(ns));
  if (missing.length === 0) return Promise.resolve();
  return i18next.loadNamespaces(missing);
}
