import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { auditDecisionSchema, disableSchema } from "#contract/participation.ts";
import { AuditState } from "#contract/participation-codes.ts";
import type { DataOf } from "#contract/paths.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { Field, nodeLabel } from "#app/components/details.tsx";
import { TextAreaField } from "#app/components/forms.tsx";
import { FormErrors } from "#app/components/form-parts.tsx";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { formatDate } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { AuditBadge, Timeline } from "./status.tsx";

/** What the View route loads (app/routes/g.home.ParticipationManagement.View.tsx). */
export type ParticipationViewData = SerializeFrom<{
  item: DataOf<"/sys/chainAppInfo/joinManageView">;
  back: string;
  language: Language;
}>;
/** The route's answer to a step: the form's result, and the confirm step (without JavaScript) when it asks first. */
export type PublisherStepAnswer = {
  kind: "decide" | "disable";
  result: SubmissionResult<string[]>;
  confirm: { decision: string; comments: string } | null;
};

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
  lastAnswer,
  children,
}: {
  intent: "decide" | "disable";
  title: string;
  schema: z.ZodType<{ comments?: string }, { comments?: string }>;
  appJoinAuditId: number;
  commentsLabel: string;
  commentsHint?: string;
  lastAnswer: PublisherStepAnswer | undefined;
  children: (formId: string) => ReactNode;
}) {
  const [form, fields] = useSchemaForm(schema, lastAnswer?.kind === intent ? lastAnswer.result : undefined, {
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

/** The body of SPEC §2 ParticipationManagement/View: the request, the publisher's decide and disable forms, its records. */
export function ParticipationView({
  item,
  back,
  language,
  actionData,
}: ParticipationViewData & { actionData: PublisherStepAnswer | undefined }) {
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
          lastAnswer={actionData}
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
          lastAnswer={actionData}
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
