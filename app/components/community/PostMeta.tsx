import { useTranslation } from "react-i18next";
import { Badge } from "#app/components/Badge.tsx";
import { formatDate } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";

type EventFields = {
  kind: string;
  startsAt: string | null;
  location: string;
  signupDeadline: string | null;
  publishedAt: string | null;
};

/** The line under a news item's or event's title: its kind, date, and for an event where and when. */
export function PostMeta({ post, language }: { post: EventFields; language: Language }) {
  const { t } = useTranslation("community");
  return (
    <p className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
      <Badge tone={post.kind === "event" ? "ok" : "off"}>{t(`kinds.${post.kind}`)}</Badge>
      {post.kind === "event" && post.startsAt ? (
        <>
          <span>
            {t("event.startsAt")}: {formatDate(post.startsAt, language, true)}
          </span>
          {post.location ? (
            <span>
              · {t("event.location")}: <span data-user-content="">{post.location}</span>
            </span>
          ) : null}
        </>
      ) : post.publishedAt ? (
        <span>
          {t("published")}: {formatDate(post.publishedAt, language)}
        </span>
      ) : null}
    </p>
  );
}
