import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { serviceActions, VerState, type ServiceAction } from "@contract/service-status";
import { lifecycleConfirmSchema, type Report, type ServiceRow } from "@contract/services";
import { FormErrors, SubmitButton, TextField } from "~/components/forms";
import { useSchemaForm } from "~/lib/use-schema-form";
import { BlockedLink } from "~/components/BlockedAction";
import type { Block } from "~/lib/blocked";

/** Shared pieces of PublishedServices, ServicesDetail and the service review queues (namespace "services"). */

export const PUBLISHED = "/g/home/PermissionedServices/PublishedServices";
export const NEW_SERVICES = "/g/home/PermissionedServices/PublishedServices/NewServices";

export function detailHref(row: { appId: number; appVerId: number }, tab = "chaincode") {
  return `${PUBLISHED}/ServicesDetail?appId=${row.appId}&appVerId=${row.appVerId}&activeNames=${tab}`;
}

const TONE: Record<number, string> = {
  25: "bg-green-50 text-green-800 ring-green-200",
  23: "bg-amber-50 text-amber-800 ring-amber-200",
  24: "bg-sky-50 text-sky-800 ring-sky-200",
  10: "bg-sky-50 text-sky-800 ring-sky-200",
  5: "bg-sky-50 text-sky-800 ring-sky-200",
  15: "bg-sky-50 text-sky-800 ring-sky-200",
  11: "bg-red-50 text-red-800 ring-red-200",
  20: "bg-red-50 text-red-800 ring-red-200",
  22: "bg-red-50 text-red-800 ring-red-200",
  26: "bg-red-50 text-red-800 ring-red-200",
};

/** SPEC §4 Service status as a badge. */
export function StatusBadge({ verState }: { verState: number }) {
  const { t } = useTranslation("services");
  return (
    <span data-testid="status" className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${TONE[verState] ?? "bg-slate-50 text-slate-700 ring-slate-200"}`}>
      {t(`status.${verState}`)}
    </span>
  );
}

/**
 * The actions of SPEC §4 "Action availability on a published service", exactly those serviceActions()
 * allows. "upgrade" and "serviceUpgrade" are one entry (appState=update), shown when a service upgrade is
 * allowed (docs/decisions/012); Join is the publisher's own join through the invitation link and Config
 * upgrade leads to ConfigurationNew (docs/decisions/036).
 */
export const SHOWN_ACTIONS: readonly ServiceAction[] = ["details", "pay", "edit", "basicEdit", "join", "serviceUpgrade", "configUpgrade", "invite", "unsubscribe", "enable", "deactivate"];

export const CONFIGURATION_NEW = "/g/home/ConfigurationNew";

export function shownActions(row: Pick<ServiceRow, "verState" | "billState" | "verUpable" | "crossStatus" | "freeYN" | "refundPending" | "enableRequestedAt" | "unpaidBillId">) {
  const allowed = serviceActions({ ...row, unpaidBill: row.unpaidBillId !== null });
  return SHOWN_ACTIONS.filter((a) => allowed.has(a) && !(a === "unsubscribe" && row.refundPending) && !(a === "enable" && row.enableRequestedAt));
}

/** At 40 "Enable" opens the confirm page of a request to operations (docs/decisions/015); at 30 it posts at once. */
export const requestEnableHref = (row: { appId: number; appVerId: number }) => `${detailHref(row)}&confirm=requestEnable`;

/** `here` is the current path and query without the confirm/invite parameters. */
/**
 * `block`: unpaid bills that block the wizard's entries (edit, basic edit, upgrade; SPEC §5), shown before
 * the click by BlockedLink (docs/decisions/027).
 */
export function ServiceActionLinks({ row, here, omitDetails = false, block = null }: { row: ServiceRow; here: string; omitDetails?: boolean; block?: Block }) {
  const { t } = useTranslation("services");
  const join = here.includes("?") ? "&" : "?";
  const actions = shownActions(row).filter((a) => !(omitDetails && a === "details"));
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" aria-label={t("actions.more", { name: row.name })} role="group">
      {actions.map((a) => (
        // `data-action` names each entry: tests/backend/service-action-pages.test.ts reads it.
        <span key={a} data-action={a} className="contents">{entry(a)}</span>
      ))}
      {row.refundPending ? <span className="text-xs text-amber-700">{t("list.refundPending")}</span> : null}
      {row.enableRequestedAt ? <span className="text-xs text-amber-700">{t("list.enableRequested")}</span> : null}
    </div>
  );

  function entry(a: ServiceAction) {
        switch (a) {
          case "details":
            return <Link key={a} className="link" to={detailHref(row)} aria-label={t("actions.detailsOf", { name: row.name })}>{t("actions.details")}</Link>;
          case "pay":
            return row.unpaidBillId !== null && row.verState === VerState.RUNNING ? (
              <Link key={a} className="link font-semibold" to={`/g/home/userCenter/BillDetail?billId=${row.unpaidBillId}`}>{t("actions.pay")}</Link>
            ) : (
              <Link key={a} className="link font-semibold" to={`${detailHref(row)}#pay`}>{t("actions.pay")}</Link>
            );
          case "join":
            return <Link key={a} className="link" to={`${here}${join}join=${row.appVerId}`}>{t("actions.join")}</Link>;
          case "configUpgrade":
            return <BlockedLink key={a} compact block={block} action="configUpgrade" className="link" to={`${CONFIGURATION_NEW}?appId=${row.appId}`}>{t("actions.configUpgrade")}</BlockedLink>;
          case "edit":
            return <BlockedLink key={a} compact block={block} action="editService" className="link" to={`${NEW_SERVICES}?appState=mod2&appId=${row.appId}`}>{t("actions.edit")}</BlockedLink>;
          case "basicEdit":
            return <BlockedLink key={a} compact block={block} action="editServiceBasic" className="link" to={`${NEW_SERVICES}?appState=mod&appId=${row.appId}`}>{t("actions.basicEdit")}</BlockedLink>;
          case "serviceUpgrade":
            return <BlockedLink key={a} compact block={block} action="upgradeService" className="link" to={`${NEW_SERVICES}?appState=update&appId=${row.appId}`}>{t("actions.upgrade")}</BlockedLink>;
          case "invite":
            return <Link key={a} className="link" to={`${here}${join}invite=${row.appVerId}`}>{t("actions.invite")}</Link>;
          case "unsubscribe":
            return <Link key={a} className="link text-red-600" to={`${here}${join}confirm=unsubscribe&appVerId=${row.appVerId}`}>{t("actions.unsubscribe")}</Link>;
          case "deactivate":
            return <Link key={a} className="link text-red-600" to={`${here}${join}confirm=deactivate&appVerId=${row.appVerId}`}>{t("actions.deactivate")}</Link>;
          case "enable":
            return row.verState === VerState.DEACTIVATED_BY_OPERATOR ? (
              <Link key={a} className="link" to={requestEnableHref(row)}>{t("actions.enable")}</Link>
            ) : (
              <Form key={a} method="post" className="inline">
                <input type="hidden" name="appVerId" value={row.appVerId} />
                <button type="submit" name="intent" value="enable" className="link">{t("actions.enable")}</button>
              </Form>
            );
          default:
            return null;
        }
  }
}

