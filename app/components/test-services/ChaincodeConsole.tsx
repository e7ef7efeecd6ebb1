import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { TestChaincodeAnswer, TestService } from "#contract/test-services.ts";

export type ChaincodeReply = {
  chaincode: { mode: string; fn: string; args: string; answer: TestChaincodeAnswer | null; errorKey: string | null };
};

/**
 * A deployed Fabric test service's chaincode, called from its page (docs/decisions/069): a function name and its
 * arguments (one a line); Query simulates, Invoke commits; the chaincode's answer is shown. A document POST
 * without JavaScript, a fetch with it.
 */
export function ChaincodeConsole({ service, reply }: { service: TestService; reply: ChaincodeReply | null }) {
  const { t } = useTranslation("testServices");
  const busy = useNavigation().state === "submitting";
  const last = reply?.chaincode ?? null;
  const answer = last?.answer ?? null;
  return (
    <section className="card space-y-3" aria-labelledby="chaincode-console" data-testid="chaincode-console">
      <h2 id="chaincode-console" className="text-lg font-semibold">
        {t("chaincode.title")}
      </h2>
      <p className="text-sm text-slate-600">
        {t("chaincode.intro", { channel: service.channel, chaincode: service.contractName })}
      </p>
      <Form method="post" className="space-y-3">
        <input type="hidden" name="testServiceId" value={service.testServiceId} />
        <div>
          <label htmlFor="chaincode-fn" className="label">
            {t("chaincode.fn")}
          </label>
          <input
            id="chaincode-fn"
            name="fn"
            required
            maxLength={100}
            autoComplete="off"
            className="input font-mono"
            defaultValue={last?.fn ?? ""}
          />
        </div>
        <div>
          <label htmlFor="chaincode-args" className="label">
            {t("chaincode.args")}
          </label>
          <textarea
            id="chaincode-args"
            name="args"
            rows={3}
            className="input font-mono"
            defaultValue={last?.args ?? ""}
            aria-describedby="chaincode-args-hint"
          />
          <p id="chaincode-args-hint" className="mt-1 text-xs text-slate-600">
            {t("chaincode.argsHint")}
          </p>
        </div>
        <div className="flex gap-2">
          <button type="submit" name="intent" value="query" className="btn-secondary" disabled={busy}>
            {t("chaincode.query")}
          </button>
          <button type="submit" name="intent" value="invoke" className="btn-primary" disabled={busy}>
            {t("chaincode.invoke")}
          </button>
        </div>
      </Form>
      {last?.errorKey ? (
        <p className="text-sm text-red-700" role="alert" data-testid="chaincode-error">
          {t(last.errorKey)}
        </p>
      ) : null}
      {answer ? (
        <div className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" role="status">
          <p data-testid="chaincode-status">
            {t(answer.status < 400 ? "chaincode.ok" : "chaincode.failed", { status: answer.status })}
            {answer.validationCode === null
              ? ` ${t("chaincode.simulated")}`
              : ` ${t("chaincode.committed", { block: answer.blockNumber, code: answer.validationCode })}`}
          </p>
          {answer.message ? <p data-testid="chaincode-message">{answer.message}</p> : null}
          <p className="label mt-2">{t("chaincode.payload")}</p>
          <pre className="whitespace-pre-wrap break-all text-xs" data-testid="chaincode-payload">
            {answer.payload}
          </pre>
          <p className="mt-2 break-all font-mono text-xs text-slate-600">{answer.txId}</p>
        </div>
      ) : null}
    </section>
  );
}
