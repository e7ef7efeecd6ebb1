import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FallbackBadge, MarkdownBody } from "#app/components/community/content.tsx";
import { apiFor, getViewer, notFound } from "#app/lib/api.server.ts";
import { viewPost } from "#app/lib/community.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveParam } from "#app/lib/params.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["community"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("announcementDetail", (d: { post?: { title: string } }) => d.post?.title);

/** SPEC §2 system announcement detail (public, ?id=N): a published announcement with its window. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const postId = positiveParam(new URL(request.url).searchParams.get("id"));
  if (!postId) throw notFound();
  const post = await apiFor(request, viewer).load("/anon/community/announcement", { postId });
  return json({ post: viewPost(post, viewer.language), language: viewer.language });
}

export default function AnnouncementDetail() {
  const { post, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("community");
  return (
    <article className="mx-auto max-w-3xl space-y-4 px-4 py-10">
      <Link to="/g/main/announcements" className="link text-sm">
        ← {t("announcements.back")}
      </Link>
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-3xl font-semibold text-slate-900">{post.title}</h1>
        <FallbackBadge fallback={post.fallback} />
      </div>
      <p className="text-sm text-slate-600">
        {t("announcements.window")}: {formatDate(post.activeFrom, language, true)} –{" "}
        {formatDate(post.activeTo, language, true)}
      </p>
      <MarkdownBody html={post.html} lang={post.fallback ?? undefined} />
    </article>
  );
}