/**
 * The confirm step of a destructive action, a panel on the page (so it works without JavaScript): the
 * service's name must be typed (docs/decisions/029). With JavaScript the form checks it as you type; the
 * server checks it again either way. `lastResult`: the action's reply to this form (nothing typed is lost).
 */
export function ConfirmPanel({ kind, row, cancelTo, lastResult }: { kind: "deactivate" | "unsubscribe"; row: { appVerId: number; name: string }; cancelTo: string; lastResult?: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation("services");
  const [form, fields] = useSchemaForm(lifecycleConfirmSchema(row.name), lastResult, { id: `confirm-${kind}-${row.appVerId}`, shouldValidate: "onBlur" });
  return (
    <section role="alertdialog" aria-labelledby="confirm-title" className="card border-red-200 bg-red-50" data-testid="confirm-panel">
      <h2 id="confirm-title" className="font-semibold text-red-800">{t(`confirm.${kind}Title`, { name: row.name })}</h2>
      <p className="mt-1 text-sm text-red-800">{t(`confirm.${kind}Body`)}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-3">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="appVerId" value={row.appVerId} />
          {kind === "unsubscribe" ? <TextField field={fields.reason} label={t("confirm.reason")} /> : null}
          <TextField field={fields.confirmName} label={t("confirm.typeName", { name: row.name })} autoComplete="off" />
          <div className="flex gap-2">
            <SubmitButton intent={kind} className="btn-danger">{t(kind === "deactivate" ? "confirm.confirmDeactivate" : "confirm.confirmUnsubscribe")}</SubmitButton>
            <Link to={cancelTo} className="btn-secondary">{t("common:actions.cancel")}</Link>
          </div>
        </Form>
      </FormProvider>
    </section>
  );
}

/** The invitation link with a copy button (the button needs JavaScript; the field is selectable without). */
export function InvitePanel({ name, url, expires, closeTo }: { name: string; url: string; expires: string; closeTo: string }) {
  const { t } = useTranslation("services");
  const [hydrated, setHydrated] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <section role="dialog" aria-labelledby="invite-title" className="card border-brand-100 bg-brand-50">
      <h2 id="invite-title" className="font-semibold">{t("invite.title", { name })}</h2>
      <p className="mt-1 text-sm text-slate-700">{t("invite.body", { date: expires })}</p>
      <label htmlFor="invite-link" className="label mt-3">{t("invite.link")}</label>
      <div className="flex gap-2">
        <input id="invite-link" readOnly value={url} className="input font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
        {hydrated ? (
          <button type="button" className="btn-secondary whitespace-nowrap" onClick={() => void navigator.clipboard?.writeText(url).then(() => setCopied(true))}>
            {copied ? t("invite.copied") : t("invite.copy")}
          </button>
        ) : null}
      </div>
      <Link to={closeTo} className="link mt-3 inline-block text-sm">{t("invite.close")}</Link>
    </section>
  );
}

/** Reasons and suggestion of a failed test or deployment (§4). */
export function ReportPanel({ title, report }: { title: string; report: Report }) {
  const { t } = useTranslation("services");
  return (
    <section className="card border-red-200 bg-red-50" data-testid="failure-report" aria-labelledby="report-title">
      <h2 id="report-title" className="font-semibold text-red-800">{title}</h2>
      <h3 className="mt-2 text-sm font-semibold text-red-800">{t("detail.reasons")}</h3>
      <ul className="list-disc pl-5 text-sm text-red-800">
        {report.reasons.map((r, i) => <li key={i}>{t(r.key, r.params)}</li>)}
      </ul>
      {report.suggestion ? (
        <>
          <h3 className="mt-2 text-sm font-semibold text-red-800">{t("detail.suggestion")}</h3>
          <p className="text-sm text-red-800">{t(report.suggestion.key, report.suggestion.params)}</p>
        </>
      ) : null}
    </section>
  );
}
