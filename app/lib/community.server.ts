import { Feed } from "feed";
import { isActiveAt, pickLanguage, type Post } from "#contract/community.ts";
import { escapeHtml } from "#contract/html-text.ts";
import type { DataOf } from "#contract/paths.ts";
import { apiFor, getViewer } from "./api.server.ts";
import { fixedT } from "./i18n.server.ts";
import type { Language } from "./i18n.ts";
import { markdownToText, renderMarkdown } from "./markdown.server.ts";

/**
 * The portal's side of the community's content (docs/decisions/040): a post in the reader's language (with
 * the visible fallback), its Markdown as safe HTML, the feeds, and the announcement banner's cheap read.
 */

const SUMMARY_MAX = 220;

/** A post as a page shows it: the reader's language (or the other, `fallback` saying which), HTML and summary. */
export function viewPost(post: Post, language: Language) {
  const { title, body, fallback } = pickLanguage(post, language);
  const text = markdownToText(body);
  return {
    ...post,
    title,
    html: renderMarkdown(body),
    summary: text.length > SUMMARY_MAX ? `${text.slice(0, SUMMARY_MAX - 1)}…` : text,
    fallback,
  };
}
export type PostView = ReturnType<typeof viewPost>;

/** A list item: the same without the body's HTML (lists show the summary). */
export function viewListItem(post: Post, language: Language) {
  const { html: _html, bodyEn: _en, bodyZh: _zh, ...rest } = viewPost(post, language);
  return rest;
}

/* ----------------------------------------------------- feeds ---------------------------------------------------- */

export const FEEDS = {
  news: { path: "/g/main/feeds/news", listPath: "/g/home/DeveloperCommunity/News_Events", titleKey: "feeds.newsTitle" },
  releaseNotes: {
    path: "/g/main/feeds/releaseNotes",
    listPath: "/g/home/DeveloperCommunity/ReleaseNotes",
    titleKey: "feeds.releaseNotesTitle",
  },
} as const;
export type FeedName = keyof typeof FEEDS;
export type FeedFormat = "rss" | "atom";

/** The address of a feed (for <link rel="alternate">). */
export const feedHref = (name: FeedName, language: Language, format: FeedFormat) =>
  `${FEEDS[name].path}?lang=${language}&format=${format}`;

/**
 * A feed of published posts (the backend lists published ones only) in one language, made with the `feed`
 * library: RSS 2.0 or Atom 1.0. An item's link is its page; its content the safe HTML of its Markdown.
 */
export function buildFeed(
  name: FeedName,
  posts: Post[],
  language: Language,
  format: FeedFormat,
  origin: string,
): string {
  const t = fixedT(language, "community");
  const def = FEEDS[name];
  const feed = new Feed({
    title: t(def.titleKey),
    description: t("feeds.description"),
    id: `${origin}${def.listPath}`,
    link: `${origin}${def.listPath}`,
    language,
    copyright: t("feeds.copyright"),
    updated: posts.length ? new Date(posts[0].publishedAt ?? posts[0].updatedAt) : new Date(0),
    feedLinks: {
      rss: `${origin}${feedHref(name, language, "rss")}`,
      atom: `${origin}${feedHref(name, language, "atom")}`,
    },
  });
  for (const post of posts) {
    const v = viewPost(post, language);
    const link =
      name === "news"
        ? `${origin}/g/home/DeveloperCommunity/News_EventsDetail?eventId=${post.postId}`
        : `${origin}${def.listPath}#release-${post.postId}`;
    // Title and summary are plain text, and readers take them as HTML (Atom says type="html"): escaped, so a
    // title such as "<img onerror=…>" shows as written, as the pages show it, and never runs. The content is
    // the page's own sanitised HTML.
    feed.addItem({
      title: escapeHtml(name === "releaseNotes" && post.version ? `${post.version} · ${v.title}` : v.title),
      id: link,
      link,
      description: escapeHtml(v.summary),
      content: v.html,
      date: new Date(post.publishedAt ?? post.updatedAt),
    });
  }
  return format === "atom" ? feed.atom1() : feed.rss2();
}

