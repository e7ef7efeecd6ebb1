import { FormProvider, getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PRN_TRY_METHODS, prnTrySchema } from "#contract/dedicated-nodes.ts";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

export type TryAnswer = { status: number; body?: unknown };

/**
 * "Try it" (issue 17): one JSON-RPC call sent through the project's gateway with its authorized user and the
 * password typed here; the page shows the gateway's answer as it came (JSON), or its refusal in words
 * (401: wrong user or password; 503: stopped). A plain POST with intent=try, so it works without JavaScript.
 */
export function TryIt({
  prnProjectId,
  user,
  action,
  lastResult,
  answer,
}: {
  prnProjectId: number;
  user: string;
  action: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
  answer: TryAnswer | null;
}) {
  const { t } = useTranslation(["dedicatedNodes", "dedicatedNodeRules"]);
  const [form, fields] = useSchemaForm(prnTrySchema, lastResult, {
    id: "prn-try",
    defaultValue: { prnProjectId: String(prnProjectId), method: "eth_blockNumber", params: "[]" },
  });
  return (
    <section className="card space-y-3" aria-labelledby="prn-try-title" data-testid="try-it">
      <h2 id="prn-try-title" className="text-lg font-semibold">
        {t("try.title")}
      </h2>
      <p className="text-sm text-slate-600">{t("try.intro", { user })}</p>
      <FormProvider context={form.context}>
        <Form method="post" action={action} {...getFormProps(form)} className="space-y-3">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input {...getInputProps(fields.prnProjectId, { type: "hidden" })} key={fields.prnProjectId.key} />
          <div className="grid gap-3 sm:grid-cols-3">
            <TextField
              field={fields.method}
              label={t("try.method")}
              autoComplete="off"
              hint={<span>{PRN_TRY_METHODS.join(", ")}</span>}
            />
            <TextField field={fields.params} label={t("try.params")} hint={t("try.paramsHint")} autoComplete="off" />
            <TextField field={fields.password} type="password" label={t("try.password")} autoComplete="off" />
          </div>
          <div className="flex justify-end">
            <SubmitButton intent="try" className="btn-primary">
              {t("try.submit")}
            </SubmitButton>
          </div>
        </Form>
      </FormProvider>
      {answer ? <TryAnswerView answer={answer} /> : null}
    </section>
  );
}

function TryAnswerView({ answer }: { answer: TryAnswer }) {
  const { t } = useTranslation("dedicatedNodes");
  const refusal =
    answer.status === 401
      ? t("try.refused401")
      : answer.status === 503
        ? t("try.refused503")
        : answer.status >= 400
          ? t("try.refusedOther", { status: answer.status })
          : null;
  return (
    <div className="space-y-2" data-testid="try-answer" data-status={answer.status}>
      {refusal ? (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700"
          data-testid="try-refused"
        >
          {refusal}
        </p>
      ) : null}
      <p className="text-sm font-medium">{t("try.answer", { status: answer.status })}</p>
      <pre
        className="max-h-80 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100"
        data-testid="try-body"
        tabIndex={0}
      >
        {JSON.stringify(answer.body, null, 2)}
      </pre>
    </div>
  );
}
