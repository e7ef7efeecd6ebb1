import { FormProvider, getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { VerState, type ServiceAction } from "#contract/service-status.ts";
import type { Report, ServiceRow } from "#contract/services.ts";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useBlockedTarget } from "#app/components/BlockedAction.tsx";
import { CopyField } from "#app/components/CopyField.tsx";
import { RowActions, type RowMenuItem } from "#app/components/RowActions.tsx";
import type { Block } from "#app/lib/blocked.ts";
import { CONFIGURATION_NEW } from "#app/lib/configuration-urls.ts";
import { shownActions } from "#app/lib/services-rules.ts";
import { detailHref, NEW_SERVICES, requestEnableHref } from "#app/lib/services-urls.ts";

/** A published service's actions (links, menu, confirm and invite panels) and its reports, on PublishedServices, ServicesDetail and the service review queues (namespace "services"). */

/** A service action as an entry: a link, or a POST (enable at 30) through the row's own form. */
type ServiceEntry = RowMenuItem & { action: ServiceAction };

/**
 * The entries of the actions shownActions() allows, in the order of SHOWN_ACTIONS. The wizard's entries
 * (edit, basic edit, upgrade) show before the click whether unpaid bills block them (`block`, SPEC §5,
 * docs/decisions/027): they then lead to home's panel and say why. A new action (e.g. a configuration
 * upgrade) adds its case here and is shown in the row's "More" menu and on the detail page alike.
 */
function useServiceEntries(row: ServiceRow, here: string, block: Block, omitDetails: boolean): ServiceEntry[] {
  const { t } = useTranslation("services");
  const blocked = useBlockedTarget();
  const join = here.includes("?") ? "&" : "?";
  const wizard = (action: "editService" | "editServiceBasic" | "upgradeService", appState: string) =>
    blocked(action, block, `${NEW_SERVICES}?appState=${appState}&appId=${row.appId}`);
  const entries: ServiceEntry[] = [];
  for (const a of shownActions(row)) {
    if (omitDetails && a === "details") continue;
    switch (a) {
      case "details":
        entries.push({
          action: a,
          key: a,
          label: t("actions.details"),
          ariaLabel: t("actions.detailsOf", { name: row.name }),
          to: detailHref(row),
        });
        break;
      case "pay":
        // A running service's unpaid bill (a renewal) is paid on its bill; a publish bill on the detail.
        entries.push({
          action: a,
          key: a,
          label: t("actions.pay"),
          to:
            row.unpaidBillId !== null && row.verState === VerState.RUNNING
              ? `/g/home/userCenter/BillDetail?billId=${row.unpaidBillId}`
              : `${detailHref(row)}#pay`,
        });
        break;
      case "join":
        entries.push({ action: a, key: a, label: t("actions.join"), to: `${here}${join}join=${row.appVerId}` });
        break;
      case "configUpgrade":
        entries.push({
          action: a,
          key: a,
          label: t("actions.configUpgrade"),
          ...blocked("configUpgrade", block, `${CONFIGURATION_NEW}?appId=${row.appId}`),
        });
        break;
      case "edit":
        entries.push({ action: a, key: a, label: t("actions.edit"), ...wizard("editService", "mod2") });
        break;
      case "basicEdit":
        entries.push({ action: a, key: a, label: t("actions.basicEdit"), ...wizard("editServiceBasic", "mod") });
        break;
      case "serviceUpgrade":
        entries.push({ action: a, key: a, label: t("actions.upgrade"), ...wizard("upgradeService", "update") });
        break;
      case "invite":
        entries.push({ action: a, key: a, label: t("actions.invite"), to: `${here}${join}invite=${row.appVerId}` });
        break;
      case "unsubscribe":
        entries.push({
          action: a,
          key: a,
          label: t("actions.unsubscribe"),
          danger: true,
          to: `${here}${join}confirm=unsubscribe&appVerId=${row.appVerId}`,
        });
        break;
      case "deactivate":
        entries.push({
          action: a,
          key: a,
          label: t("actions.deactivate"),
          danger: true,
          to: `${here}${join}confirm=deactivate&appVerId=${row.appVerId}`,
        });
        break;
      case "enable":
        entries.push(
          row.verState === VerState.DEACTIVATED_BY_OPERATOR
            ? { action: a, key: a, label: t("actions.enable"), to: requestEnableHref(row) }
            : {
                action: a,
                key: a,
                label: t("actions.enable"),
                submit: { form: enableFormId(row), name: "intent", value: "enable" },
              },
        );
        break;
      default:
        break;
    }
  }
  return entries.map((e) => ({ ...e, dataAction: e.action }));
}

const enableFormId = (row: { appVerId: number }) => `enable-${row.appVerId}`;

/** The row's main action, the first of these it offers; the others go to the "More" menu. */
const MAIN_ACTIONS: readonly ServiceAction[] = ["pay", "enable", "invite", "details"];

/** An entry as a plain link or button (the main action, and every entry on the detail page). */
function EntryElement({ entry }: { entry: ServiceEntry }) {
  const className = `link ${entry.danger ? "text-red-700" : ""} ${entry.action === "pay" ? "font-semibold" : ""}`;
  const element = entry.submit ? (
    <button
      type="submit"
      form={entry.submit.form}
      name={entry.submit.name}
      value={entry.submit.value}
      className={className}
      data-action={entry.action}
    >
      {entry.label}
    </button>
  ) : (
    <Link className={className} to={entry.to} aria-label={entry.ariaLabel} data-action={entry.action}>
      {entry.label}
    </Link>
  );
  if (!entry.note) return element;
  return (
    <span className="inline-flex items-center gap-1" data-testid="blocked-entry">
      {element} <span className="text-xs text-slate-600">{entry.note}</span>
    </span>
  );
}

