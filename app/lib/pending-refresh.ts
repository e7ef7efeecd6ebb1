import type { MetaFunction } from "@remix-run/node";
import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { pageTitle } from "./meta.ts";

/**
 * A page that waits for the payment provider's answer (a recharge, a card being saved) reloads its data
 * every few seconds until the answer is there: a meta refresh without JavaScript, a revalidation with it.
 */
export const REFRESH_SECONDS = 3;

/** The page's title, plus the meta refresh while `waiting` says the loader's data is still pending. */
export function pageTitleRefreshing<Loader>(
  key: string,
  waiting: (data: NonNullable<Parameters<MetaFunction<Loader>>[0]["data"]>) => boolean,
): MetaFunction<Loader> {
  const title = pageTitle(key);
  return (args) => {
    const base = title(args as Parameters<typeof title>[0]);
    return args.data && waiting(args.data)
      ? [...base, { httpEquiv: "refresh", content: String(REFRESH_SECONDS) }]
      : base;
  };
}

/** With JavaScript: revalidates the page's data every REFRESH_SECONDS while `waiting`. */
export function useRefreshWhile(waiting: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), REFRESH_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [waiting, revalidator]);
}
