import { FormProvider, getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { spendLimitSchema } from "#contract/team.ts";
import { roleMay, type TeamRole } from "#contract/team-roles.ts";
import { TextField } from "#app/components/forms.tsx";
import { ButtonBesideFields, FormErrors } from "#app/components/form-parts.tsx";
import { formatUsd } from "#app/lib/format.ts";

/** The action's answer to a refused limit: which member's form, and Conform's reply (the typed value kept). */
export type SpendLimitAnswer = { kind: "spendLimit"; memberId: number; result: SubmissionResult<string[]> };

/**
 * A member's monthly spending limit (issue 33, docs/decisions/080): the owner types it in USD; the month's
 * spend so far beside it. It binds only roles without "pay" (finance and admins pay anyway). Checked here with
 * the contract's schema and again by the backend; without JavaScript the server answers the same errors.
 */
export function SpendLimitForm({
  member,
  language,
  lastResult,
}: {
  member: { memberId: number; userName: string; role: string; spendLimitCents: number; spentCents: number };
  language: "en" | "zh-CN";
  lastResult: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: `limit-${member.memberId}`,
    lastResult,
    shouldValidate: "onBlur",
    defaultValue: { spendLimit: (member.spendLimitCents / 100).toFixed(2) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: spendLimitSchema }),
  });
  const binds = !roleMay(member.role as TeamRole, "pay");
  return (
    <FormProvider context={form.context}>
      <Form method="post" {...getFormProps(form)} className="space-y-1" data-testid={`limit-${member.userName}`}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="memberId" value={member.memberId} />
        <div className="flex items-start gap-2">
          <TextField
            field={fields.spendLimit}
            label={t("team.spendLimit.label", { name: member.userName })}
            autoComplete="off"
          />
          <ButtonBesideFields type="submit" name="intent" value="spendLimit" className="btn-secondary">
            {t("team.spendLimit.save")}
          </ButtonBesideFields>
        </div>
        <p className="text-xs text-slate-600" data-testid={`spent-${member.userName}`}>
          {binds
            ? t("team.spendLimit.spent", { spent: formatUsd(member.spentCents, language) })
            : t("team.spendLimit.paysAnyway")}
        </p>
      </Form>
    </FormProvider>
  );
}
