import { FormProvider, getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormErrors, TextAreaField } from "./forms.tsx";
import { RowActions } from "./RowActions.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

/** What a queue's action answers for one item's decision form (see decideQueueItem). */
export type DecisionActionData = { intent: string; id: number; result: SubmissionResult<string[]> };

/**
 * An operator's decision on one queue item (operations area, docs/decisions/005): review comments and
 * Approve / Reject, posted with `intent`, the item's id (`idName`) and `decision`, validated with the
 * queue's decision schema on both sides. The texts are the `ops.*` keys of the queue's own namespace.
 * Approve is the item's main action and Reject sits in its "More" menu (RowActions, docs/decisions/027), a
 * submit button of this same form, so the comments typed go with it (without JavaScript too).
 */
export function DecisionForm({
  formId,
  schema,
  intent,
  idName,
  idValue,
  ns,
  subject,
}: {
  formId: string;
  schema: z.ZodType<{ decision: string; comments?: string }, { comments?: string }>;
  intent: string;
  idName: string;
  idValue: number;
  ns: string;
  /** What the item is, for the menu button's accessible name ("More actions for …"); its id otherwise. */
  subject?: string;
}) {
  const { t } = useTranslation(ns);
  const actionData = useActionData<DecisionActionData>();
  const [form, fields] = useSchemaForm(
    schema,
    actionData && actionData.id === idValue && actionData.intent === intent ? actionData.result : undefined,
    { id: formId },
  );
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="space-y-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name={idName} value={idValue} />
        <TextAreaField field={fields.comments} label={t("ops.comments")} hint={t("ops.commentsHint")} rows={2} />
        <RowActions
          name={subject ?? `#${idValue}`}
          main={
            <button type="submit" name="decision" value="approve" className="btn-primary">
              {t("ops.approve")}
            </button>
          }
          more={[
            {
              key: "reject",
              label: t("ops.reject"),
              danger: true,
              dataAction: "reject",
              submit: { form: formId, name: "decision", value: "reject" },
            },
          ]}
        />
      </Form>
    </FormProvider>
  );
}
