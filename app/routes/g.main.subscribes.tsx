import { FormProvider, getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { subscribeFormSchema } from "#contract/support.ts";
import { NEWSLETTER_RESEND_WAIT_SECONDS } from "#contract/support-codes.ts";
import { Msg } from "#contract/messages.ts";
import { Captcha } from "#app/components/Captcha.tsx";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { loadCaptcha } from "#app/lib/captcha.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["support", "auth"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("subscribes");

/**
 * The newsletter (SPEC §2 subscribes, §9; docs/decisions/041): an address and the captcha; a confirmation mail with a
 * one-time link (double opt-in). Another confirmation mail waits 60 seconds: the refusal says how long is left.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getViewer(request);
  const sent = new URL(request.url).searchParams.get("sent") === "1";
  return json({ captcha: await loadCaptcha(apiFor(request, viewer, { portalPage: true })), sent });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await getViewer(request);
  const submission = parseWithZod(await request.formData(), { schema: subscribeFormSchema });
  if (submission.status !== "success")
    return json({ result: submission.reply({ hideFields: ["captcha"] }), waitSeconds: null }, { status: 400 });
  const result = await apiFor(request, viewer, { portalPage: true }).call(
    "/anon/newsletter/subscribe",
    submission.value,
  );
  if (!result.ok) {
    const waitSeconds =
      result.messageKey === `errors:${Msg.NEWSLETTER_RESEND_WAIT}`
        ? (result.retryAfterSeconds ?? NEWSLETTER_RESEND_WAIT_SECONDS)
        : null;
    const reply =
      waitSeconds === null
        ? replyWithFailure(submission, result, { hideFields: ["captcha"] })
        : submission.reply({ hideFields: ["captcha"] });
    return json({ result: reply, waitSeconds }, { status: formFailureStatus(result) });
  }
  if (result.data.alreadyConfirmed)
    return redirectWithFlash(request, "/g/main/subscribes", { kind: "success", key: "support:newsletter.already" });
  return redirectWithFlash(request, "/g/main/subscribes?sent=1", { kind: "success", key: "support:newsletter.sent" });
}

export default function Subscribes() {
  const { captcha, sent } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("support");
  const [form, fields] = useSchemaForm(subscribeFormSchema, actionData?.result, { id: "subscribe" });
  return (
    <div className="mx-auto w-full max-w-xl space-y-6 px-4 py-10">
      <div>
        <h1 className="text-3xl font-semibold text-slate-900">{t("newsletter.title")}</h1>
        <p className="mt-2 text-slate-600">{t("newsletter.intro")}</p>
      </div>
      {sent ? (
        <p className="card text-sm" role="status" data-testid="subscribe-sent">
          {t("newsletter.checkMail")}
        </p>
      ) : null}
      {actionData?.waitSeconds ? (
        <p
          role="alert"
          className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="resend-wait"
        >
          {t("newsletter.wait", { count: actionData.waitSeconds })}
        </p>
      ) : null}
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="card space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <TextField field={fields.email} label={t("newsletter.email")} type="email" autoComplete="email" />
          <Captcha captcha={captcha} field={fields.captcha} />
          <SubmitButton className="btn-primary">{t("newsletter.subscribe")}</SubmitButton>
        </Form>
      </FormProvider>
      <p className="text-xs text-slate-600">{t("newsletter.privacy")}</p>
    </div>
  );
}
