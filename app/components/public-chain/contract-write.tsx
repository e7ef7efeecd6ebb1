import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useActionData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { IdeCallResult } from "#contract/ide.ts";
import { CallResult } from "#app/components/ide/Chain.tsx";
import { ErrorList, FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { accountsHref } from "#app/lib/public-chain-urls.ts";
import { asEntries, FunctionArguments, isRead, signatureOf, type AbiEntry } from "./contracts.tsx";

/**
 * The contract page's write functions (issue 30 item 15b): a form per function, its arguments and the custody
 * account that signs and pays the gas, sent through /sys/opc/contract/write. A refused form is answered in place
 * with its errors and everything typed; a sent transaction redirects to the page (post-redirect-get, so a reload
 * never sends it again), which shows the receipt and decoded events once under the function that sent it
 * (`written`, app/lib/contract-write.server.ts), with JavaScript and without.
 */

export type WriteAccount = { accountId: number; name: string; address: string };

/** The action's answer to a refused write (a sent one redirects). */
export type WriteReply = {
  kind: "write";
  signature: string;
  result: SubmissionResult<string[]>;
};

/** The write the page was redirected after, as the loader read it once (WrittenResult). */
export type Written = { signature: string; result: IdeCallResult; moreEvents: number };

const isWrite = (e: AbiEntry) => e.type === "function" && !isRead(e);

function WriteFunction({
  fn,
  index,
  accounts,
  written,
}: {
  fn: AbiEntry;
  index: number;
  accounts: WriteAccount[];
  written: Written | null;
}) {
  const { t } = useTranslation("contracts");
  const location = useLocation();
  const signature = signatureOf(fn);
  // The page's action answers reads and writes: only a write's answer for this function is this form's.
  const data = useActionData() as { kind?: string; signature?: string } | undefined;
  const reply = data?.kind === "write" && data.signature === signature ? (data as WriteReply) : null;
  const sent = !reply && written?.signature === signature ? written : null;
  const values = (reply?.result.initialValue?.args ?? []) as unknown[];
  const chosen = reply?.result.initialValue?.accountId;
  const errorsOf = (name: string) => reply?.result.error?.[name] ?? undefined;
  const id = `write-${index}`;
  return (
    <li
      className="space-y-2 border-t border-slate-100 pt-3 first:border-0 first:pt-0"
      data-testid="write-function"
      data-signature={signature}
    >
      <Form
        method="post"
        action={location.pathname + location.search}
        className="space-y-2"
        aria-labelledby={`${id}-name`}
      >
        <h3 id={`${id}-name`} className="font-mono text-sm font-semibold">
          {signature}
        </h3>
        <input type="hidden" name="signature" value={signature} />
        <FormErrors
          errors={reply ? [...(reply.result.error?.[""] ?? []), ...(errorsOf("signature") ?? [])] : undefined}
        />
        <div>
          <label htmlFor={`${id}-account`} className="label">
            {t("write.account")}
          </label>
          <select
            id={`${id}-account`}
            name="accountId"
            className="input"
            defaultValue={typeof chosen === "string" ? chosen : String(accounts[0]?.accountId ?? "")}
            aria-invalid={errorsOf("accountId") ? true : undefined}
            aria-describedby={errorsOf("accountId") ? `${id}-account-error` : undefined}
          >
            {accounts.map((a) => (
              <option key={a.accountId} value={a.accountId}>
                {a.name} ({a.address.slice(0, 10)}…)
              </option>
            ))}
          </select>
          <ErrorList id={`${id}-account-error`} errors={errorsOf("accountId")} />
        </div>
        <FunctionArguments id={id} inputs={fn.inputs} values={values} errorsOf={errorsOf} />
        <SubmitButton intent="write" className="btn-primary text-sm">
          {t("write.send")}
        </SubmitButton>
      </Form>
      {sent ? <CallResult result={sent.result} /> : null}
      {sent && sent.moreEvents > 0 ? (
        <p className="text-xs text-slate-600" data-testid="more-events">
          {t("write.moreEvents", { count: sent.moreEvents })}
        </p>
      ) : null}
    </li>
  );
}

/** The write functions of a deployed contract, each sent from its own form by a custody account of the project. */
export function WriteFunctions({
  abi,
  accounts,
  projectId,
  written,
}: {
  abi: Record<string, unknown>[];
  accounts: WriteAccount[];
  projectId: number;
  written: Written | null;
}) {
  const { t } = useTranslation("contracts");
  const writes = asEntries(abi).filter(isWrite);
  return (
    <section className="card space-y-3" aria-labelledby="write-heading">
      <h2 id="write-heading" className="text-lg font-semibold">
        {t("write.heading")}
      </h2>
      <p className="text-sm text-slate-600">{t("write.intro")}</p>
      {writes.length === 0 ? (
        <p className="text-sm text-slate-600">{t("write.none")}</p>
      ) : accounts.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="write-no-account">
          {t("write.noAccount")}{" "}
          <Link className="link" to={accountsHref(projectId)}>
            {t("write.accounts")}
          </Link>
        </p>
      ) : (
        <ul className="space-y-3">
          {writes.map((fn, i) => (
            <WriteFunction key={signatureOf(fn)} fn={fn} index={i} accounts={accounts} written={written} />
          ))}
        </ul>
      )}
    </section>
  );
}
