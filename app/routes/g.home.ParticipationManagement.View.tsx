import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { auditDecisionSchema, disableSchema } from "@contract/participation";
import { ConfirmSubmit } from "~/components/ConfirmSubmit";
import { FormErrors, TextAreaField } from "~/components/forms";
import { Field, nodeLabel } from "~/components/details";
import { AuditBadge, Timeline } from "~/components/participation";
import { apiFor, badRequest, failureResponse, notFound, requireUser } from "~/lib/api.server";
import { formatDate } from "~/lib/format";
import { replyWithFailure } from "~/lib/forms.server";
import { pageTitle } from "~/lib/meta";
import { positiveParam } from "~/lib/params";
import { redirectWithFlash } from "~/lib/session.server";

export const handle = {
  i18n: ["participation"],
  breadcrumb: [{ key: "menu.participationManagement", to: "/g/home/ParticipationManagement" }, { key: "titles.participationView" }],
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
  const appJoinAuditId = positiveParam(url.searchParams.get("appJoinAuditId"));
  if (!appJoinAuditId) throw notFound();
  const item = await apiFor(request, viewer).load("/sys/chainAppInfo/joinManageView", { appJoinAuditId });
  return json({ item, back: backTo(url), language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const url = new URL(request.url);
  const here = url.pathname + url.search;
  const confirmed = formData.get("confirmed") === "yes";
  const api = apiFor(request, viewer);
  if (intent === "decide") {
    const submission = parseWithZod(formData, { schema: auditDecisionSchema });
    if (submission.status !== "success") return json({ kind: "decide" as const, result: submission.reply(), confirm: null }, { status: 400 });
    const v = submission.value;
    // Without JavaScript the decision comes back as a confirm step first.
    if (!confirmed) return json({ kind: "decide" as const, result: submission.reply(), confirm: { decision: v.decision, comments: v.comments ?? "" } });
    const result = await api.call("/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: v.appJoinAuditId, auditState: v.decision === "approve" ? 1 : 2, comments: v.comments });
    if (!result.ok) {
      if (result.status >= 500) throw failureResponse(result);
      return json({ kind: "decide" as const, result: replyWithFailure(submission, result), confirm: null }, { status: 400 });
    }
    return redirectWithFlash(request, here, { kind: "success", key: v.decision === "approve" ? "participation:flash.approved" : "participation:flash.rejected" });
  }
  if (intent === "disable") {
    const submission = parseWithZod(formData, { schema: disableSchema });
    if (submission.status !== "success") return json({ kind: "disable" as const, result: submission.reply(), confirm: null }, { status: 400 });
    if (!confirmed) return json({ kind: "disable" as const, result: submission.reply(), confirm: { decision: "disable", comments: submission.value.comments } });
    const result = await api.call("/sys/chainAppInfo/disableJoin", submission.value);
    if (!result.ok) {
      if (result.status >= 500) throw failureResponse(result);
      return json({ kind: "disable" as const, result: replyWithFailure(submission, result), confirm: null }, { status: 400 });
    }
    return redirectWithFlash(request, here, { kind: "success", key: "participation:flash.disabled" });
  }
  // House habit 2: an unknown intent is a 400.
  throw badRequest();
}

function ConfirmStep({ intent, id, decision, comments, question }: { intent: string; id: number; decision: string; comments: string; question: string }) {
  const { t } = useTranslation("participation");
  const location = useLocation();
  return (
    <div className="card max-w-lg" role="alertdialog" aria-labelledby="confirm-step-title" data-testid="confirm-step">
      <h2 id="confirm-step-title" className="text-lg font-semibold">{t("view.confirm")}</h2>
      <p className="mt-2 text-slate-600">{question}</p>
      {comments ? <p className="mt-1 text-sm text-slate-500">{t("view.comments")}: {comments}</p> : null}
      <Form method="post" action={location.pathname + location.search} className="mt-4 flex justify-end gap-2">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="appJoinAuditId" value={id} />
        {intent === "decide" ? <input type="hidden" name="decision" value={decision} /> : null}
        <input type="hidden" name="comments" value={comments} />
        <input type="hidden" name="confirmed" value="yes" />
        <Link to={location.pathname + location.search} className="btn-secondary">{t("view.cancel")}</Link>
        <button type="submit" className="btn-primary">{t("view.confirm")}</button>
      </Form>
    </div>
  );
}

export default function ParticipationView() {
  const { item, back, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("participation");
  const [decideForm, decideFields] = useForm({
    id: "decide",
    lastResult: actionData?.kind === "decide" ? actionData.result : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: auditDecisionSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const [disableForm, disableFields] = useForm({
    id: "disable",
    lastResult: actionData?.kind === "disable" ? actionData.result : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: disableSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const vars = { applicant: item.applicant, name: item.name };
  const confirm = actionData?.confirm ?? null;
  if (confirm) {
    const question = confirm.decision === "disable" ? t("view.disableQuestion", vars) : confirm.decision === "approve" ? t("view.approveQuestion", vars) : t("view.rejectQuestion", vars);
    return <ConfirmStep intent={actionData!.kind} id={item.appJoinAuditId} decision={confirm.decision} comments={confirm.comments} question={question} />;
  }
  const canDisable = !item.disabled && item.auditState !== 2 && item.auditState !== 4;
  return (
    <div className="space-y-4">
      <Link to={back} className="link text-sm">{t("view.back")}</Link>
      <section className="card space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-xl font-semibold">{t("view.title")}</h1>
          <AuditBadge auditState={item.auditState} />
          {item.disabled ? <span className="text-sm text-red-700">{t("manage.disabled")}</span> : null}
        </div>
        <dl className="grid gap-3 sm:grid-cols-3">
          <Field label={t("view.service")}>{item.name}</Field>
          <Field label={t("view.applicant")}>{item.applicant} ({item.applicantRealName})</Field>
          <Field label={t("view.email")}>{item.applicantEmail}</Field>
          <Field label={t("detail.role")}>{item.roleName}</Field>
          <Field label={t("detail.nodes")}>{item.cityNodes.map((n) => nodeLabel(n, language)).join(", ")}</Field>
          <Field label={t("detail.appliedAt")}>{formatDate(item.createdAt, language, true)}</Field>
          <Field label={t("detail.certificateMode")}>{t(`modes.${item.certificateMode}`)}</Field>
          <Field label={t("view.certificate")}><span className="break-all font-mono text-xs">{item.certificateSubject ?? "—"}</span></Field>
        </dl>
      </section>
      {item.auditState === 0 && !item.disabled ? (
        <section className="card space-y-2" aria-labelledby="decide-title">
          <h2 id="decide-title" className="font-semibold">{t("view.decide")}</h2>
          <FormProvider context={decideForm.context}>
            <Form method="post" {...getFormProps(decideForm)} className="space-y-2">
              <FormErrors id={decideForm.errorId} errors={decideForm.errors} />
              <input type="hidden" name="intent" value="decide" />
              <input type="hidden" name="appJoinAuditId" value={item.appJoinAuditId} />
              <TextAreaField field={decideFields.comments} label={t("view.comments")} hint={t("view.commentsHint")} rows={2} />
              <div className="flex gap-2">
                <ConfirmSubmit formId={decideForm.id} name="decision" value="approve" label={t("view.approve")} title={t("view.approve")} question={t("view.approveQuestion", vars)} confirmLabel={t("view.confirm")} />
                <ConfirmSubmit formId={decideForm.id} name="decision" value="reject" label={t("view.reject")} title={t("view.reject")} question={t("view.rejectQuestion", vars)} confirmLabel={t("view.confirm")} className="btn-danger" />
              </div>
            </Form>
          </FormProvider>
        </section>
      ) : null}
      {canDisable ? (
        <section className="card space-y-2" aria-labelledby="disable-title">
          <h2 id="disable-title" className="font-semibold">{t("view.disableTitle")}</h2>
          <FormProvider context={disableForm.context}>
            <Form method="post" {...getFormProps(disableForm)} className="space-y-2">
              <FormErrors id={disableForm.errorId} errors={disableForm.errors} />
              <input type="hidden" name="intent" value="disable" />
              <input type="hidden" name="appJoinAuditId" value={item.appJoinAuditId} />
              <TextAreaField field={disableFields.comments} label={t("view.disableReason")} rows={2} />
              <ConfirmSubmit formId={disableForm.id} label={t("view.disable")} title={t("view.disableTitle")} question={t("view.disableQuestion", vars)} confirmLabel={t("view.confirm")} className="btn-danger" />
            </Form>
          </FormProvider>
        </section>
      ) : null}
      <section className="card space-y-2">
        <h2 className="font-semibold">{t("detail.records")}</h2>
        <Timeline steps={item.transitions} language={language} />
      </section>
    </div>
  );
}
