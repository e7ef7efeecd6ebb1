import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { prnTrySchema } from "#contract/dedicated-nodes.ts";
import { PrnStatus } from "#contract/dedicated-nodes-codes.ts";
import { Field, inLanguage } from "#app/components/details.tsx";
import { NodesChart, NodesTable } from "#app/components/dedicated-nodes/nodes.tsx";
import { TryIt, type TryAnswer } from "#app/components/dedicated-nodes/TryIt.tsx";
import { ProjectStatusBadge, frameworkLabel } from "#app/components/dedicated-nodes/badges.tsx";
import { PRN, caHref, checkHref, configHref } from "#app/lib/dedicated-nodes-urls.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { prnProjectIdParam } from "#app/lib/dedicated-nodes.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { intentOf } from "#app/lib/intents.server.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { useRefreshWhile } from "#app/lib/pending-refresh.ts";
import { siteOrigin } from "#app/lib/public-chain.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["dedicatedNodes", "dedicatedNodeRules", "services", "billing"],
  breadcrumb: [{ key: "titles.privatedNodes", to: PRN }, { key: "titles.privatedNodesCheck" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("privatedNodesCheck", (d: { project?: { name: string } }) => d.project?.name);

/**
 * While the project is being deployed, the page reads its data again every few seconds with JavaScript; without
 * it, Refresh does (no meta refresh: a page that reloads itself is an accessibility failure, axe meta-refresh).
 */
const deploying = (status: number) => status === PrnStatus.NOT_DEPLOYED || status === PrnStatus.DEPLOYING;

/**
 * A project's nodes (SPEC §2 PrivatedNodesCheck, §4 node component types): each node's type, status, endpoint
 * (absolute), block height, peer lag, requests per minute, data used and certificate, read live from the
 * provisioner when the page loads (Refresh reads again); a chart of heights, lag and requests with JavaScript,
 * the table always; the CA certificate; and "Try it", one JSON-RPC call through the gateway.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const prnProjectId = prnProjectIdParam(request);
  const project = await apiFor(request, viewer).load("/sys/prn/detail", { prnProjectId });
  return json({ project, origin: siteOrigin(request), language: viewer.language });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const prnProjectId = prnProjectIdParam(request);
  const formData = await request.formData();
  intentOf(formData, ["try"]);
  // The project is the page's: whatever the form says, the call goes to this one (the backend checks it is the caller's).
  formData.set("prnProjectId", String(prnProjectId));
  const submission = parseWithZod(formData, { schema: prnTrySchema });
  if (submission.status !== "success")
    return json({ result: submission.reply(), answer: null as TryAnswer | null }, { status: 400 });
  const result = await apiFor(request, viewer).call("/sys/prn/tryIt", submission.value);
  if (!result.ok)
    return json(
      { result: replyWithFailure(submission, result), answer: null as TryAnswer | null },
      { status: result.status === 404 ? 404 : formFailureStatus(result) },
    );
  return json({
    result: submission.reply({ hideFields: ["password"] }),
    answer: { status: result.data.status, body: result.data.body ?? null } as TryAnswer | null,
  });
}

export default function DedicatedNodeCheck() {
  const { project: p, origin, language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("dedicatedNodes");
  const here = checkHref(p.prnProjectId);
  const nodes = p.network?.nodes ?? [];
  useRefreshWhile(deploying(p.status));
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("check.title", { name: p.name })}
        actions={
          <>
            <div className="flex flex-wrap gap-2">
              <Link className="btn-secondary" to={here} data-testid="refresh">
                {t("check.refresh")}
              </Link>
              <Link className="btn-secondary" to={configHref(p.prnProjectId, p.name)}>
                {t("check.config")}
              </Link>
              {p.network ? (
                <Link className="btn-secondary" to={caHref(p.prnProjectId)} reloadDocument data-testid="download-ca">
                  {t("check.downloadCa")}
                </Link>
              ) : null}
            </div>
          </>
        }
      />
      <p className="text-sm text-slate-600">{t("check.intro")}</p>
      <p className="text-sm text-slate-600">{t("check.limitsNote")}</p>
      <section className="card">
        <dl className="grid gap-4 sm:grid-cols-4">
          <Field label={t("project.status")}>
            <ProjectStatusBadge status={p.status} />
            {p.failReason ? (
              <span className="mt-1 block text-xs text-red-700" data-testid="prn-reason">
                {t("list.reason", { reason: p.failReason })}
              </span>
            ) : null}
          </Field>
          <Field label={t("project.framework")}>
            {frameworkLabel(p.framework)} · {t(`consensus.${p.consensus}`, { defaultValue: p.consensus })}
          </Field>
          <Field label={t("project.cityNode")}>
            {inLanguage(p.regionName, p.regionNameZh, language)}{" "}
            <span className="text-xs text-slate-600">({p.cloud})</span>
          </Field>
          <Field label={t("project.nodeCount")}>
            <span data-testid="prn-peers">{p.nodeCount}</span>
          </Field>
          <Field label={t("check.chainId")}>
            {p.network ? (
              <span className="font-mono" data-testid="prn-chain-id">
                {p.network.chainId}
              </span>
            ) : (
              "—"
            )}
          </Field>
          <Field label={t("project.authorizedUser")}>
            <span className="font-mono">{p.authUser}</span>
          </Field>
          <Field label={t("project.periodEnd")}>{formatDate(p.periodEnd, language, true)}</Field>
          <Field label={t("check.gateway")}>
            <span className="break-all font-mono text-xs" data-testid="prn-gateway">{`${origin}${p.gatewayPath}`}</span>
          </Field>
        </dl>
      </section>
      <section className="space-y-3" aria-labelledby="prn-nodes">
        <h2 id="prn-nodes" className="text-lg font-semibold">
          {t("check.nodes")}
        </h2>
        {!p.network ? (
          <p className="card text-slate-600" data-testid="no-nodes">
            {p.status === PrnStatus.RUNNING ? t("check.noNodes") : t("check.notRunning")}
          </p>
        ) : (
          <>
            <NodesChart nodes={nodes} language={language} />
            <NodesTable nodes={nodes} origin={origin} language={language} />
          </>
        )}
      </section>
      {p.status === PrnStatus.RUNNING ? (
        <TryIt
          prnProjectId={p.prnProjectId}
          user={p.authUser}
          action={here}
          lastResult={actionData?.result}
          answer={actionData?.answer ?? null}
        />
      ) : null}
    </div>
  );
}
