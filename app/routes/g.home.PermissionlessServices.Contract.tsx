import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ContractStatus, contractCallSchema, contractWriteSchema } from "#contract/contracts.ts";
import { KeyType } from "#contract/public-chain-codes.ts";
import { Field } from "#app/components/details.tsx";
import { AbiTables, EventsTable, ReadFunctions } from "#app/components/public-chain/contract-detail.tsx";
import { PC, contractsHref, projectHref, transactionHref } from "#app/lib/public-chain-urls.ts";
import { ContractStatusBadge, isUnderWay, useRefreshWhile } from "#app/components/public-chain/contracts.tsx";
import { WriteFunctions } from "#app/components/public-chain/contract-write.tsx";
import { apiFor, redirectAfter, requireUser } from "#app/lib/api.server.ts";
import { redirectAfterWrite, takeWritten } from "#app/lib/contract-write.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { idParam } from "#app/lib/public-chain.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["publicChain", "contracts", "services", "ide"],
  breadcrumb: [
    { key: "menu.permissionlessServices", to: PC },
    { key: "titles.publicChainHome", to: `${PC}/Home` },
    { key: "titles.publicChainContract" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("publicChainContract", (d: { contract?: { name: string } }) => d.contract?.name);

const EVENTS_PAGE_SIZE = 10;
const INTENTS = ["call", "write", "redeploy"] as const;

/**
 * SPEC §4 Contract deployment, one contract: its deployment (status, address, transaction, block, gas, the
 * failure's reason), its ABI (functions and events, and the raw JSON), its read functions called with eth_call
 * (a form per function; without JavaScript the result is on the answered page), its write functions sent from
 * one of the project's custody accounts (issue 30 item 15b: the receipt and decoded events, shown once on the
 * page the write redirects to) and its decoded events, newest first.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const contractId = idParam(request, "contractId");
  const api = apiFor(request, viewer);
  const contract = await api.load("/sys/opc/contract/detail", { contractId });
  const events =
    contract.status === ContractStatus.SUCCESS
      ? (
          await api.load("/sys/opc/contract/events", {
            contractId,
            pageIndex: pageParam(new URL(request.url)),
            pageSize: EVENTS_PAGE_SIZE,
          })
        ).page
      : null;
  const accounts =
    contract.status === ContractStatus.SUCCESS
      ? (
          await api.load("/sys/opc/account/list", { projectId: contract.projectId, pageIndex: 1, pageSize: 50 })
        ).page.rows
          .filter((a) => a.keyType === KeyType.CUSTODY)
          .map((a) => ({ accountId: a.accountId, name: a.name, address: a.address }))
      : [];
  // The write this page answers (a 303 from the action), shown once under its function.
  const { written, setCookie } = await takeWritten(request, contractId);
  return json(
    { contract, events, accounts, written, language: viewer.language },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const contractId = idParam(request, "contractId");
  const formData = await request.formData();
  const intent = intentOf(formData, INTENTS);
  const api = apiFor(request, viewer);
  const url = new URL(request.url);
  if (intent === "redeploy")
    return redirectAfter(
      request,
      await api.call("/sys/opc/contract/redeploy", { contractId }),
      url.pathname + url.search,
      "contracts:flash.redeploying",
    );
  formData.set("contractId", String(contractId));
  if (intent === "write") return write(request, api, formData, contractId);
  const submission = parseWithZod(formData, { schema: contractCallSchema });
  const signature = String(formData.get("signature") ?? "");
  if (submission.status !== "success")
    return json({ signature, result: submission.reply(), outputs: null }, { status: 400 });
  const result = await api.call("/sys/opc/contract/call", submission.value);
  if (!result.ok) {
    return json(
      { signature, result: replyWithFailure(submission, result), outputs: null },
      { status: result.status === 404 ? 404 : 400 },
    );
  }
  return json({ signature, result: submission.reply(), outputs: result.data.outputs });
}

/**
 * A write function's transaction: refused at its field on the page itself (a 400, everything typed kept), or
 * sent and answered with a 303 to the page, which shows the receipt and decoded events once: reloading the
 * answer never sends the transaction again (issue 30 leftovers; docs/decisions/081).
 */
async function write(request: Request, api: ReturnType<typeof apiFor>, formData: FormData, contractId: number) {
  const submission = parseWithZod(formData, { schema: contractWriteSchema });
  const signature = String(formData.get("signature") ?? "");
  if (submission.status !== "success")
    return json({ kind: "write" as const, signature, result: submission.reply() }, { status: 400 });
  const result = await api.call("/sys/opc/contract/write", submission.value);
  if (!result.ok)
    return json(
      { kind: "write" as const, signature, result: replyWithFailure(submission, result) },
      { status: result.status === 404 ? 404 : 400 },
    );
  const url = new URL(request.url);
  return redirectAfterWrite(request, url.pathname + url.search, { contractId, signature, result: result.data });
}

export default function ContractPage() {
  const { contract: c, events, accounts, written, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("contracts");
  const location = useLocation();
  const underWay = isUnderWay(c.status);
  useRefreshWhile(underWay);
  return (
    <div className="space-y-6">
      <PageHeader
        title={
          <>
            {c.name} <ContractStatusBadge status={c.status} />
          </>
        }
        titleClassName="flex flex-wrap items-center gap-3 text-xl font-semibold"
        actions={
          <>
            <div className="flex gap-2">
              <Link className="btn-secondary" to={projectHref(c.projectId)}>
                {t("detail.project", { name: c.projectName })}
              </Link>
              <Link className="btn-secondary" to={contractsHref(c.projectId)}>
                {t("detail.allContracts")}
              </Link>
            </div>
          </>
        }
      />
      <section className="card space-y-4" aria-labelledby="deployment-heading">
        <h2 id="deployment-heading" className="text-lg font-semibold">
          {t("detail.deployment")}
        </h2>
        {underWay ? (
          <p role="status" className="text-sm text-slate-600" data-testid="under-way">
            {t("detail.underWay")}{" "}
            <Link className="link" to={location.pathname + location.search}>
              {t("list.refresh")}
            </Link>
          </p>
        ) : null}
        {c.failReason ? (
          <div
            role="alert"
            className="space-y-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
            data-testid="fail-reason"
          >
            <p className="font-medium">{t("detail.failed")}</p>
            <pre className="whitespace-pre-wrap break-words font-mono text-xs">{c.failReason}</pre>
            <Form method="post" action={location.pathname + location.search}>
              <button type="submit" name="intent" value="redeploy" className="btn-secondary">
                {t("list.redeploy")}
              </button>
            </Form>
          </div>
        ) : null}
        <dl className="grid gap-4 sm:grid-cols-3">
          <Field label={t("fields.address")}>
            <span className="break-all font-mono text-xs" data-testid="contract-address">
              {c.address ?? "—"}
            </span>
          </Field>
          <Field label={t("fields.txHash")}>
            {c.txHash && c.address ? (
              <Link className="link break-all font-mono text-xs" to={transactionHref(c.txHash)}>
                {c.txHash}
              </Link>
            ) : (
              <span className="break-all font-mono text-xs">{c.txHash ?? "—"}</span>
            )}
          </Field>
          <Field label={t("fields.block")}>
            {c.blockNumber === null ? "—" : c.blockNumber.toLocaleString(language)}
          </Field>
          <Field label={t("fields.gasUsed")}>
            {c.gasUsed === null ? "—" : BigInt(c.gasUsed).toLocaleString(language)}
          </Field>
          <Field label={t("fields.chainId")}>{c.chainId ?? "—"}</Field>
          <Field label={t("fields.account")}>
            {c.accountName} <span className="block break-all font-mono text-xs">{c.accountAddress}</span>
          </Field>
          <Field label={t("fields.sourceKind")}>
            {t(`sources.${c.sourceKind}`, { defaultValue: c.sourceKind })}
            {c.mainContract ? ` · ${c.mainContract}` : ""}
          </Field>
          <Field label={t("fields.compiler")}>{c.compiler ?? "—"}</Field>
          <Field label={t("fields.deployedAt")}>{c.deployedAt ? formatDate(c.deployedAt, language, true) : "—"}</Field>
        </dl>
        {c.constructorArgs.length > 0 ? (
          <div className="text-sm">
            <p className="font-medium">{t("fields.constructorArgs")}</p>
            <ol className="list-decimal pl-6 font-mono text-xs">
              {c.constructorArgs.map((a, i) => (
                <li key={i} className="break-all">
                  {a}
                </li>
              ))}
            </ol>
          </div>
        ) : null}
        {c.source ? (
          <details>
            <summary className="link cursor-pointer text-sm">{t("detail.showSource")}</summary>
            <pre className="mt-2 max-h-96 overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs" tabIndex={0}>
              {c.source}
            </pre>
          </details>
        ) : null}
      </section>
      {c.abi ? <AbiTables abi={c.abi} /> : null}
      {c.abi && c.status === ContractStatus.SUCCESS ? <ReadFunctions abi={c.abi} /> : null}
      {c.abi && c.status === ContractStatus.SUCCESS ? (
        <WriteFunctions abi={c.abi} accounts={accounts} projectId={c.projectId} written={written} />
      ) : null}
      {events ? <EventsTable page={events} language={language} /> : null}
    </div>
  );
}
