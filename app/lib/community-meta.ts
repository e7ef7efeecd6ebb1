import type { MetaFunction } from "@remix-run/node";
import { pageTitle } from "./meta.ts";

/**
 * A page's title (pageTitle) and its feeds as <link rel="alternate"> (docs/decisions/040): `feeds` in the
 * route's data, in the reader's language, RSS and Atom.
 */
export type FeedLink = { href: string; type: "application/rss+xml" | "application/atom+xml"; title: string };

export function titleWithFeeds(key: string): MetaFunction {
  const title = pageTitle(key);
  return (args) => {
    const feeds = ((args.data as { feeds?: FeedLink[] } | undefined)?.feeds ?? []).map((f) => ({
      tagName: "link",
      rel: "alternate",
      type: f.type,
      href: f.href,
      title: f.title,
    }));
    return [...(title(args) ?? []), ...feeds];
  };
}
