import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ENABLE_NOTE_MAX, enableRequestSchema, type ServiceDetail } from "#contract/services.ts";
import { formatDate } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { TextAreaField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";

/**
 * The publisher's side of an operator suspension (verState 40, docs/decisions/015): what operations said,
 * the pending request or the last refusal, and the confirm page of "Enable" that asks operations to lift it.
 */

type Transition = ServiceDetail["transitions"][number];

/** The last suspension and, after it, the last declined request (null once a new request is pending). */
export function suspensionOf(service: Pick<ServiceDetail, "transitions" | "enableRequestedAt">) {
  let suspend: Transition | null = null;
  let declined: Transition | null = null;
  for (const x of service.transitions) {
    if (x.event === "suspend") {
      suspend = x;
      declined = null;
    } else if (x.event === "declineEnable") declined = x;
    else if (x.event === "requestEnable") declined = null;
  }
  return { suspend, declined: service.enableRequestedAt ? null : declined };
}

function SuspendComments({ suspend, language }: { suspend: Transition | null; language: Language }) {
  const { t } = useTranslation("services");
  if (!suspend) return null;
  return (
    <div className="text-sm" data-testid="suspension-comments">
      <p className="font-medium">{t("suspension.since", { date: formatDate(suspend.createdAt, language, true) })}</p>
      {suspend.comments ? <p className="mt-1 whitespace-pre-line">{suspend.comments}</p> : null}
    </div>
  );
}

/** At 40: why operations suspended the service, and where the publisher's request stands. */
export function SuspensionNotice({ service, language }: { service: ServiceDetail; language: Language }) {
  const { t } = useTranslation("services");
  const { suspend, declined } = suspensionOf(service);
  return (
    <section
      className="card space-y-2 border-amber-200 bg-amber-50 text-amber-900"
      aria-labelledby="suspension-title"
      data-testid="suspension"
    >
      <h2 id="suspension-title" className="font-semibold">
        {t("suspension.title")}
      </h2>
      <SuspendComments suspend={suspend} language={language} />
      {service.enableRequestedAt ? (
        <p className="text-sm" data-testid="enable-request">
          {t("suspension.requested", { date: formatDate(service.enableRequestedAt, language, true) })}
          {service.enableRequestNote ? ` ${t("suspension.yourNote", { note: service.enableRequestNote })}` : ""}
        </p>
      ) : declined ? (
        <p className="text-sm" data-testid="enable-declined">
          {t("suspension.declined", {
            date: formatDate(declined.createdAt, language, true),
            comments: declined.comments ?? "",
          })}
        </p>
      ) : (
        <p className="text-sm">{t("suspension.howTo")}</p>
      )}
    </section>
  );
}

/** The confirm page of "Enable" at 40: the suspension comments and an optional note for operations. */
export function RequestEnablePanel({
  service,
  lastResult,
  cancelTo,
  language,
}: {
  service: ServiceDetail;
  lastResult?: SubmissionResult<string[]>;
  cancelTo: string;
  language: Language;
}) {
  const { t } = useTranslation("services");
  const { suspend } = suspensionOf(service);
  const [form, fields] = useSchemaForm(enableRequestSchema, lastResult, { id: `request-enable-${service.appVerId}` });
  return (
    <section role="alertdialog" aria-labelledby="request-enable-title" className="card space-y-3 border-brand-100">
      <h2 id="request-enable-title" className="font-semibold">
        {t("suspension.requestTitle", { name: service.name })}
      </h2>
      <SuspendComments suspend={suspend} language={language} />
      <p className="text-sm text-slate-700">{t("suspension.requestBody")}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="space-y-3">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="appVerId" value={service.appVerId} />
          <TextAreaField
            field={fields.note}
            label={t("suspension.note")}
            hint={t("suspension.noteHint", { max: ENABLE_NOTE_MAX })}
            rows={3}
          />
          <div className="flex gap-2">
            <SubmitButton intent="requestEnable" className="btn-primary">
              {t("suspension.send")}
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
