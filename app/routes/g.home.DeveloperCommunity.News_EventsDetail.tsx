import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { signupSchema } from "#contract/community.ts";
import { FallbackBadge, MarkdownBody } from "#app/components/community/content.tsx";
import { PostMeta } from "#app/components/community/PostMeta.tsx";
import { SignupForm } from "#app/components/community/SignupForm.tsx";
import { apiFor, notFound, requireUser } from "#app/lib/api.server.ts";
import { viewPost } from "#app/lib/community.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveParam } from "#app/lib/params.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["community"],
  breadcrumb: [
    { key: "menu.developerCommunity" },
    { key: "menu.newsEvents", to: "/g/home/DeveloperCommunity/News_Events" },
    { key: "titles.newsEventsDetail" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("newsEventsDetail", (d: { post?: { title: string } }) => d.post?.title);

/** SPEC §2 News_EventsDetail (eventId): a news item or event; an event has its seats, deadline and sign-up. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const eventId = positiveParam(new URL(request.url).searchParams.get("eventId"));
  if (!eventId) throw notFound();
  const api = apiFor(request, viewer);
  const detail = await api.load("/sys/devGame/detail", { eventId });
  const now = Date.now();
  const open =
    detail.kind === "event" &&
    !!detail.signupDeadline &&
    now <= Date.parse(detail.signupDeadline) &&
    (!detail.startsAt || now < Date.parse(detail.startsAt));
  // The form starts with the account's name and notification email (the user may change both).
  const profile = open && !detail.mySignup ? await api.call("/sys/system/clientInfo/profile", {}) : null;
  return json({
    post: viewPost(detail, viewer.language),
    seatsLeft: detail.seatsLeft,
    mySignup: detail.mySignup,
    open,
    defaults: { name: viewer.user.realName || viewer.user.userName, email: profile?.ok ? profile.data.email : "" },
    language: viewer.language,
  });
}

/** SPEC §7 saveSingUpInfo, checked here and again by the backend (capacity, deadline, once per user). */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: signupSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/devGame/saveSingUpInfo", submission.value);
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: formFailureStatus(result) });
  return redirectWithFlash(
    request,
    `/g/home/DeveloperCommunity/News_EventsDetail?eventId=${submission.value.eventId}`,
    { kind: "success", key: "community:signup.done" },
  );
}

export default function NewsEventDetail() {
  const { post, seatsLeft, mySignup, open, defaults, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("community");
  return (
    <article className="space-y-4">
      <Link to="/g/home/DeveloperCommunity/News_Events" className="link text-sm">
        ← {t("detail.back")}
      </Link>
      <div className="card space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-2xl font-semibold">{post.title}</h2>
          <FallbackBadge fallback={post.fallback} />
        </div>
        <PostMeta post={post} language={language} />
        <MarkdownBody html={post.html} lang={post.fallback ?? undefined} />
      </div>
      {post.kind === "event" ? (
        <section className="card space-y-4" aria-labelledby="event-facts" data-testid="event-signup">
          <h2 id="event-facts" className="sr-only">
            {t("event.facts")}
          </h2>
          <dl className="grid gap-3 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-slate-500">{t("event.seatsLeft")}</dt>
              <dd className="font-semibold" data-testid="seats-left">
                {seatsLeft} / {post.capacity}
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">{t("event.deadline")}</dt>
              <dd className="font-semibold">{formatDate(post.signupDeadline, language, true)}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{t("event.yourSignup")}</dt>
              <dd className="font-semibold" data-testid="my-signup">
                {mySignup
                  ? t("event.signedUpAt", { at: formatDate(mySignup.createdAt, language, true) })
                  : t("event.notSignedUp")}
              </dd>
            </div>
          </dl>
          {mySignup ? null : !open ? (
            <p className="text-sm text-slate-600">{t("event.closed")}</p>
          ) : seatsLeft === 0 ? (
            <p className="text-sm text-slate-600">{t("event.full")}</p>
          ) : (
            <SignupForm eventId={post.postId} defaults={defaults} lastResult={actionData?.result} />
          )}
        </section>
      ) : null}
    </article>
  );
}
