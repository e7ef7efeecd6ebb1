import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useActionData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormErrors, SubmitButton } from "#app/components/form-parts.tsx";
import { RecordTable } from "#app/components/RecordTable.tsx";
import { Table } from "#app/components/Table.tsx";
import type { Language } from "#app/lib/i18n.ts";
import { transactionHref } from "#app/lib/public-chain-urls.ts";
import { asEntries, FunctionArguments, isRead, paramsText, signatureOf, type AbiEntry } from "./contracts.tsx";

/** The parts of the contract page (app/routes/g.home.PermissionlessServices.Contract.tsx; docs/decisions/033). */

/** The ABI as people read it: a table of functions, one of events, and the raw JSON under a disclosure. */
export function AbiTables({ abi }: { abi: Record<string, unknown>[] }) {
  const { t } = useTranslation("contracts");
  const entries = asEntries(abi);
  const functions = entries.filter((e) => e.type === "function");
  const events = entries.filter((e) => e.type === "event");
  return (
    <section className="card space-y-4" aria-labelledby="abi-heading">
      <h2 id="abi-heading" className="text-lg font-semibold">
        {t("abi.heading")}
      </h2>
      <h3 className="font-medium">{t("abi.functions", { count: functions.length })}</h3>
      <Table
        variant="compact"
        label={t("abi.functions", { count: functions.length })}
        rows={functions}
        rowKey={signatureOf}
        testId="abi-functions"
        columns={[
          { header: t("abi.name"), cell: (e) => <span className="font-mono">{e.name}</span> },
          {
            header: t("abi.inputs"),
            cell: (e) => <span className="font-mono text-xs">{paramsText(e.inputs) || "—"}</span>,
          },
          {
            header: t("abi.outputs"),
            cell: (e) => <span className="font-mono text-xs">{paramsText(e.outputs) || "—"}</span>,
          },
          {
            header: t("abi.mutability"),
            cell: (e) => t(`abi.kinds.${e.stateMutability ?? "nonpayable"}`, { defaultValue: e.stateMutability ?? "" }),
          },
        ]}
      />
      {events.length > 0 ? (
        <>
          <h3 className="font-medium">{t("abi.events", { count: events.length })}</h3>
          <Table
            variant="compact"
            label={t("abi.events", { count: events.length })}
            rows={events}
            rowKey={signatureOf}
            testId="abi-events"
            columns={[
              { header: t("abi.name"), cell: (e) => <span className="font-mono">{e.name}</span> },
              {
                header: t("abi.inputs"),
                cell: (e) => <span className="font-mono text-xs">{paramsText(e.inputs) || "—"}</span>,
              },
            ]}
          />
        </>
      ) : null}
      <details>
        <summary className="link cursor-pointer text-sm">{t("abi.raw")}</summary>
        <pre
          className="mt-2 max-h-96 overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs"
          tabIndex={0}
          data-testid="abi-json"
        >
          {JSON.stringify(abi, null, 2)}
        </pre>
      </details>
    </section>
  );
}

type CallReply = {
  signature: string;
  result: SubmissionResult<string[]>;
  outputs: { name: string; type: string; value: string }[] | null;
};

