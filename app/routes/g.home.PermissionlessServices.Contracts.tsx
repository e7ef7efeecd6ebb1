import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { constructorArgsOfText, contractDeployFormSchema } from "#contract/contracts.ts";
import { KeyType } from "#contract/public-chain-codes.ts";
import { RecordTable } from "#app/components/RecordTable.tsx";
import { DeployForm } from "#app/components/public-chain/DeployForm.tsx";
import { PC, contractHref, contractsHref, projectHref } from "#app/lib/public-chain-urls.ts";
import { ContractStatusBadge, isUnderWay, useRefreshWhile } from "#app/components/public-chain/contracts.tsx";
import { apiFor, redirectAfter, requireUser } from "#app/lib/api.server.ts";
import { replyWithFailure } from "#app/lib/forms.server.ts";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import { intentOf, parseFormOr400 } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { pageParam } from "#app/lib/params.ts";
import { idParam } from "#app/lib/public-chain.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { ContractStatus } from "#contract/contracts-codes.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["publicChain", "contracts"],
  breadcrumb: [
    { key: "menu.permissionlessServices", to: PC },
    { key: "titles.publicChainHome", to: `${PC}/Home` },
    { key: "titles.publicChainContracts" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("publicChainContracts", (d: { project?: { name: string } }) => d.project?.name);

const PAGE_SIZE = 10;
const INTENTS = ["deploy", "redeploy"] as const;

/**
 * SPEC §2 contract management of an open-alliance project, §4 Contract deployment (0 pending, 1 deploying,
 * 2 success, 3 failed with its reason; one at a time per project), §5 Contract name: the project's contracts
 * and the form that deploys one from a custody chain account, from Solidity source or an ABI and bytecode.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const projectId = idParam(request, "projectId");
  const api = apiFor(request, viewer);
  const [project, contracts, accounts] = await Promise.all([
    api.load("/sys/opc/project/detail", { projectId }),
    api.load("/sys/opc/contract/list", { projectId, pageIndex: pageParam(new URL(request.url)), pageSize: PAGE_SIZE }),
    api.load("/sys/opc/account/list", { projectId, pageIndex: 1, pageSize: 50 }),
  ]);
  const custody = accounts.page.rows
    .filter((a) => a.keyType === KeyType.CUSTODY)
    .map((a) => ({ accountId: a.accountId, name: a.name, address: a.address, gasWei: a.gasWei }));
  return json({ project, page: contracts.page, busy: contracts.busy, accounts: custody, language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const projectId = idParam(request, "projectId");
  const formData = await request.formData();
  const intent = intentOf(formData, INTENTS);
  const api = apiFor(request, viewer);
  const url = new URL(request.url);
  const here = url.pathname + url.search;
  if (intent === "redeploy") {
    const { contractId } = parseFormOr400(z.object({ contractId: z.coerce.number().int().positive() }), formData);
    return redirectAfter(
      request,
      await api.call("/sys/opc/contract/redeploy", { contractId }),
      here,
      "contracts:flash.redeploying",
    );
  }
  formData.set("projectId", String(projectId));
  const submission = parseWithZod(formData, { schema: contractDeployFormSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const { constructorArgsText, ...fields } = submission.value;
  const result = await api.call("/sys/opc/contract/create", {
    ...fields,
    constructorArgs: constructorArgsOfText(constructorArgsText),
  });
  if (!result.ok) {
    // The constructor's arguments are one field of the form.
    const failure = {
      ...result,
      fieldErrors: Object.fromEntries(
        Object.entries(result.fieldErrors).map(([k, v]) => [
          k.startsWith("constructorArgs") ? "constructorArgsText" : k,
          v,
        ]),
      ),
    };
    return json({ result: replyWithFailure(submission, failure) }, { status: result.status === 404 ? 404 : 400 });
  }
  return redirectWithFlash(request, contractsHref(projectId), {
    kind: "success",
    key: "contracts:flash.queued",
    params: { name: result.data.name },
  });
}

export default function Contracts() {
  const { project, page, busy, accounts, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("contracts");
  const location = useLocation();
  useRefreshWhile(page.rows.some((c) => isUnderWay(c.status)));
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("list.title", { name: project.name })}
        actions={
          <>
            <Link className="btn-secondary" to={projectHref(project.projectId)}>
              {t("list.backToProject")}
            </Link>
          </>
        }
      />
      <section className="space-y-3" aria-labelledby="contracts-heading">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="contracts-heading" className="text-lg font-semibold">
            {t("list.heading")}
          </h2>
          {busy ? (
            <Link className="link text-sm" to={location.pathname + location.search} data-testid="refresh">
              {t("list.refresh")}
            </Link>
          ) : null}
        </div>
        <RecordTable
          label={t("list.heading")}
          page={page}
          rowKey={(c) => c.contractId}
          rowTestId="contract-row"
          empty={t("list.empty")}
          emptyTestId="empty"
          columns={[
            {
              header: t("fields.name"),
              cell: (c) => (
                <>
                  <Link className="link font-medium" to={contractHref(c.contractId)}>
                    {c.name}
                  </Link>
                  {c.failReason ? (
                    <p
                      className="mt-1 max-w-md whitespace-pre-wrap break-words text-xs text-red-700"
                      data-testid="fail-reason"
                    >
                      {c.failReason}
                    </p>
                  ) : null}
                </>
              ),
            },
            { header: t("fields.status"), cell: (c) => <ContractStatusBadge status={c.status} /> },
            {
              header: t("fields.address"),
              cell: (c) => (
                <span className="break-all font-mono text-xs" data-testid="contract-address">
                  {c.address ?? "—"}
                </span>
              ),
            },
            {
              header: t("fields.block"),
              cell: (c) => (c.blockNumber === null ? "—" : c.blockNumber.toLocaleString(language)),
            },
            { header: t("fields.account"), cell: (c) => c.accountName },
            { header: zoneHeader(t, t("fields.created")), cell: (c) => formatDate(c.createdAt, language, true, false) },
            {
              header: t("fields.actions"),
              cell: (c) => (
                <div className="flex flex-wrap gap-3">
                  <Link
                    className="link"
                    to={contractHref(c.contractId)}
                    aria-label={t("list.openNamed", { name: c.name })}
                  >
                    {t("list.open")}
                  </Link>
                  {c.status === ContractStatus.FAILED ? (
                    <Form method="post" action={location.pathname + location.search}>
                      <input type="hidden" name="contractId" value={c.contractId} />
                      <button
                        type="submit"
                        name="intent"
                        value="redeploy"
                        className="link"
                        disabled={busy}
                        aria-label={t("list.redeployNamed", { name: c.name })}
                      >
                        {t("list.redeploy")}
                      </button>
                    </Form>
                  ) : null}
                </div>
              ),
            },
          ]}
        />
      </section>
      <DeployForm projectId={project.projectId} busy={busy} accounts={accounts} />
    </div>
  );
}
