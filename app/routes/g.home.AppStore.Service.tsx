import { FormProvider, getFormProps, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { commentFormSchema, rateFormSchema, type StoreServiceDetail } from "#contract/store.ts";
import { FormErrors, SelectField, SubmitButton, TextAreaField } from "#app/components/forms.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { FollowButton, ListingHeader, ParticipationBadge, Rating } from "#app/components/store/listing.tsx";
import { apiFor, redirectAfter, requireUser, type Api } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import type { Language } from "#app/lib/i18n.ts";
import { intentOf, parseFormOr400 } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { positiveParam } from "#app/lib/params.ts";
import { requiredId } from "#app/lib/params.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { followAction } from "#app/lib/store.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

export const handle = {
  i18n: ["store", "wizard"],
  breadcrumb: [
    { key: "menu.appStore" },
    { key: "menu.storeServices", to: "/g/home/AppStore/Services" },
    { key: "titles.storeService" },
  ],
};
export const meta = pageTitle("storeService", (d) => d.service?.name);

/** A listed service in the app store: details, roles, comments; follow, rate, comment, mark useful, join. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const appId = requiredId(url, "appId");
  const commentPage = positiveParam(url.searchParams.get("page")) ?? 1;
  const service = await apiFor(request, viewer).load("/sys/store/service", { appId, commentPage });
  return json({ service, commentPage, language: viewer.language });
}

const listingRef = z.object({ appId: z.coerce.number().int().positive() });
const commentRef = listingRef.extend({ commentId: z.coerce.number().int().positive() });
const here = (appId: number) => `/g/home/AppStore/Service?appId=${appId}`;

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = intentOf(formData, ["comment", "rate", "useful", "follow", "unfollow"]);
  const api = apiFor(request, viewer);
  switch (intent) {
    case "comment":
      return comment(request, api, formData);
    case "rate":
      return rate(request, api, formData);
    case "useful": {
      const { appId, commentId } = parseFormOr400(commentRef, formData);
      return redirectAfter(
        request,
        await api.call("/sys/store/markUseful", { commentId }),
        `${here(appId)}#comments`,
        "store:flash.useful",
        here(appId),
      );
    }
    case "follow":
    case "unfollow": {
      const { appId } = parseFormOr400(listingRef, formData);
      return followAction(
        request,
        api,
        { targetKind: "app", targetId: appId, follow: intent === "follow" },
        here(appId),
      );
    }
  }
}

/** A participant's comment (SPEC §3 Comment). */
async function comment(request: Request, api: Api, formData: FormData) {
  const submission = parseWithZod(formData, { schema: commentFormSchema });
  if (submission.status !== "success")
    return json({ kind: "comment" as const, result: submission.reply() }, { status: 400 });
  const result = await api.call("/sys/chainAppInfo/addComment", submission.value);
  if (!result.ok)
    return json({ kind: "comment" as const, result: replyWithFailure(submission, result) }, { status: 400 });
  return redirectWithFlash(request, `${here(submission.value.appId)}#comments`, {
    kind: "success",
    key: "store:flash.commented",
  });
}

/** A participant's rating, one to five stars. */
async function rate(request: Request, api: Api, formData: FormData) {
  const submission = parseWithZod(formData, { schema: rateFormSchema });
  if (submission.status !== "success")
    return json({ kind: "rate" as const, result: submission.reply() }, { status: 400 });
  const result = await api.call("/sys/store/rate", submission.value);
  if (!result.ok) return json({ kind: "rate" as const, result: replyWithFailure(submission, result) }, { status: 400 });
  return redirectWithFlash(request, here(submission.value.appId), { kind: "success", key: "store:flash.rated" });
}

function RateForm({ service }: { service: StoreServiceDetail }) {
  const { t } = useTranslation("store");
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(rateFormSchema, actionData?.kind === "rate" ? actionData.result : undefined, {
    id: "rate",
    defaultValue: { score: service.myRating ? String(service.myRating) : "" },
    shouldRevalidate: "onSubmit",
  });
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-end gap-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="appId" value={service.appId} />
        <SelectField
          field={fields.score as FieldMetadata<string | undefined>}
          label={t("service.rate")}
          placeholder="—"
          options={[5, 4, 3, 2, 1].map((n) => ({ value: String(n), label: t("service.stars", { count: n }) }))}
        />
        <SubmitButton intent="rate" className="btn-secondary">
          {t("service.rateButton")}
        </SubmitButton>
      </Form>
    </FormProvider>
  );
}

function CommentForm({ appId }: { appId: number }) {
  const { t } = useTranslation("store");
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(
    commentFormSchema,
    actionData?.kind === "comment" ? actionData.result : undefined,
    { id: "comment" },
  );
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="space-y-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="appId" value={appId} />
        <TextAreaField field={fields.text} label={t("service.commentLabel")} hint={t("service.commentHint")} rows={3} />
        <SubmitButton intent="comment" className="btn-primary">
          {t("service.commentButton")}
        </SubmitButton>
      </Form>
    </FormProvider>
  );
}

/** Comments a page of the store's service page (the backend pages them by 20). */
const COMMENTS_PER_PAGE = 20;

