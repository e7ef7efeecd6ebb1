import { FormProvider, getFormProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ACCOUNT_BINDING_PATH, bindingBindSchema, bindingChallengeFormSchema } from "#contract/ddc.ts";
import { TextField } from "#app/components/forms.tsx";
import { ErrorList, FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { BoundAddresses } from "#app/components/ddc/Bindings.tsx";
import { WalletButton } from "#app/components/ddc/WalletButton.tsx";
import { apiFor, failureStatus, requireUser } from "#app/lib/api.server.ts";
import { unbindIntent } from "#app/lib/bindings.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = { i18n: ["ddc"] };
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("accountBinding");

/**
 * account-binding (SPEC §2, public, mobile; docs/decisions/045): bind a chain address to the portal account by
 * signing a one-time EIP-4361 challenge. A visitor logs in first (the page is restored after login). Step 1: the
 * address (or the browser wallet's); step 2: the message the server wrote, signed by the wallet (JavaScript) or
 * by any tool, the signature pasted (without). The server verifies it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const bindings = await apiFor(request, viewer).load("/sys/binding/list", {});
  return json({ rows: bindings.rows, language: viewer.language });
}

type ActionData =
  | { step: "address"; result: SubmissionResult<string[]> }
  | {
      step: "sign";
      challenge: { address: string; message: string; expiresAt: string };
      result: SubmissionResult<string[]> | null;
    }
  | { unbindConfirm: { bindingId: string } };

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const api = apiFor(request, viewer);
  const formData = await request.formData();
  const intent = intentOf(formData, ["challenge", "bind", "unbind"]);
  if (intent === "unbind") return unbindIntent(request, api, formData, ACCOUNT_BINDING_PATH);
  if (intent === "challenge") {
    const submission = parseWithZod(formData, { schema: bindingChallengeFormSchema });
    if (submission.status !== "success")
      return json<ActionData>({ step: "address", result: submission.reply() }, { status: 400 });
    const result = await api.call("/sys/binding/challenge", submission.value);
    if (!result.ok)
      return json<ActionData>(
        { step: "address", result: replyWithFailure(submission, result) },
        { status: failureStatus(result) },
      );
    return json<ActionData>({ step: "sign", challenge: result.data, result: null });
  }
  const submission = parseWithZod(formData, { schema: bindingBindSchema });
  const challenge = {
    address: String(formData.get("address") ?? ""),
    message: String(formData.get("message") ?? ""),
    expiresAt: String(formData.get("expiresAt") ?? ""),
  };
  if (submission.status !== "success")
    return json<ActionData>({ step: "sign", challenge, result: submission.reply() }, { status: 400 });
  const result = await api.call("/sys/binding/bind", submission.value);
  if (!result.ok)
    return json<ActionData>(
      { step: "sign", challenge, result: replyWithFailure(submission, result) },
      { status: failureStatus(result) },
    );
  return redirectWithFlash(request, ACCOUNT_BINDING_PATH, {
    kind: "success",
    key: "ddc:binding.bound",
    params: { address: result.data.address },
  });
}

export default function AccountBinding() {
  const { rows, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("ddc");
  const sign = actionData && "step" in actionData && actionData.step === "sign" ? actionData : null;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <PageHeader title={t("binding.title")} titleClassName="text-2xl font-semibold" description={t("binding.intro")} />
      {sign ? (
        <SignStep challenge={sign.challenge} lastResult={sign.result} />
      ) : (
        <AddressStep lastResult={actionData && "step" in actionData ? actionData.result : null} />
      )}
      <BoundAddresses
        rows={rows}
        language={language}
        action={ACCOUNT_BINDING_PATH}
        confirm={actionData && "unbindConfirm" in actionData ? actionData.unbindConfirm : null}
      />
      <p className="text-sm">
        <Link className="link" to="/g/home/userCenter/information">
          {t("binding.toProfile")}
        </Link>
      </p>
    </div>
  );
}

function AddressStep({ lastResult }: { lastResult: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation("ddc");
  const [form, fields] = useSchemaForm(bindingChallengeFormSchema, lastResult, { id: "binding-address" });
  return (
    <section className="card space-y-3">
      <h2 className="text-base font-semibold">{t("binding.step1")}</h2>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="space-y-3">
          <FormErrors id={form.errorId} errors={form.errors} />
          <TextField
            field={fields.address}
            label={t("binding.address")}
            hint={t("binding.addressHint")}
            autoComplete="off"
          />
          <div className="flex flex-wrap items-start gap-3">
            <SubmitButton intent="challenge" className="btn-primary">
              {t("binding.getChallenge")}
            </SubmitButton>
            <WalletButton formId={form.id} field="address" mode="address" label={t("binding.useWallet")} />
          </div>
          <input type="hidden" name="intent" value="challenge" />
        </Form>
      </FormProvider>
    </section>
  );
}

function SignStep({
  challenge,
  lastResult,
}: {
  challenge: { address: string; message: string; expiresAt: string };
  lastResult: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation("ddc");
  const [form, fields] = useSchemaForm(bindingBindSchema, lastResult, {
    id: "binding-sign",
    defaultValue: { message: challenge.message },
  });
  const messageProps = getTextareaProps(fields.message);
  return (
    <section className="card space-y-3">
      <h2 className="text-base font-semibold">{t("binding.step2")}</h2>
      <p className="text-sm text-slate-600">{t("binding.signHint", { address: challenge.address })}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="space-y-3">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="address" value={challenge.address} />
          <input type="hidden" name="expiresAt" value={challenge.expiresAt} />
          <div>
            <label htmlFor={fields.message.id} className="label">
              {t("binding.message")}
            </label>
            <textarea
              {...messageProps}
              key={messageProps.key}
              readOnly
              rows={10}
              className="input font-mono text-xs"
              data-testid="binding-message"
            />
            <ErrorList id={fields.message.errorId} errors={fields.message.errors} />
          </div>
          <TextField
            field={fields.signature}
            label={t("binding.signature")}
            hint={t("binding.signatureHint")}
            autoComplete="off"
          />
          <div className="flex flex-wrap items-start gap-3">
            <SubmitButton intent="bind" className="btn-primary">
              {t("binding.bind")}
            </SubmitButton>
            <WalletButton
              formId={form.id}
              field="signature"
              mode="sign"
              address={challenge.address}
              label={t("binding.signWithWallet")}
            />
          </div>
          <input type="hidden" name="intent" value="bind" />
        </Form>
      </FormProvider>
    </section>
  );
}
