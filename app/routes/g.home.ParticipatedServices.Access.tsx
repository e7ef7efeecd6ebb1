import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CertificateDownloads } from "#app/components/participation/CertificateDownloads.tsx";
import { ServiceChainPanel } from "#app/components/services/ServiceChain.tsx";
import { Field, nodeLabel } from "#app/components/details.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { apiFor, failureResponse, requireUser } from "#app/lib/api.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { requiredId } from "#app/lib/params.server.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["participation", "services"],
  breadcrumb: [
    { key: "menu.participatedServices", to: "/g/home/ParticipatedServices" },
    { key: "titles.participatedAccess" },
  ],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("participatedAccess");

/**
 * SPEC §2 ParticipatedServices/Access (appId): the access parameters of the caller's participation (§7
 * getJoinParamList: gateway per city node, user code, app code, certificate download), shown only when the
 * audit is approved and verState is not 30 or 35 (§4).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const appId = requiredId(new URL(request.url), "appId");
  const api = apiFor(request, viewer);
  const view = await api.load("/sys/chainAppInfo/view", { appId });
  const p = view.participation;
  if (!p) return json({ state: "none" as const, name: view.name, params: null, language: viewer.language });
  if (!p.accessAllowed)
    return json({ state: "unavailable" as const, name: view.name, params: null, language: viewer.language });
  const result = await api.call("/sys/chainAppInfo/getJoinParamList", { appJoinAuditId: p.appJoinAuditId });
  if (!result.ok) {
    if (result.status >= 500) throw failureResponse(result);
    return json({ state: "unavailable" as const, name: view.name, params: null, language: viewer.language });
  }
  return json({
    state: "ok" as const,
    name: view.name,
    appJoinAuditId: p.appJoinAuditId,
    params: result.data,
    origin: new URL(request.url).origin,
    language: viewer.language,
  });
}

export default function Access() {
  const data = useLoaderData<typeof loader>();
  const { state, name, params, language } = data;
  const { t } = useTranslation("participation");
  return (
    <div className="space-y-4">
      <PageHeader
        title={
          <>
            {t("access.title")} · {name}
          </>
        }
      />
      {state !== "ok" || !params ? (
        <p className="card text-sm text-slate-600" data-testid="access-unavailable">
          {state === "none" ? t("access.none") : t("access.notAvailable")}
        </p>
      ) : (
        <>
          <section className="card" data-testid="access-params">
            <dl className="grid gap-3 sm:grid-cols-3">
              <Field label={t("access.appCode")}>
                <span className="font-mono">{params.appCode}</span>
              </Field>
              <Field label={t("access.userCode")}>
                <span className="font-mono" data-testid="user-code">
                  {params.userCode}
                </span>
              </Field>
              <Field label={t("access.role")}>{params.roleName}</Field>
            </dl>
          </section>
          <h2 className="font-semibold">{t("access.gateways")}</h2>
          <Table label={t("access.gateways")} head={[t("access.node"), t("access.gateway")]} regionTestId="gateways">
            {params.gateways.map((g) => (
              <tr key={g.cityNodeId}>
                <td className={td}>{nodeLabel(g, language)}</td>
                <td className={`${td} break-all font-mono text-xs`}>
                  {g.gatewayUrl ?? (
                    <span className="font-sans text-slate-500" data-testid="gateway-unavailable">
                      {t("access.gatewayNotAvailable")}
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </Table>
          {"appJoinAuditId" in data ? (
            <section className="card space-y-2" data-testid="access-kit">
              <a
                href={`/g/home/ParticipatedServices/AccessKit?appJoinAuditId=${data.appJoinAuditId}`}
                download
                className="btn-secondary text-sm"
                data-testid="download-access-kit"
              >
                {t("access.kit")}
              </a>
              <p className="text-xs text-slate-600">{t("access.kitHint")}</p>
            </section>
          ) : null}
          {params.chain && "origin" in data ? <ServiceChainPanel chain={params.chain} origin={data.origin} /> : null}
          {params.certificate ? (
            <section className="card space-y-2">
              <h2 className="font-semibold">{t("access.certificate")}</h2>
              <p className="text-sm">
                <span className="font-mono text-xs">{params.certificate.subject}</span> · {t("certs.expiry")}:{" "}
                {formatDate(params.certificate.notAfter, language)}
              </p>
              <CertificateDownloads c={params.certificate} />
            </section>
          ) : null}
        </>
      )}
    </div>
  );
}
