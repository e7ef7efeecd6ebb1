import { FormProvider, getFormProps, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { commentFormSchema, rateFormSchema, type StoreServiceDetail } from "#contract/store.ts";
import { SelectField, TextAreaField } from "#app/components/forms.tsx";
import { BesideFields, FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { Pagination } from "#app/components/Pagination.tsx";
import { formatDate } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { FollowButton, ListingHeader, ParticipationBadge, Rating } from "./listing.tsx";

/** The route's answer to a refused comment or rating (app/routes/g.home.AppStore.Service.tsx). */
export type StoreFormAnswer = { kind: "comment" | "rate"; result: SubmissionResult<string[]> };

function RateForm({ service, actionData }: { service: StoreServiceDetail; actionData: StoreFormAnswer | undefined }) {
  const { t } = useTranslation("store");
  const [form, fields] = useSchemaForm(rateFormSchema, actionData?.kind === "rate" ? actionData.result : undefined, {
    id: "rate",
    defaultValue: { score: service.myRating ? String(service.myRating) : "" },
    shouldRevalidate: "onSubmit",
  });
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-start gap-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="appId" value={service.appId} />
        <SelectField
          field={fields.score as FieldMetadata<string | undefined>}
          label={t("service.rate")}
          placeholder="—"
          options={[5, 4, 3, 2, 1].map((n) => ({ value: String(n), label: t("service.stars", { count: n }) }))}
        />
        <BesideFields>
          <SubmitButton intent="rate" className="btn-secondary">
            {t("service.rateButton")}
          </SubmitButton>
        </BesideFields>
      </Form>
    </FormProvider>
  );
}

function CommentForm({ appId, actionData }: { appId: number; actionData: StoreFormAnswer | undefined }) {
  const { t } = useTranslation("store");
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

function Comments({
  service,
  page,
  language,
  actionData,
}: {
  service: StoreServiceDetail;
  page: number;
  language: Language;
  actionData: StoreFormAnswer | undefined;
}) {
  const { t } = useTranslation("store");
  const location = useLocation();
  return (
    <section id="comments" className="card space-y-4" aria-labelledby="comments-title">
      <h2 id="comments-title" className="font-semibold">
        {t("service.comments", { count: service.commentsTotal })}
      </h2>
      {service.participation === "participated" ? (
        <CommentForm appId={service.appId} actionData={actionData} />
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

/** The body of a listed service in the app store: details, roles, rating and comments. */
export function StoreServicePage({
  service,
  commentPage,
  language,
  actionData,
}: {
  service: StoreServiceDetail;
  commentPage: number;
  language: Language;
  actionData: StoreFormAnswer | undefined;
}) {
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
          <RateForm service={service} actionData={actionData} />
          <p className="text-xs text-slate-500">{t("service.rateHint")}</p>
        </section>
      ) : null}
      <Comments service={service} page={commentPage} language={language} actionData={actionData} />
    </div>
  );
}
