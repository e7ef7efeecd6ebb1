import { FormProvider, getFormProps, getInputProps } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { weiForCents } from "#contract/public-chain-codes.ts";
import { idempotencyKey, moneyAmount, toCents } from "#contract/rules.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { TextField } from "#app/components/forms.tsx";
import { FormErrors } from "#app/components/form-parts.tsx";
import type { Language } from "#app/lib/i18n.ts";
import { formatUsd } from "#app/lib/format.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import type { SubmissionResult } from "@conform-to/react";
import { formatEther } from "#app/lib/format-number.ts";

/** The assign-gas form (§9 bill type 50): the amount in USD and the key that makes it happen once. */
export const assignGasForm = z.object({ amount: moneyAmount(), idempotencyKey: idempotencyKey() });

const typedCents = (amount: string | undefined) =>
  amount && /^[0-9]+(\.[0-9]{1,2})?$/.test(amount) ? toCents(amount) : null;

/** What an amount buys (at the operators' gas rate, `coinPriceCents`) and leaves: the question of the confirm step. */
export function useGasQuestion(balanceCents: number, language: Language, coinPriceCents: number) {
  const { t } = useTranslation("publicChain");
  return (amount: string | undefined) => {
    const cents = typedCents(amount);
    if (cents === null) return t("gas.questionUnknown");
    return t("gas.question", {
      amount: formatUsd(cents, language),
      gas: formatEther(weiForCents(cents, coinPriceCents).toString()),
      balance: formatUsd(balanceCents, language),
      after: formatUsd(balanceCents - cents, language),
    });
  };
}

/** Assign gas from the balance: a dialog with JavaScript, the page's confirm step without (the action answers it). */
export function AssignGasForm({
  action,
  balanceCents,
  coinPriceCents,
  language,
  issuedKey,
  lastResult,
  confirm,
}: {
  action: string;
  balanceCents: number;
  coinPriceCents: number;
  language: Language;
  issuedKey: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
  confirm: { amount: string; idempotencyKey: string } | null;
}) {
  const { t } = useTranslation("publicChain");
  const question = useGasQuestion(balanceCents, language, coinPriceCents);
  const [form, fields] = useSchemaForm(assignGasForm, lastResult, {
    id: "assign-gas",
    defaultValue: { idempotencyKey: issuedKey },
  });
  if (confirm) {
    return (
      <div className="card max-w-lg" role="alertdialog" aria-labelledby="gas-confirm-title" data-testid="confirm-step">
        <h3 id="gas-confirm-title" className="text-lg font-semibold">
          {t("gas.confirmTitle")}
        </h3>
        <p className="mt-2 text-slate-600">{question(confirm.amount)}</p>
        <Form method="post" action={action} className="mt-4 flex justify-end gap-2">
          <input type="hidden" name="amount" value={confirm.amount} />
          <input type="hidden" name="idempotencyKey" value={confirm.idempotencyKey} />
          <input type="hidden" name="confirmed" value="yes" />
          <Link to={action} className="btn-secondary">
            {t("common:actions.cancel")}
          </Link>
          <button type="submit" name="intent" value="assignGas" className="btn-primary">
            {t("gas.confirm")}
          </button>
        </Form>
      </div>
    );
  }
  return (
    <FormProvider context={form.context}>
      <Form method="post" action={action} {...getFormProps(form)} className="max-w-md space-y-3">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input {...getInputProps(fields.idempotencyKey, { type: "hidden" })} key={fields.idempotencyKey.key} />
        <input type="hidden" name="intent" value="assignGas" />
        <TextField
          field={fields.amount}
          label={t("gas.amount")}
          hint={t("gas.amountHint", {
            balance: formatUsd(balanceCents, language),
            dollar: formatUsd(100, language),
            per: formatEther(weiForCents(100, coinPriceCents).toString()),
          })}
          autoComplete="off"
        />
        <ConfirmSubmit
          formId={form.id}
          label={t("gas.submit")}
          title={t("gas.confirmTitle")}
          question={question(fields.amount.value)}
          confirmLabel={t("gas.confirm")}
        />
      </Form>
    </FormProvider>
  );
}

/**
 * The custody key as an encrypted keystore: a plain POST (a document request even with JavaScript) to the
 * keystore resource route, whose answer is the file; a refused password comes back as the page's message.
 */
export function KeystoreForm({ action }: { action: string }) {
  const { t } = useTranslation("publicChain");
  return (
    <Form method="post" action={action} reloadDocument className="max-w-md space-y-3">
      <input type="hidden" name="intent" value="keystore" />
      <div>
        <label htmlFor="keystore-password" className="label">
          {t("keystore.password")}
        </label>
        <input
          id="keystore-password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          maxLength={128}
          required
          className="input"
          aria-describedby="keystore-password-hint"
        />
        <p id="keystore-password-hint" className="mt-1 text-xs text-slate-600">
          {t("keystore.hint")}
        </p>
      </div>
      <button type="submit" className="btn-secondary">
        {t("keystore.download")}
      </button>
    </Form>
  );
}
