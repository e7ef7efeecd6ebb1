import { FormProvider, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  ideCallFormSchema,
  ideDeployFormSchema,
  type IdeCallResult,
  type IdeCompiled,
  type IdeDeployment,
} from "#contract/ide.ts";
import type { ChainAccount } from "#contract/public-chain.ts";
import { SelectField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import {
  ContractStatusBadge,
  asEntries,
  isUnderWay,
  paramsText,
  signatureOf,
  type AbiEntry,
} from "#app/components/public-chain/contracts.tsx";
import { contractHref } from "#app/lib/public-chain-urls.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";

type Last = { target: string; result: SubmissionResult<string[]> | null; call: IdeCallResult | null } | undefined;

/**
 * The deployment form: a compiled contract, where to (the test network, or one of the user's custody accounts and
 * its project), the constructor's arguments. Not offered while the last compilation has errors (issue 30).
 */
export function DeployForm({
  compiled,
  hasErrors,
  accounts,
  action,
  last,
}: {
  compiled: IdeCompiled[];
  hasErrors: boolean;
  accounts: ChainAccount[];
  action: string;
  last: Last;
}) {
  const { t } = useTranslation("ide");
  const [form, fields] = useSchemaForm(ideDeployFormSchema, last?.target === "deploy" ? last.result : null, {
    id: "deploy",
    defaultValue: { contract: compiled[0] ? `${compiled[0].file}:${compiled[0].name}` : "" },
  });
  // While the last compilation has errors nothing is offered: its contracts would not be the source shown.
  if (hasErrors)
    return (
      <p className="text-sm text-red-800" data-testid="deploy-blocked">
        {t("portal.deployBlocked")}
      </p>
    );
  if (!compiled.length) return <p className="text-sm text-slate-600">{t("portal.compileFirst")}</p>;
  return (
    <FormProvider context={form.context}>
      <Form
        method="post"
        action={action}
        id={form.id}
        onSubmit={form.onSubmit}
        noValidate
        className="space-y-3"
        data-testid="deploy-form"
      >
        <FormErrors id={form.errorId} errors={form.errors} />
        <SelectField
          field={fields.contract}
          label={t("portal.contract")}
          options={compiled.map((c) => ({ value: `${c.file}:${c.name}`, label: `${c.name} (${c.file})` }))}
        />
        <SelectField
          field={fields.target}
          label={t("portal.target")}
          placeholder={t("portal.chooseTarget")}
          options={[
            { value: "test", label: t("portal.testNetwork") },
            ...accounts.map((a) => ({
              value: String(a.accountId),
              label: `${a.projectName} · ${a.name} (${a.address.slice(0, 10)}…)`,
            })),
          ]}
        />
        {accounts.length ? null : (
          <p className="text-sm text-slate-600">
            {t("portal.noAccounts")}{" "}
            <Link className="link" to="/g/home/PermissionlessServices/Home">
              {t("portal.toProjects")}
            </Link>
          </p>
        )}
        <TextAreaField
          field={fields.constructorArgsText}
          label={t("portal.constructorArgs")}
          hint={t("portal.constructorArgsHint")}
          rows={3}
        />
        <SubmitButton intent="deploy" className="btn-primary">
          {t("portal.deploy")}
        </SubmitButton>
      </Form>
    </FormProvider>
  );
}

/** The contracts deployed from the workspace, newest first; the one chosen is called below. */
export function Deployments({
  deployments,
  chosen,
  hrefOf,
}: {
  deployments: IdeDeployment[];
  chosen: IdeDeployment | null;
  hrefOf: (d: IdeDeployment) => string;
}) {
  const { t } = useTranslation("ide");
  if (!deployments.length) return <p className="text-sm text-slate-600">{t("portal.noDeployments")}</p>;
  return (
    <ul className="space-y-2 text-sm" data-testid="deployments">
      {deployments.map((d) => (
        <li
          key={`${d.network}:${d.contractId}`}
          className={`rounded-md border p-2 ${d.contractId === chosen?.contractId && d.network === chosen.network ? "border-brand-500" : "border-slate-200"}`}
        >
          <div className="flex flex-wrap items-center gap-2">
            <Link to={hrefOf(d)} className="link font-medium">
              {d.name}
            </Link>{" "}
            <ContractStatusBadge status={d.status} />
            {d.network === "project" ? (
              <Link to={contractHref(d.contractId)} className="link text-xs">
                {t("portal.deploymentPage")}
              </Link>
            ) : null}
          </div>
          <p className="text-xs text-slate-600" data-testid="deployment-network">
            {d.network === "test"
              ? `${t("portal.testNetwork")} (${d.chainName}) · ${d.accountName}`
              : `${d.projectName} · ${d.accountName}`}
          </p>
          {d.txHash && d.network === "test" ? (
            <p className="break-all font-mono text-xs">
              {t("portal.txHash")}: {d.txHash} · {t("portal.block", { block: d.blockNumber })}
            </p>
          ) : null}
          {d.address ? (
            <p className="break-all font-mono text-xs" data-testid="deployed-address">
              {d.address}
            </p>
          ) : null}
          {isUnderWay(d.status) ? (
            <p className="text-xs text-slate-600" role="status">
              {t("portal.underWay")}{" "}
              <Link className="link" to={hrefOf(d)}>
                {t("portal.refresh")}
              </Link>
            </p>
          ) : null}
          {d.failReason ? (
            <pre className="whitespace-pre-wrap break-words text-xs text-red-800">{d.failReason}</pre>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** A form per function of the deployed contract's ABI (reads and writes), each with its result once called. */
export function FunctionForms({
  deployment,
  accounts,
  action,
  last,
}: {
  deployment: IdeDeployment;
  accounts: ChainAccount[];
  action: string;
  last: Last;
}) {
  const functions = asEntries(deployment.abi).filter((e) => e.type === "function");
  const signers = deployment.network === "test" ? [] : accounts.filter((a) => a.projectId === deployment.projectId);
  return (
    <div className="space-y-3">
      {functions.map((fn) => (
        <FunctionForm
          key={signatureOf(fn)}
          fn={fn}
          deployment={deployment}
          signers={signers}
          action={action}
          last={last?.target === signatureOf(fn) ? last : undefined}
        />
      ))}
    </div>
  );
}

function FunctionForm({
  fn,
  deployment,
  signers,
  action,
  last,
}: {
  fn: AbiEntry;
  deployment: IdeDeployment;
  signers: ChainAccount[];
  action: string;
  last: Last;
}) {
  const { contractId, network } = deployment;
  const { t } = useTranslation("ide");
  const signature = signatureOf(fn);
  const read = fn.stateMutability === "view" || fn.stateMutability === "pure";
  const inputs = fn.inputs ?? [];
  const [form, fields] = useSchemaForm(ideCallFormSchema, last?.result ?? null, {
    id: `fn-${signature}`,
    defaultValue: {
      contractId: String(contractId),
      signature,
      args: inputs.map(() => ""),
      accountId: signers[0] ? String(signers[0].accountId) : undefined,
    },
  });
  const args = fields.args.getFieldList();
  return (
    <section className="rounded-md border border-slate-200 p-3" aria-label={signature} data-testid="function-form">
      <FormProvider context={form.context}>
        <Form method="post" action={action} id={form.id} onSubmit={form.onSubmit} noValidate className="space-y-2">
          <input type="hidden" name="network" value={network} />
          <input type="hidden" name="contractId" value={contractId} />
          <input type="hidden" name="signature" value={signature} />
          <p className="font-mono text-sm font-medium">
            {fn.name}({paramsText(inputs)}){" "}
            <span className="text-xs text-slate-500">
              {read ? t("portal.read") : t("portal.write")}
              {fn.outputs?.length ? ` → ${paramsText(fn.outputs)}` : ""}
            </span>
          </p>
          <FormErrors id={form.errorId} errors={form.errors} />
          {inputs.map((p, i) =>
            args[i] ? <TextField key={i} field={args[i]!} label={`${p.name || `#${i + 1}`} (${p.type})`} /> : null,
          )}
          {read || network === "project" ? null : (
            <p className="text-xs text-slate-600">{t("portal.testSigner", { address: deployment.accountName })}</p>
          )}
          {read || network === "test" ? null : (
            <SelectField
              field={fields.accountId}
              label={t("portal.signer")}
              options={signers.map((a) => ({
                value: String(a.accountId),
                label: `${a.name} (${a.address.slice(0, 10)}…)`,
              }))}
            />
          )}
          <SubmitButton intent="call" className={read ? "btn-secondary text-sm" : "btn-primary text-sm"}>
            {read ? t("portal.callRead") : t("portal.callWrite")}
          </SubmitButton>
        </Form>
      </FormProvider>
      {last?.call ? <CallResult result={last.call} /> : null}
    </section>
  );
}

/** A call's answer: outputs, or the transaction, its receipt and its decoded events (also the contract page's writes). */
export function CallResult({ result }: { result: IdeCallResult }) {
  const { t } = useTranslation("ide");
  return (
    <div className="mt-3 space-y-2 rounded-md bg-slate-50 p-2 text-xs" role="status" data-testid="call-result">
      {result.outputs.length ? (
        <dl>
          {result.outputs.map((o, i) => (
            <div key={i} className="flex gap-2">
              <dt className="font-semibold">
                {o.name || `#${i + 1}`} ({o.type})
              </dt>
              <dd className="break-all font-mono" data-testid="call-output">
                {o.value}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      {result.transaction ? (
        <dl className="grid gap-1">
          <div>
            <dt className="font-semibold">{t("portal.txHash")}</dt>
            <dd className="break-all font-mono" data-testid="tx-hash">
              {result.transaction.hash}
            </dd>
          </div>
          <div>
            <dt className="font-semibold">{t("portal.from")}</dt>
            <dd className="break-all font-mono">{result.transaction.from}</dd>
          </div>
          <div>
            <dt className="font-semibold">{t("portal.nonce")}</dt>
            <dd>{result.transaction.nonce}</dd>
          </div>
        </dl>
      ) : null}
      {result.receipt ? (
        <p data-testid="receipt">
          {t("portal.receipt", {
            status: t(`receipt.${result.receipt.status}`),
            block: result.receipt.blockNumber,
            gas: result.receipt.gasUsed,
          })}
        </p>
      ) : null}
      {result.transaction ? (
        result.events.length ? (
          <ul className="space-y-1" data-testid="events">
            {result.events.map((e) => (
              <li key={e.logIndex}>
                <span className="font-semibold">{e.eventName ?? t("portal.unknownEvent")}</span>{" "}
                {e.args.map((a) => `${a.name}=${a.value}`).join(", ")}
              </li>
            ))}
          </ul>
        ) : (
          <p>{t("portal.noEvents")}</p>
        )
      ) : null}
    </div>
  );
}
