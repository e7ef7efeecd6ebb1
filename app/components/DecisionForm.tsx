import { FormProvider, getFormProps, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormErrors, TextAreaField } from "./forms";

/**
 * An operator's decision on one queue item (operations area, docs/decisions/005): review comments and
 * Approve / Reject, posted with `intent`, the item's id and `decision`. The texts are the `ops.*` keys of
 * the queue's own namespace.
 */
export function DecisionForm({
  form,
  comments,
  intent,
  idName,
  idValue,
  ns,
}: {
  // The queues' forms have different fields; only `comments` is rendered here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: FormMetadata<any, string[]>;
  comments: FieldMetadata<string | undefined>;
  intent: string;
  idName: string;
  idValue: string | number;
  ns: string;
}) {
  const { t } = useTranslation(ns);
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="space-y-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name={idName} value={idValue} />
        <TextAreaField field={comments} label={t("ops.comments")} hint={t("ops.commentsHint")} rows={2} />
        <div className="flex gap-2">
          <button type="submit" name="decision" value="approve" className="btn-primary">{t("ops.approve")}</button>
          <button type="submit" name="decision" value="reject" className="btn-danger">{t("ops.reject")}</button>
        </div>
      </Form>
    </FormProvider>
  );
}
