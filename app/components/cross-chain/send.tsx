import {
  FormProvider,
  getFormProps,
  getInputProps,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { CrossProtocol, crossSendSchema } from "#contract/cross-chain.ts";
import { RadioGroupField, SelectField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

/** The samples a service may send: a text message; with protocol 2 also its NFT and deposit samples (§9). */
export const sampleKinds = (protocol: number | null) =>
  protocol === CrossProtocol.APP ? (["message", "nft", "deposit"] as const) : (["message"] as const);

/**
 * "Send a sample message" (CrossChainDetail): a target chain, the sample, and its text. The message is sent on
 * the service's chain; the relayer delivers it and its call record appears in the table. Without JavaScript
 * the text field is always there (the server needs it for message and deposit only).
 */
export function SendForm({
  appId,
  protocol,
  targets,
  lastResult,
}: {
  appId: number;
  protocol: number | null;
  targets: { chainName: string; label: string }[];
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("crossChain");
  const kinds = sampleKinds(protocol);
  const [form, fields] = useSchemaForm(crossSendSchema, lastResult, {
    id: "send",
    defaultValue: { appId: String(appId), kind: "message", target: targets[0]?.chainName ?? "" },
  });
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const kind = String(fields.kind.value ?? "message");
  const needsText = !hydrated || kind === "message" || kind === "deposit";
  return (
    <section className="card space-y-3" aria-labelledby="send-title">
      <h2 id="send-title" className="text-lg font-semibold">
        {t("send.title")}
      </h2>
      <p className="text-sm text-slate-600">{t("send.intro")}</p>
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="grid gap-4 md:grid-cols-2">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input {...getInputProps(fields.appId, { type: "hidden" })} key={fields.appId.key} />
          <SelectField
            field={fields.target}
            label={t("send.target")}
            options={targets.map((c) => ({ value: c.chainName, label: c.label }))}
          />
          {kinds.length > 1 ? (
            <RadioGroupField
              field={fields.kind as unknown as FieldMetadata<string | undefined>}
              legend={t("send.kind")}
              options={kinds.map((k) => ({ value: k, label: t(`send.kinds.${k}`) }))}
            />
          ) : (
            <input type="hidden" name={fields.kind.name} value="message" />
          )}
          {needsText ? (
            <TextField
              field={fields.text}
              label={t("send.payload")}
              hint={t("send.payloadHint")}
              autoComplete="off"
              className="md:col-span-2"
            />
          ) : null}
          <div className="md:col-span-2">
            <SubmitButton intent="send" className="btn-primary">
              {t("send.submit")}
            </SubmitButton>
          </div>
        </Form>
      </FormProvider>
    </section>
  );
}
