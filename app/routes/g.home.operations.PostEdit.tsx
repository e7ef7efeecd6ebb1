import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { POST_KINDS, localTimeOf, postFormSchema, type Post, type PostKind } from "#contract/community.ts";
import { PostForm } from "#app/components/community/PostForm.tsx";
import { apiFor, notFound, requireOperator } from "#app/lib/api.server.ts";
import { forgetAnnouncements } from "#app/lib/community.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { oneOf, positiveParam } from "#app/lib/params.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["community"],
  breadcrumb: [{ key: "menu.operations", to: "/g/home/operations" }, { key: "titles.opsPostEdit" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("opsPostEdit");

/** The list tab of each kind. */
const LIST_OF: Record<PostKind, string> = {
  news: "/g/home/operations/News?kind=news",
  event: "/g/home/operations/News?kind=event",
  release: "/g/home/operations/ReleaseNotes",
  announcement: "/g/home/operations/Announcements",
};

const local = (v: string | null) => (v ? localTimeOf(v) : "");
function defaultsOf(p: Post): Record<string, string> {
  return {
    titleEn: p.titleEn,
    titleZh: p.titleZh,
    bodyEn: p.bodyEn,
    bodyZh: p.bodyZh,
    startsAt: local(p.startsAt),
    signupDeadline: local(p.signupDeadline),
    capacity: p.capacity === null ? "" : String(p.capacity),
    location: p.location,
    version: p.version,
    activeFrom: local(p.activeFrom),
    activeTo: local(p.activeTo),
  };
}

/** Operations: a new post of a kind (?kind=) or an existing one (?postId=), in both languages (docs/decisions/040). */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const url = new URL(request.url);
  const postId = positiveParam(url.searchParams.get("postId"));
  if (postId) {
    const post = await apiFor(request, viewer).load("/sys/ops/community/post", { postId });
    return json({ kind: post.kind, postId, defaults: defaultsOf(post), published: post.published });
  }
  const kind = oneOf(POST_KINDS, url.searchParams.get("kind"));
  if (!kind) throw notFound();
  return json({ kind, postId: null, defaults: null as Record<string, string> | null, published: false });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireOperator(request);
  const submission = parseWithZod(await request.formData(), { schema: postFormSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/ops/community/savePost", submission.value);
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: formFailureStatus(result) });
  if (submission.value.kind === "announcement") forgetAnnouncements();
  return redirectWithFlash(request, LIST_OF[submission.value.kind], { kind: "success", key: "community:ops.saved" });
}

export default function PostEdit() {
  const { kind, postId, defaults, published } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("community");
  return (
    <div className="card space-y-4">
      <Link to={LIST_OF[kind]} className="link text-sm">
        ← {t("ops.backToList")}
      </Link>
      <h2 className="text-lg font-semibold">{t(postId ? `ops.edit.${kind}` : `ops.new.${kind}`)}</h2>
      {postId ? (
        <p className="text-sm text-slate-600">{t(published ? "ops.editPublished" : "ops.editDraft")}</p>
      ) : (
        <p className="text-sm text-slate-600">{t("ops.newIsDraft")}</p>
      )}
      <PostForm kind={kind} postId={postId} defaults={defaults ?? undefined} lastResult={actionData?.result} />
    </div>
  );
}
