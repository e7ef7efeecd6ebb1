import { FormProvider, getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { auditDecisionSchema, disableSchema } from "#contract/participation.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { Field, nodeLabel } from "#app/components/details.tsx";
import { FormErrors, TextAreaField } from "#app/components/forms.tsx";
import { AuditBadge, Timeline } from "#app/components/participation/status.tsx";
import { apiFor, failureResponse, requireUser } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { requiredId } from "#app/lib/params.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import type { VueapiResult } from "#app/lib/vueapi.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { AuditState } from "#contract/participation-codes.ts";

export const handle = {
  i18n: ["participation"],
  breadcrumb: [
    { key: "menu.participationManagement", to: "/g/home/ParticipationManagement" },
    { key: "titles.participationView" },
  ],
};
export const meta = pageTitle("participationView");

const backTo = (url: URL) => {
  const q = url.searchParams.get("back") ?? "";
  return `/g/home/ParticipationManagement${/^[A-Za-z0-9=&%._+-]*$/.test(q) && q ? `?${q}` : ""}`;
};

/** SPEC §2 ParticipationManagement/View: one request to join the publisher's service; approve, reject, disable. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const appJoinAuditId = requiredId(url, "appJoinAuditId");
  const item = await apiFor(request, viewer).load("/sys/chainAppInfo/joinManageView", { appJoinAuditId });
  return json({ item, back: backTo(url), language: viewer.language });
}

/**
 * One of the publisher's steps (decide, disable): the form is validated, then (without JavaScript) comes
 * back as a confirm step, and once confirmed goes to the backend; a refusal is shown on the form.
 */
async function publisherStep<
  K extends "decide" | "disable",
  S extends z.ZodType<{ appJoinAuditId: number; comments?: string }>,
>(
  request: Request,
  formData: FormData,
  kind: K,
  schema: S,
  step: {
    decision: (v: z.output<S>) => string;
    call: (v: z.output<S>) => Promise<VueapiResult<unknown>>;
    flash: (v: z.output<S>) => string;
  },
) {
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success")
    return json({ kind, result: submission.reply(), confirm: null }, { status: 400 });
  const v = submission.value;
  if (formData.get("confirmed") !== "yes")
    return json({
      kind,
      result: submission.reply(),
      confirm: { decision: step.decision(v), comments: v.comments ?? "" },
    });
  const result = await step.call(v);
  if (!result.ok) {
    if (result.status >= 500) throw failureResponse(result);
    return json({ kind, result: replyWithFailure(submission, result), confirm: null }, { status: 400 });
  }
  const url = new URL(request.url);
  return redirectWithFlash(request, url.pathname + url.search, { kind: "success", key: step.flash(v) });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = intentOf(formData, ["decide", "disable"]);
  const api = apiFor(request, viewer);
  switch (intent) {
    case "decide":
      return publisherStep(request, formData, intent, auditDecisionSchema, {
        decision: (v) => v.decision,
        call: (v) =>
          api.call("/sys/chainAppInfo/auditAppJoined", {
            appJoinAuditId: v.appJoinAuditId,
            auditState: v.decision === "approve" ? 1 : 2,
            comments: v.comments,
          }),
        flash: (v) => (v.decision === "approve" ? "participation:flash.approved" : "participation:flash.rejected"),
      });
    case "disable":
      return publisherStep(request, formData, intent, disableSchema, {
        decision: () => "disable",
        call: (v) => api.call("/sys/chainAppInfo/disableJoin", v),
        flash: () => "participation:flash.disabled",
      });
  }
}

function ConfirmStep({
  intent,
  id,
  decision,
  comments,
  question,
}: {
  intent: string;
  id: number;
  decision: string;
  comments: string;
  question: string;
}) {
  const { t } = useTranslation("participation");
  const location = useLocation();
  return (
    <div className="card max-w-lg" role="alertdialog" aria-labelledby="confirm-step-title" data-testid="confirm-step">
      <h2 id="confirm-step-title" className="text-lg font-semibold">
        {t("view.confirm")}
      </h2>
      <p className="mt-2 text-slate-600">{question}</p>
      {comments ? (
        <p className="mt-1 text-sm text-slate-500">
          {t("view.comments")}: {comments}
        </p>
      ) : null}
      <Form method="post" action={location.pathname + location.search} className="mt-4 flex justify-end gap-2">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="appJoinAuditId" value={id} />
        {intent === "decide" ? <input type="hidden" name="decision" value={decision} /> : null}
        <input type="hidden" name="comments" value={comments} />
        <input type="hidden" name="confirmed" value="yes" />
        <Link to={location.pathname + location.search} className="btn-secondary">
          {t("view.cancel")}
        </Link>
        <button type="submit" className="btn-primary">
          {t("view.confirm")}
        </button>
      </Form>
    </div>
  );
}

/** The decide or the disable form: comments, and buttons (given the form's id) that ask before they post. */
function PublisherForm({
  intent,
  title,
  schema,
  appJoinAuditId,
  commentsLabel,
  commentsHint,
  children,
}: {
  intent: "decide" | "disable";
  title: string;
  schema: z.ZodType<{ comments?: string }, { comments?: string }>;
  appJoinAuditId: number;
  commentsLabel: string;
  commentsHint?: string;
  children: (formId: string) => ReactNode;
}) {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(schema, actionData?.kind === intent ? actionData.result : undefined, {
    id: intent,
  });
  return (
    <section className="card space-y-2" aria-labelledby={`${intent}-title`}>
      <h2 id={`${intent}-title`} className="font-semibold">
        {title}
      </h2>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="space-y-2">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="appJoinAuditId" value={appJoinAuditId} />
          <TextAreaField field={fields.comments} label={commentsLabel} hint={commentsHint} rows={2} />
          {children(form.id)}
        </Form>
      </FormProvider>
    </section>
  );
}

export default function ParticipationView() {
  const { item, back, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("participation");
  const vars = { applicant: item.applicant, name: item.name };
  const confirm = actionData?.confirm ?? null;
  if (confirm) {
    const question =
      confirm.decision === "disable"
        ? t("view.disableQuestion", vars)
        : confirm.decision === "approve"
          ? t("view.approveQuestion", vars)
          : t("view.rejectQuestion", vars);
    return (
      <ConfirmStep
        intent={actionData!.kind}
        id={item.appJoinAuditId}
        decision={confirm.decision}
        comments={confirm.comments}
        question={question}
      />
    );
  }
  const canDisable =
    !item.disabled &&
    item.auditState !== AuditState.PUBLISHER_REJECTED &&
    item.auditState !== AuditState.OPERATOR_REJECTED;
  return (
    <div className="space-y-4">
      <Link to={back} className="link text-sm">
        {t("view.back")}
      </Link>
      <section className="card space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <PageHeader title={t("view.title")} />
          <AuditBadge auditState={item.auditState} />
          {item.disabled ? <span className="text-sm text-red-700">{t("manage.disabled")}</span> : null}
        </div>
        <dl className="grid gap-3 sm:grid-cols-3">
          <Field label={t("view.service")}>{item.name}</Field>
          <Field label={t("view.applicant")}>
            {item.applicant} ({item.applicantRealName})
          </Field>
          <Field label={t("view.email")}>{item.applicantEmail}</Field>
          <Field label={t("detail.role")}>{item.roleName}</Field>
          <Field label={t("detail.nodes")}>{item.cityNodes.map((n) => nodeLabel(n, language)).join(", ")}</Field>
          <Field label={t("detail.appliedAt")}>{formatDate(item.createdAt, language, true)}</Field>
          <Field label={t("detail.certificateMode")}>{t(`modes.${item.certificateMode}`)}</Field>
          <Field label={t("view.certificate")}>
            <span className="break-all font-mono text-xs">{item.certificateSubject ?? "—"}</span>
          </Field>
        </dl>
      </section>
      {item.auditState === AuditState.PENDING && !item.disabled ? (
        <PublisherForm
          intent="decide"
          title={t("view.decide")}
          schema={auditDecisionSchema}
          appJoinAuditId={item.appJoinAuditId}
          commentsLabel={t("view.comments")}
          commentsHint={t("view.commentsHint")}
        >
          {(formId) => (
            <div className="flex gap-2">
              <ConfirmSubmit
                formId={formId}
                name="decision"
                value="approve"
                label={t("view.approve")}
                title={t("view.approve")}
                question={t("view.approveQuestion", vars)}
                confirmLabel={t("view.confirm")}
              />
              <ConfirmSubmit
                formId={formId}
                name="decision"
                value="reject"
                label={t("view.reject")}
                title={t("view.reject")}
                question={t("view.rejectQuestion", vars)}
                confirmLabel={t("view.confirm")}
                className="btn-danger"
              />
            </div>
          )}
        </PublisherForm>
      ) : null}
      {canDisable ? (
        <PublisherForm
          intent="disable"
          title={t("view.disableTitle")}
          schema={disableSchema}
          appJoinAuditId={item.appJoinAuditId}
          commentsLabel={t("view.disableReason")}
        >
          {(formId) => (
            <ConfirmSubmit
              formId={formId}
              label={t("view.disable")}
              title={t("view.disableTitle")}
              question={t("view.disableQuestion", vars)}
              confirmLabel={t("view.confirm")}
              className="btn-danger"
            />
          )}
        </PublisherForm>
      ) : null}
      <section className="card space-y-2">
        <h2 className="font-semibold">{t("detail.records")}</h2>
        <Timeline steps={item.transitions} language={language} />
      </section>
    </div>
  );
}