/** One read function: an input per parameter, Call, and what it answered (or why not). */
function ReadFunction({ fn, index }: { fn: AbiEntry; index: number }) {
  const { t } = useTranslation("contracts");
  const location = useLocation();
  const signature = signatureOf(fn);
  const data = useActionData<CallReply>();
  const reply = data && data.signature === signature ? data : null;
  const values = (reply?.result.initialValue?.args ?? []) as unknown[];
  const errorsOf = (name: string) => reply?.result.error?.[name] ?? undefined;
  const id = `call-${index}`;
  return (
    <li
      className="space-y-2 border-t border-slate-100 pt-3 first:border-0 first:pt-0"
      data-testid="read-function"
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
        <input type="hidden" name="functionName" value={fn.name} />
        <input type="hidden" name="signature" value={signature} />
        <FormErrors
          errors={reply ? [...(reply.result.error?.[""] ?? []), ...(errorsOf("functionName") ?? [])] : undefined}
        />
        <FunctionArguments id={id} inputs={fn.inputs} values={values} errorsOf={errorsOf} />
        <SubmitButton intent="call" className="btn-secondary text-sm">
          {t("read.call")}
        </SubmitButton>
      </Form>
      {reply?.outputs ? (
        <dl
          className="rounded-md bg-emerald-50 p-3 text-sm ring-1 ring-emerald-200"
          data-testid="call-result"
          aria-live="polite"
        >
          {reply.outputs.map((o, i) => (
            <div key={i} className="flex flex-wrap gap-2">
              <dt className="font-mono text-slate-700">
                {o.name || `#${i + 1}`} ({o.type})
              </dt>
              <dd className="break-all font-mono">{o.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  );
}

/** The contract's read functions (view and pure), each callable with eth_call from its own form. */
export function ReadFunctions({ abi }: { abi: Record<string, unknown>[] }) {
  const { t } = useTranslation("contracts");
  const reads = asEntries(abi).filter(isRead);
  return (
    <section className="card space-y-3" aria-labelledby="read-heading">
      <h2 id="read-heading" className="text-lg font-semibold">
        {t("read.heading")}
      </h2>
      {reads.length === 0 ? (
        <p className="text-sm text-slate-600">{t("read.none")}</p>
      ) : (
        <ul className="space-y-3">
          {reads.map((fn, i) => (
            <ReadFunction key={signatureOf(fn)} fn={fn} index={i} />
          ))}
        </ul>
      )}
    </section>
  );
}

type EventRow = {
  blockNumber: number;
  txHash: string;
  logIndex: number;
  eventName: string | null;
  args: { name: string; value: string }[];
  topics: string[];
  data: string;
};

/** The contract's events, newest first, decoded with its ABI (raw topics and data when it does not describe one). */
export function EventsTable({
  page,
  language,
  heading,
  showTransaction = true,
}: {
  page: { rows: EventRow[]; pageIndex: number; pageSize: number; total: number };
  language: Language;
  /** The section's heading (the contract's page: its events, newest first). */
  heading?: string;
  /** A column linking each event's transaction (not on the transaction's own page). */
  showTransaction?: boolean;
}) {
  const { t } = useTranslation("contracts");
  const title = heading ?? t("events.heading");
  const txColumn = {
    header: t("events.tx"),
    cell: (e: EventRow) => (
      <Link className="link break-all font-mono text-xs" to={transactionHref(e.txHash)}>
        {e.txHash}
      </Link>
    ),
  };
  return (
    <section className="space-y-3" aria-labelledby="events-heading">
      <h2 id="events-heading" className="text-lg font-semibold">
        {title}
      </h2>
      <RecordTable
        label={title}
        page={page}
        rowKey={(e) => `${e.txHash}-${e.logIndex}`}
        rowTestId="event-row"
        empty={t("events.empty")}
        emptyTestId="events-empty"
        columns={[
          { header: t("events.block"), cell: (e) => e.blockNumber.toLocaleString(language), numeric: true },
          {
            header: t("events.event"),
            cell: (e) => (
              <span className="font-mono" data-testid="event-name">
                {e.eventName ?? t("events.unknown")}
              </span>
            ),
          },
          {
            header: t("events.args"),
            cell: (e) =>
              e.eventName ? (
                <dl className="space-y-1 font-mono text-xs">
                  {e.args.map((a) => (
                    <div key={a.name} className="flex flex-wrap gap-2">
                      <dt className="text-slate-600">{a.name}</dt>
                      <dd className="break-all">{a.value}</dd>
                    </div>
                  ))}
                </dl>
              ) : (
                <span className="break-all font-mono text-xs">{[...e.topics, e.data].join(" ")}</span>
              ),
          },
          ...(showTransaction ? [txColumn] : []),
        ]}
      />
    </section>
  );
}