function Comments({ service, page, language }: { service: StoreServiceDetail; page: number; language: Language }) {
  const { t } = useTranslation("store");
  const location = useLocation();
  return (
    <section id="comments" className="card space-y-4" aria-labelledby="comments-title">
      <h2 id="comments-title" className="font-semibold">
        {t("service.comments", { count: service.commentsTotal })}
      </h2>
      {service.participation === "participated" ? (
        <CommentForm appId={service.appId} />
      ) : (
        <p className="text-sm text-slate-600">{t("service.commentParticipants")}</p>
      )}
      {service.comments.length === 0 ? (
        <p className="text-sm text-slate-500">{t("service.noComments")}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {service.comments.map((c) => (
            <li key={c.commentId} className="space-y-1 py-3" data-testid="comment">
              <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-500">
                <span>
                  {c.userName} · {formatDate(c.createdAt, language, true)}
                </span>
                <span
                  className={`rounded-full px-2 py-0.5 ${c.reply ? "bg-green-100 text-green-800" : "bg-slate-100 text-slate-700"}`}
                >
                  {t(c.reply ? "service.replied" : "service.unreplied")}
                </span>
              </div>
              <p className="whitespace-pre-line break-words text-sm text-slate-900">{c.text}</p>
              {c.reply ? (
                <p className="rounded-md bg-slate-50 p-2 text-sm text-slate-700">
                  <span className="font-semibold">{t("service.reply")}:</span> {c.reply}
                </p>
              ) : null}
              {c.markedByMe ? (
                <p className="text-xs text-slate-500">
                  {t("service.useful", { count: c.usefulCount })} · {t("service.markedUseful")}
                </p>
              ) : (
                <Form method="post" action={location.pathname + location.search}>
                  <input type="hidden" name="appId" value={service.appId} />
                  <input type="hidden" name="commentId" value={c.commentId} />
                  <button type="submit" name="intent" value="useful" className="link text-xs">
                    {t("service.markUseful", { count: c.usefulCount })}
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      <Pagination pageIndex={page} pageSize={COMMENTS_PER_PAGE} total={service.commentsTotal} />
    </section>
  );
}

export default function StoreService() {
  const { service, commentPage, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("store");
  const canJoin = !service.own && service.participation === "none";
  return (
    <div className="space-y-4">
      <ListingHeader
        kind="app"
        id={service.appId}
        name={service.name}
        hasCover={service.hasCover}
        badge={<ParticipationBadge participation={service.participation} own={service.own} />}
        summary={service.description}
      >
        <p className="text-sm text-slate-500">
          {t("services.publisher")}: {service.publisher} · {t("service.version")}: {service.version}
          {service.industry
            ? ` · ${t(`wizard:industries.${service.industry}`, { defaultValue: service.industry })}`
            : ""}
          {service.framework
            ? ` · ${t("service.framework")}: ${t(`wizard:frameworks.${service.framework}`, { defaultValue: service.framework })}`
            : ""}
          {" · "}
          {t("services.published")}: {formatDate(service.publishedAt, language)}
        </p>
        <p className="text-sm">
          <Rating average={service.ratingAverage} count={service.ratingCount} /> ·{" "}
          <span data-testid="followers">{t("services.followers", { count: service.followers })}</span>
        </p>
        <div className="flex flex-wrap items-center gap-2 pt-2">
          {canJoin ? (
            <Link
              to={`/g/home/ParticipatedServices/JOIN?a=${service.appId}&b=${encodeURIComponent(service.appCode)}`}
              className="btn-primary"
            >
              {t("service.join")}
            </Link>
          ) : null}
          <FollowButton idName="appId" id={service.appId} following={service.following} />
          {service.own ? (
            <Link
              to={`/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${service.appId}&activeNames=comments`}
              className="link text-sm"
            >
              {t("service.replyLink")}
            </Link>
          ) : null}
        </div>
        {canJoin ? <p className="text-xs text-slate-500">{t("service.joinHint")}</p> : null}
        {service.own ? <p className="text-xs text-slate-500">{t("service.ownHint")}</p> : null}
      </ListingHeader>
      {service.introduction ? (
        <section className="card">
          <h2 className="font-semibold">{t("service.introduction")}</h2>
          <p className="mt-2 whitespace-pre-line text-sm text-slate-700">{service.introduction}</p>
        </section>
      ) : null}
      <section className="card">
        <h2 className="font-semibold">{t("service.roles")}</h2>
        {service.roles.length === 0 ? (
          <p className="text-sm text-slate-500">{t("service.noRoles")}</p>
        ) : (
          <ul className="mt-2 list-disc pl-5 text-sm">
            {service.roles.map((r) => (
              <li key={r.roleId}>
                <span className="font-medium">{r.name}</span>
                {r.description ? ` — ${r.description}` : ""}
              </li>
            ))}
          </ul>
        )}
      </section>
      {service.participation === "participated" ? (
        <section className="card space-y-1">
          <RateForm service={service} />
          <p className="text-xs text-slate-500">{t("service.rateHint")}</p>
        </section>
      ) : null}
      <Comments service={service} page={commentPage} language={language} />
    </div>
  );
}
