import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormErrors, TextAreaField } from "./forms";
import { useSchemaForm } from "~/lib/use-schema-form";

/** What a queue's action answers for one item's decision form (see decideQueueItem). */
export type DecisionActionData = { id: number; result: SubmissionResult<string[]> };

/**
 * An operator's decision on one queue item (operations area, docs/decisions/005): review comments and
 * Approve / Reject, posted with `intent`, the item's id (`idName`) and `decision`, validated with the
 * queue's decision schema on both sides. The texts are the `ops.*` keys of the queue's own namespace.
 */
export function DecisionForm({
  formId,
  schema,
  intent,
  idName,
  idValue,
  ns,
}: {
  formId: string;
  schema: z.ZodType<{ decision: string; comments?: string }, { comments?: string }>;
  intent: string;
  idName: string;
  idValue: number;
  ns: string;
}) {
  const { t } = useTranslation(ns);
  const actionData = useActionData<DecisionActionData>();
  const [form, fields] = useSchemaForm(schema, actionData && actionData.id === idValue ? actionData.result : undefined, { id: formId });
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="space-y-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name={idName} value={idValue} />
        <TextAreaField field={fields.comments} label={t("ops.comments")} hint={t("ops.commentsHint")} rows={2} />
        <div className="flex gap-2">
          <button type="submit" name="decision" value="approve" className="btn-primary">{t("ops.approve")}</button>
          <button type="submit" name="decision" value="reject" className="btn-danger">{t("ops.reject")}</button>
        </div>
      </Form>
    </FormProvider>
  );
}
