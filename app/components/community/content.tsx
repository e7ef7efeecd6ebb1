import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Badge } from "#app/components/Badge.tsx";

/**
 * Small pieces of the community's pages (docs/decisions/040): the visible fallback of a missing translation,
 * rendered Markdown, and the announcement banner of every page.
 */

/** Says that the text is shown in the other language because this one has no translation. */
export function FallbackBadge({ fallback }: { fallback: "en" | "zh-CN" | null }) {
  const { t } = useTranslation();
  if (!fallback) return null;
  return (
    <span lang={fallback} data-testid="fallback-badge">
      <Badge tone="info">{t(`shownIn.${fallback}`)}</Badge>
    </span>
  );
}

/** HTML the portal made from Markdown with the sanitiser (app/lib/markdown.server.ts): nothing else goes here. */
export function MarkdownBody({ html, lang }: { html: string; lang?: string }) {
  return (
    <div
      lang={lang}
      className="space-y-3 leading-relaxed text-slate-800 [&_a]:text-brand-700 [&_a]:underline [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_h1]:text-xl [&_h1]:font-semibold [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_pre]:overflow-x-auto [&_pre]:rounded [&_pre]:bg-slate-100 [&_pre]:p-3 [&_table]:text-sm [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2 [&_ul]:list-disc [&_ul]:pl-6"
      // Sanitised by rehype-sanitize on the server.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

export type BannerItem = { postId: number; title: string; fallback: "en" | "zh-CN" | null };

/** The active announcements, on every page of /g/main and /g/home while their window holds. */
export function AnnouncementBanner({ items }: { items: BannerItem[] }) {
  const { t } = useTranslation();
  if (!items.length) return null;
  return (
    <aside
      aria-label={t("banner.label")}
      className="border-b border-amber-200 bg-amber-50"
      data-testid="announcement-banner"
    >
      <ul className="mx-auto max-w-6xl space-y-1 px-4 py-2 text-sm text-amber-900">
        {items.map((a) => (
          <li key={a.postId} className="flex flex-wrap items-center gap-2">
            <span className="font-semibold">{t("banner.label")}:</span>
            {/* The operator's own words (user data: the words walks do not judge them). */}
            <Link to={`/g/main/announcementDetail?id=${a.postId}`} className="underline" data-user-content="">
              {a.title}
            </Link>
            <FallbackBadge fallback={a.fallback} />
          </li>
        ))}
      </ul>
    </aside>
  );
}