/** The feed route's answer: `?lang=en|zh-CN&format=rss|atom` (defaults: the reader's language, RSS). */
export async function feedResponse(request: Request, name: FeedName): Promise<Response> {
  const viewer = await getViewer(request);
  const url = new URL(request.url);
  const lang = url.searchParams.get("lang");
  const format = url.searchParams.get("format") ?? "rss";
  if ((lang !== null && lang !== "en" && lang !== "zh-CN") || (format !== "rss" && format !== "atom")) {
    return new Response("Bad request", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const language: Language = lang ?? viewer.language;
  const api = apiFor(request, viewer);
  // Counted per client address ("feed.ip", docs/decisions/067): past it, a 429 with Retry-After.
  const answer = await api.call("/anon/community/feed", { feed: name });
  if (!answer.ok) {
    const wait = answer.retryAfterSeconds;
    return new Response(answer.status === 429 ? "Too many requests" : "Server error", {
      status: answer.status === 429 ? 429 : 503,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "no-store",
        ...(wait ? { "Retry-After": String(wait) } : {}),
      },
    });
  }
  const xml = buildFeed(name, answer.data.page.rows, language, format, url.origin);
  return new Response(xml, {
    headers: {
      "Content-Type": format === "atom" ? "application/atom+xml; charset=utf-8" : "application/rss+xml; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    },
  });
}

/* -------------------------------------------------- the banner -------------------------------------------------- */

type Announcement = DataOf<"/anon/community/activeAnnouncements">[number];

/**
 * How long this process keeps the banner's list before it asks the backend again (docs/decisions/040). Every
 * page of /g/main and /g/home shows the banner, so a page reads this copy (no request, no query); a write made
 * through this process's operations pages forgets it at once; another process's write shows within this time.
 * The window itself is checked at every page against the clock, so an announcement starts and ends on time.
 */
export const BANNER_TTL_MS = 5_000;
let kept: { at: number; rows: Promise<Announcement[]> } | null = null;

/** Forgets the kept list (after an operator's write of an announcement). */
export function forgetAnnouncements(): void {
  kept = null;
}

/** The announcements to show now, in the reader's language; a failed read shows none (the page still renders). */
export async function bannerAnnouncements(request: Request, language: Language, now = Date.now()) {
  if (!kept || now - kept.at >= BANNER_TTL_MS) {
    const entry: { at: number; rows: Promise<Announcement[]> } = { at: now, rows: Promise.resolve([]) };
    // A failed read is not kept: the next page asks again.
    const failed = () => {
      if (kept === entry) kept = null;
      return [] as Announcement[];
    };
    entry.rows = apiFor(request, { language, token: null, user: null, mobile: false })
      .call("/anon/community/activeAnnouncements", {})
      .then((r) => (r.ok ? r.data : failed()), failed);
    kept = entry;
  }
  const rows = await kept.rows;
  const at = new Date(now);
  return rows
    .filter((a) => isActiveAt(a, at))
    .map((a) => {
      const { title, fallback } = pickLanguage(
        { titleEn: a.titleEn, titleZh: a.titleZh, bodyEn: "", bodyZh: "" },
        language,
      );
      return { postId: a.postId, title, fallback };
    });
}

/** The <link rel="alternate"> of a feed in the reader's language (app/lib/community-meta.ts). */
export function feedLinks(name: FeedName, language: Language) {
  const t = fixedT(language, "community");
  return [
    {
      href: feedHref(name, language, "rss"),
      type: "application/rss+xml" as const,
      title: `${t(FEEDS[name].titleKey)} (RSS)`,
    },
    {
      href: feedHref(name, language, "atom"),
      type: "application/atom+xml" as const,
      title: `${t(FEEDS[name].titleKey)} (Atom)`,
    },
  ];
}
