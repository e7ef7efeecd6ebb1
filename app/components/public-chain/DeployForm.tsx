import { FormProvider, getFormProps, getInputProps } from "@conform-to/react";
import { Form, Link, useActionData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SubmissionResult } from "@conform-to/react";
import { CONTRACT_SOURCES, contractDeployFormSchema } from "#contract/contracts.ts";
import { RadioGroupField, SelectField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { formatEther } from "#app/lib/format-number.ts";
import { PC } from "#app/lib/public-chain-urls.ts";

type Account = { accountId: number; name: string; address: string; gasWei: string | null };

/**
 * The form that deploys a contract (SPEC §4 Contract deployment, §5 Contract name): its name, the custody
 * account that signs and pays the gas, and Solidity source (compiled on the server by the deployment job) or an
 * ABI with its creation bytecode; the constructor's arguments one per line. While a deployment of the project
 * is under way the form says so and is disabled (the server refuses a second one too). With JavaScript only
 * the chosen source's fields are shown; without it both groups are, and the server reads the chosen one.
 */
export function DeployForm({ projectId, busy, accounts }: { projectId: number; busy: boolean; accounts: Account[] }) {
  const { t } = useTranslation("contracts");
  const actionData = useActionData<{ result?: SubmissionResult<string[]> }>();
  const [form, fields] = useSchemaForm(contractDeployFormSchema, actionData?.result, {
    id: "deploy-contract",
    defaultValue: {
      projectId: String(projectId),
      sourceKind: "source",
      accountId: accounts.length === 1 ? String(accounts[0].accountId) : undefined,
    },
  });
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const kind = fields.sourceKind.value ?? "source";
  const shown = (group: string) => !hydrated || kind === group;
  return (
    <section className="card space-y-4" aria-labelledby="deploy-heading">
      <h2 id="deploy-heading" className="text-lg font-semibold">
        {t("deploy.heading")}
      </h2>
      {busy ? (
        <p
          role="status"
          className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200"
          data-testid="deploy-busy"
        >
          {t("deploy.busy")}
        </p>
      ) : null}
      {accounts.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="no-custody">
          {t("deploy.noCustody")}{" "}
          <Link className="link" to={`${PC}/NewAccount?projectId=${projectId}`}>
            {t("deploy.createAccount")}
          </Link>
        </p>
      ) : null}
      <FormProvider context={form.context}>
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <fieldset disabled={busy || accounts.length === 0} className="space-y-4">
            <legend className="sr-only">{t("deploy.heading")}</legend>
            <FormErrors id={form.errorId} errors={form.errors} />
            <input {...getInputProps(fields.projectId, { type: "hidden" })} key={fields.projectId.key} />
            <div className="grid gap-4 md:grid-cols-2">
              <TextField field={fields.name} label={t("fields.name")} hint={t("deploy.nameRule")} autoComplete="off" />
              <SelectField
                field={fields.accountId}
                label={t("fields.account")}
                placeholder={t("deploy.chooseAccount")}
                options={accounts.map((a) => ({
                  value: String(a.accountId),
                  label: t("deploy.accountOption", { name: a.name, address: a.address, gas: formatEther(a.gasWei) }),
                }))}
              />
            </div>
            <RadioGroupField
              field={fields.sourceKind}
              legend={t("fields.sourceKind")}
              options={CONTRACT_SOURCES.map((s) => ({ value: s, label: t(`sources.${s}`) }))}
            />
            {shown("source") ? (
              <div className="space-y-4" data-testid="source-fields">
                <TextAreaField
                  field={fields.source}
                  label={t("fields.source")}
                  rows={12}
                  hint={t("deploy.sourceRule")}
                />
                <TextField
                  field={fields.mainContract}
                  label={t("fields.mainContract")}
                  hint={t("deploy.mainContractRule")}
                  autoComplete="off"
                />
              </div>
            ) : null}
            {shown("abi") ? (
              <div className="space-y-4" data-testid="abi-fields">
                <TextAreaField field={fields.abi} label={t("fields.abi")} rows={6} hint={t("deploy.abiRule")} />
                <TextAreaField
                  field={fields.bytecode}
                  label={t("fields.bytecode")}
                  rows={4}
                  hint={t("deploy.bytecodeRule")}
                />
              </div>
            ) : null}
            <TextAreaField
              field={fields.constructorArgsText}
              label={t("fields.constructorArgs")}
              rows={3}
              hint={t("deploy.argsRule")}
            />
            <div className="flex justify-end">
              <SubmitButton intent="deploy" className="btn-primary">
                {t("deploy.submit")}
              </SubmitButton>
            </div>
          </fieldset>
        </Form>
      </FormProvider>
    </section>
  );
}