/**
 * A service's actions: in a list row (`layout="row"`) the main action and a "More" menu (RowActions);
 * on the detail page (`layout="inline"`) every entry side by side. `here` is the current path and query
 * without the confirm/invite parameters.
 */
export function ServiceActionLinks({
  row,
  here,
  omitDetails = false,
  block = null,
  layout = "row",
}: {
  row: ServiceRow;
  here: string;
  omitDetails?: boolean;
  block?: Block;
  layout?: "row" | "inline";
}) {
  const { t } = useTranslation("services");
  const entries = useServiceEntries(row, here, block, omitDetails);
  const notes = (
    <>
      {row.refundPending ? <span className="text-xs text-amber-700">{t("list.refundPending")}</span> : null}
      {row.enableRequestedAt ? <span className="text-xs text-amber-700">{t("list.enableRequested")}</span> : null}
    </>
  );
  const enableForm = entries.some((e) => e.submit) ? (
    <Form id={enableFormId(row)} method="post" className="hidden">
      <input type="hidden" name="appVerId" value={row.appVerId} />
    </Form>
  ) : null;
  if (layout === "inline") {
    return (
      <div
        className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm"
        aria-label={t("actions.more", { name: row.name })}
        role="group"
      >
        {enableForm}
        {entries.map((e) => (
          <EntryElement key={e.key} entry={e} />
        ))}
        {notes}
      </div>
    );
  }
  const main = MAIN_ACTIONS.map((a) => entries.find((e) => e.action === a && !e.note)).find((e) => e !== undefined);
  const more = entries.filter((e) => e !== main);
  return (
    <RowActions
      name={row.name}
      main={
        <>
          {enableForm}
          {main ? <EntryElement entry={main} /> : null}
        </>
      }
      more={more}
    >
      {notes}
    </RowActions>
  );
}

/**
 * The confirm step of a destructive action, a panel on the page (so it works without JavaScript): the
 * service's name must be typed (docs/decisions/029). With JavaScript the form checks it as you type; the
 * server checks it again either way. `lastResult`: the action's reply to this form (nothing typed is lost).
 */
export function ConfirmPanel({
  kind,
  row,
  cancelTo,
  lastResult,
}: {
  kind: "deactivate" | "unsubscribe";
  row: { appVerId: number; name: string };
  cancelTo: string;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation("services");
  // Checked by the server (lifecycleConfirmSchema in the action): the panel comes from a request already, and
  // the list page does not load Zod for it.
  const [form, fields] = useForm<{ reason?: string; confirmName: string }>({
    id: `confirm-${kind}-${row.appVerId}`,
    lastResult,
  });
  return (
    <section
      role="alertdialog"
      aria-labelledby="confirm-title"
      className="card border-red-200 bg-red-50"
      data-testid="confirm-panel"
    >
      <h2 id="confirm-title" className="font-semibold text-red-800">
        {t(`confirm.${kind}Title`, { name: row.name })}
      </h2>
      <p className="mt-1 text-sm text-red-800">{t(`confirm.${kind}Body`)}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-3">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="appVerId" value={row.appVerId} />
          {kind === "unsubscribe" ? <TextField field={fields.reason} label={t("confirm.reason")} /> : null}
          <TextField field={fields.confirmName} label={t("confirm.typeName", { name: row.name })} autoComplete="off" />
          <div className="flex gap-2">
            <SubmitButton intent={kind} className="btn-danger">
              {t(kind === "deactivate" ? "confirm.confirmDeactivate" : "confirm.confirmUnsubscribe")}
            </SubmitButton>
            <Link to={cancelTo} className="btn-secondary">
              {t("common:actions.cancel")}
            </Link>
          </div>
        </Form>
      </FormProvider>
    </section>
  );
}

/** The invitation link with a copy button (the button needs JavaScript; the field is selectable without). */
export function InvitePanel({
  name,
  url,
  expires,
  closeTo,
}: {
  name: string;
  url: string;
  expires: string;
  closeTo: string;
}) {
  const { t } = useTranslation("services");
  return (
    <section role="dialog" aria-labelledby="invite-title" className="card border-brand-100 bg-brand-50">
      <h2 id="invite-title" className="font-semibold">
        {t("invite.title", { name })}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t("invite.body", { date: expires })}</p>
      <p className="label mt-3">{t("invite.link")}</p>
      <CopyField
        value={url}
        label={t("invite.link")}
        testId="invite-link"
        texts={{
          copy: t("invite.copy"),
          copied: t("invite.copied"),
          failed: t("actions.copyFailed", { ns: "common" }),
        }}
      />
      <Link to={closeTo} className="link mt-3 inline-block text-sm">
        {t("invite.close")}
      </Link>
    </section>
  );
}

/** Reasons and suggestion of a failed test or deployment (§4). */
export function ReportPanel({ title, report }: { title: string; report: Report }) {
  const { t } = useTranslation("services");
  return (
    <section className="card border-red-200 bg-red-50" data-testid="failure-report" aria-labelledby="report-title">
      <h2 id="report-title" className="font-semibold text-red-800">
        {title}
      </h2>
      <h3 className="mt-2 text-sm font-semibold text-red-800">{t("detail.reasons")}</h3>
      <ul className="list-disc pl-5 text-sm text-red-800">
        {report.reasons.map((r, i) => (
          <li key={i}>{t(r.key, r.params)}</li>
        ))}
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
