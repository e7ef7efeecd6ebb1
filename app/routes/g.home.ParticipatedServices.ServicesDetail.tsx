import { FormProvider, getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { applySchema, detailHidden, type JoinView } from "@contract/participation";
import type { DataOf } from "@contract/paths";
import { BillPayPanel, Field, Table, nodeLabel, td } from "~/components/details";
import { ErrorList, FormErrors, SubmitButton } from "~/components/forms";
import { AuditBadge, ListStatusBadge, Timeline, participatedDetailHref } from "~/components/participation/bits";
import { apiFor, failureResponse, redirectAfter, requireUser, type Api } from "~/lib/api.server";
import { formatDate, formatUsd } from "~/lib/format";
import { replyWithFailure } from "~/lib/forms.server";
import type { Language } from "~/lib/i18n";
import { intentOf, parseFormOr400 } from "~/lib/intents.server";
import { pageTitle } from "~/lib/meta";
import { positiveParam } from "~/lib/params";
import { requiredId } from "~/lib/params.server";
import { readTicket } from "~/lib/participation.server";
import { newIdempotencyKey, payRefused } from "~/lib/payments.server";
import { redirectWithFlash } from "~/lib/session.server";
import { useSchemaForm } from "~/lib/use-schema-form";

export const handle = {
  i18n: ["participation"],
  breadcrumb: [{ key: "menu.participatedServices", to: "/g/home/ParticipatedServices" }, { key: "titles.participatedDetail" }],
};
export const meta = pageTitle("participatedDetail");

type Role = DataOf<"/sys/chainAppInfo/queryRolesForAppList">["page"]["rows"][number];
type City = DataOf<"/sys/chainAppInfo/queryReleaseCitysForAppList">["page"]["rows"][number];

/**
 * SPEC §2 ParticipatedServices/ServicesDetail (appId, appJoinAuditId, auditState, types, ifJoIn): the service
 * as a participant sees it (§7 view), with the application form when not yet joined (types 1), or the
 * participation: role, city nodes, approval records, the node order to pay, Confirm at 13. The detail is
 * hidden when the request was rejected (§4).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const appId = requiredId(url, "appId");
  const appJoinAuditId = positiveParam(url.searchParams.get("appJoinAuditId")) ?? undefined;
  const ticket = await readTicket(request, appId);
  const api = apiFor(request, viewer);
  const service = await api.load("/sys/chainAppInfo/view", { appId, appJoinAuditId, ticket });
  let roles: Role[] = [];
  let cities: City[] = [];
  const p = service.participation;
  if (service.canApply && (!p || detailHidden(p.auditState))) {
    roles = (await api.load("/sys/chainAppInfo/queryRolesForAppList", { page: { pageSize: 999, pageIndex: 1, condition: { appId, ticket } } })).page.rows;
    cities = (await api.load("/sys/chainAppInfo/queryReleaseCitysForAppList", { page: { pageSize: 100, pageIndex: 1, condition: { appId, ticket } } })).page.rows;
  } else if (p && !detailHidden(p.auditState)) {
    roles = (await api.load("/sys/chainAppInfo/queryReleaseRolesForAppList", { page: { pageSize: 999, pageIndex: 1, condition: { appId, joinAuditId: p.appJoinAuditId } } })).page.rows;
  }
  const payKey = p && p.auditState === 5 && p.order && p.order.payState !== 15 ? newIdempotencyKey() : null;
  return json({ service, roles, cities, payKey, language: viewer.language });
}

const joinRef = z.object({ appJoinAuditId: z.coerce.number().int().positive() });

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const formData = await request.formData();
  const intent = intentOf(formData, ["apply", "pay", "confirm"]);
  const api = apiFor(request, viewer);
  const url = new URL(request.url);
  const here = url.pathname + url.search.replace(/[?&]index(=[^&]*)?/, "");
  switch (intent) {
    case "apply":
      return apply(request, api, formData);
    case "pay":
      return payJoinOrder(request, api, formData, here);
    case "confirm":
      return redirectAfter(request, await api.call("/sys/chainAppInfo/confirmJoin", parseFormOr400(joinRef, formData)), here, "participation:flash.confirmed");
  }
}

/** The request to join (§5 Identity certificate by mode); once made, its own detail page. */
async function apply(request: Request, api: Api, formData: FormData) {
  const submission = parseWithZod(formData, { schema: applySchema });
  if (submission.status !== "success") return json({ kind: "apply" as const, result: submission.reply() }, { status: 400 });
  const v = submission.value;
  const ticket = await readTicket(request, v.appId);
  const result = await api.call("/sys/chainAppInfo/joinApp", { ...v, ticket });
  if (!result.ok) {
    if (result.status >= 500) throw failureResponse(result);
    return json({ kind: "apply" as const, result: replyWithFailure(submission, result) }, { status: 400 });
  }
  const view = await api.load("/sys/chainAppInfo/view", { appId: v.appId, appJoinAuditId: result.data.appJoinAuditId });
  return redirectWithFlash(request, participatedDetailHref({ appId: v.appId, appCode: view.appCode, appJoinAuditId: result.data.appJoinAuditId, auditState: result.data.auditState }), { kind: "success", key: "participation:flash.applied" });
}

/** Pays the node order with the key the loader issued. */
async function payJoinOrder(request: Request, api: Api, formData: FormData, here: string) {
  const result = await api.call("/sys/chainAppInfo/payJoinOrder", parseFormOr400(joinRef.extend({ idempotencyKey: z.string() }), formData));
  if (!result.ok) {
    if (result.status >= 500) throw failureResponse(result);
    return payRefused(result);
  }
  return redirectWithFlash(request, here, { kind: "success", key: result.data.reissued ? "participation:flash.reissuedPaid" : "participation:flash.paid" });
}

function ApplyForm({ service, roles, cities, language }: { service: JoinView; roles: Role[]; cities: City[]; language: Language }) {
  const { t } = useTranslation("participation");
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(applySchema, actionData && actionData.kind === "apply" ? actionData.result : undefined, { id: "apply" });
  const chosen = new Set([fields.cityNodeIds.initialValue ?? []].flat().map(String));
  const mode = service.certificateMode;
  return (
    <section className="card space-y-4" aria-labelledby="apply-title">
      <h2 id="apply-title" className="text-lg font-semibold">{t("apply.title")}</h2>
      <p className="text-sm text-slate-600">{t("apply.intro")}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="appId" value={service.appId} />
          <input type="hidden" name="certificateMode" value={mode} />
          <fieldset>
            <legend className="label">{t("apply.role")}</legend>
            <div className="space-y-2">
              {roles.map((r) => (
                <label key={r.roleId} className="flex items-start gap-2 text-sm">
                  <input type="radio" name={fields.roleId.name} value={r.roleId} defaultChecked={String(fields.roleId.initialValue ?? "") === String(r.roleId)} className="mt-1" />
                  <span><span className="font-medium">{r.name}</span> <span className="text-slate-500">{r.description}</span><br /><span className="text-xs text-slate-500">{t("detail.functions")}: {r.functions.join(", ")}</span></span>
                </label>
              ))}
            </div>
            <ErrorList id={fields.roleId.errorId} errors={fields.roleId.errors} />
          </fieldset>
          <fieldset>
            <legend className="label">{t("apply.nodes")}</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {cities.map((c) => (
                <label key={c.cityNodeId} className="flex items-start gap-2 text-sm">
                  <input type="checkbox" name={fields.cityNodeIds.name} value={c.cityNodeId} defaultChecked={chosen.has(String(c.cityNodeId))} className="mt-1" />
                  <span>{nodeLabel(c, language)} <span className="text-xs text-slate-500">({c.operator}) · {c.released ? t("apply.released") : t("apply.orderCost", { amount: formatUsd(c.orderCents, language) })}</span></span>
                </label>
              ))}
            </div>
            <ErrorList id={fields.cityNodeIds.errorId} errors={fields.cityNodeIds.errors} />
          </fieldset>
          <fieldset className="space-y-3">
            <legend className="label">{t("apply.mode", { mode: t(`modes.${mode}`) })}</legend>
            <p className="text-sm text-slate-600">{t(`apply.mode${mode}`)}</p>
            {mode === 3 ? (
              <>
                <div>
                  <label htmlFor={fields.publicKey.id} className="label">{t("apply.publicKey")}</label>
                  <textarea {...getTextareaProps(fields.publicKey)} key={fields.publicKey.key} rows={5} className="input font-mono text-xs" />
                  <ErrorList id={fields.publicKey.errorId} errors={fields.publicKey.errors} />
                </div>
                <div>
                  <label htmlFor={fields.testData.id} className="label">{t("apply.testData")}</label>
                  <input {...getInputProps(fields.testData, { type: "text" })} key={fields.testData.key} className="input" />
                  <ErrorList id={fields.testData.errorId} errors={fields.testData.errors} />
                </div>
                <div>
                  <label htmlFor={fields.signature.id} className="label">{t("apply.signature")}</label>
                  <textarea {...getTextareaProps(fields.signature)} key={fields.signature.key} rows={2} className="input font-mono text-xs" />
                  <ErrorList id={fields.signature.errorId} errors={fields.signature.errors} />
                </div>
              </>
            ) : null}
            {mode === 2 ? (
              <div className="grid gap-3 sm:grid-cols-2">
                <div>
                  <label htmlFor={fields.password.id} className="label">{t("apply.password")}</label>
                  <input {...getInputProps(fields.password, { type: "password" })} key={fields.password.key} autoComplete="new-password" className="input" aria-describedby={`${fields.password.id}-hint`} />
                  <p id={`${fields.password.id}-hint`} className="mt-1 text-xs text-slate-500">{t("apply.passwordHint")}</p>
                  <ErrorList id={fields.password.errorId} errors={fields.password.errors} />
                </div>
                <div>
                  <label htmlFor={fields.confirmPassword.id} className="label">{t("apply.confirmPassword")}</label>
                  <input {...getInputProps(fields.confirmPassword, { type: "password" })} key={fields.confirmPassword.key} autoComplete="new-password" className="input" />
                  <ErrorList id={fields.confirmPassword.errorId} errors={fields.confirmPassword.errors} />
                </div>
              </div>
            ) : null}
          </fieldset>
          <SubmitButton intent="apply" className="btn-primary">{t("apply.submit")}</SubmitButton>
        </Form>
      </FormProvider>
    </section>
  );
}

export default function ParticipatedServiceDetail() {
  const { service, roles, cities, payKey, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("participation");
  const p = service.participation;
  const hidden = !!p && detailHidden(p.auditState);
  const rejection = hidden ? [...p.transitions].reverse().find((s) => s.comments) : undefined;
  return (
    <div className="space-y-4">
      <section className="card space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h1 className="text-xl font-semibold">{service.name} <span className="text-base font-normal text-slate-500">{service.version}</span></h1>
          {p ? <ListStatusBadge status={p.listStatus} /> : null}
        </div>
        <dl className="grid gap-3 sm:grid-cols-3">
          <Field label={t("detail.publisher")}>{service.publisher}</Field>
          <Field label={t("detail.certificateMode")}>{t(`modes.${service.certificateMode}`)}</Field>
          <Field label={t("access.appCode")}>{service.appCode}</Field>
        </dl>
        {service.description ? <p className="text-sm text-slate-700">{service.description}</p> : null}
      </section>

      {p ? (
        <section className="card space-y-3" aria-labelledby="participation-title" data-testid="participation">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id="participation-title" className="text-lg font-semibold">{t("detail.participation")}</h2>
            <AuditBadge auditState={p.auditState} />
          </div>
          {p.disabled ? <p className="text-sm text-red-700">{t("detail.disabled")}</p> : null}
          {hidden ? (
            <div data-testid="detail-hidden">
              <p className="text-sm text-slate-600">{t("detail.hidden")}</p>
              {rejection ? <p className="mt-1 text-sm text-red-700" data-testid="rejection-comments">{t("detail.rejectedBecause")}: {rejection.comments}</p> : null}
            </div>
          ) : (
            <>
              <dl className="grid gap-3 sm:grid-cols-3">
                <Field label={t("detail.role")}>{p.roleName}</Field>
                <Field label={t("detail.nodes")}>{p.cityNodes.map((n) => nodeLabel(n, language)).join(", ")}</Field>
                <Field label={t("detail.appliedAt")}>{formatDate(p.createdAt, language, true)}</Field>
              </dl>
              {roles.length ? (
                <Table head={[t("detail.role"), t("detail.functions")]}>
                  {roles.map((r) => <tr key={r.roleId}><td className={td}>{r.name}</td><td className={td}>{r.functions.join(", ")}</td></tr>)}
                </Table>
              ) : null}
              {p.accessAllowed ? <Link to={`/g/home/ParticipatedServices/Access?appId=${service.appId}`} className="link inline-block">{t("detail.access")}</Link> : null}
            </>
          )}
          <h3 className="font-semibold">{t("detail.records")}</h3>
          <Timeline steps={p.transitions} language={language} />
        </section>
      ) : null}

      {p && p.order && payKey ? (
        <BillPayPanel id="order" bill={p.order} item={{ name: "appJoinAuditId", value: p.appJoinAuditId }} payKey={payKey} language={language} texts="participation:order" />
      ) : null}

      {p && p.auditState === 13 && !p.disabled ? (
        <section className="card border-blue-200 bg-blue-50" aria-labelledby="confirm-title">
          <h2 id="confirm-title" className="font-semibold">{t("detail.confirmTitle")}</h2>
          <p className="mt-1 text-sm text-slate-700">{t("detail.confirmBody")}</p>
          <Form method="post" className="mt-3">
            <input type="hidden" name="appJoinAuditId" value={p.appJoinAuditId} />
            <SubmitButton intent="confirm" className="btn-primary">{t("detail.confirm")}</SubmitButton>
          </Form>
        </section>
      ) : null}

      {service.canApply && (!p || hidden) ? (
        <>
          {hidden ? <p className="text-sm text-slate-600">{t("detail.applyAgain")}</p> : null}
          <ApplyForm service={service} roles={roles} cities={cities} language={language} />
        </>
      ) : !p ? (
        <p className="card text-sm text-slate-600" data-testid="cannot-apply">{service.verState !== 25 ? t("detail.notRunning") : t("detail.cannotApply")}</p>
      ) : null}
    </div>
  );
}
