import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field } from "#app/components/details.tsx";
import { CallStatusBadge } from "#app/components/cross-chain/badges.tsx";
import { CROSS_CHAIN_INDEX, crossDetailHref } from "#app/lib/cross-chain-urls.ts";
import { PageHeader } from "#app/components/PageHeader.tsx";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { callOf } from "#app/lib/cross-chain.server.ts";
import { formatDate, formatUsd } from "#app/lib/format.ts";
import { pageTitle } from "#app/lib/meta.ts";
import { requiredId } from "#app/lib/params.server.ts";
import { withNamespaces } from "#app/lib/namespaces.ts";

export const handle = {
  i18n: ["crossChain", "services"],
  breadcrumb: [{ key: "titles.crossChain", to: CROSS_CHAIN_INDEX }, { key: "titles.crossChainDetailView" }],
};
export const clientLoader = withNamespaces(handle);
export const meta = pageTitle("crossChainDetailView", (d) => (d?.call ? `#${d.call.sequence}` : null));

/**
 * SPEC §2 CrossChainService/CrossChainDetailView (appId, callId; docs: the call is read within its service, so a
 * call of another user's service is a 404 like the service): one call record in full, with both transactions,
 * the receiving contract, the attempts and the failure reason.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const appId = requiredId(url, "appId");
  const callId = requiredId(url, "callId");
  const api = apiFor(request, viewer);
  const detail = await api.load("/sys/crossChain/detail", { appId });
  const call = await callOf(api, appId, callId);
  return json({
    call,
    service: { appId: detail.appId, name: detail.name, appCode: detail.appCode },
    language: viewer.language,
  });
}

export default function CrossChainCall() {
  const { call, service, language } = useLoaderData<typeof loader>();
  const { t } = useTranslation("crossChain");
  const hex = (v: string | null, testId: string) =>
    v ? (
      <span className="break-all font-mono text-xs" data-testid={testId}>
        {v}
      </span>
    ) : (
      "—"
    );
  return (
    <div className="max-w-4xl space-y-4">
      <Link to={crossDetailHref(service.appId)} className="link text-sm">
        ← {t("view.back")}
      </Link>
      <PageHeader title={`${t("view.title")} #${call.sequence}`} badges={<CallStatusBadge status={call.status} />} />
      <dl className="card grid gap-4 sm:grid-cols-2" data-testid="call-detail">
        <Field label={t("view.service")}>
          {service.name} <span className="font-mono text-xs text-slate-600">{service.appCode}</span>
        </Field>
        <Field label={t("detail.protocol")}>{t(`protocols.${call.protocol}.name`)}</Field>
        <Field label={t("view.kind")}>{t(`send.kinds.${call.kind}`)}</Field>
        <Field label={t("view.sequence")}>{call.sequence}</Field>
        <Field label={t("detail.time")}>{formatDate(call.createdAt, language, true)}</Field>
        <Field label={t("view.deliveredAt")}>
          {call.deliveredAt ? formatDate(call.deliveredAt, language, true) : "—"}
        </Field>
        <Field label={t("detail.source")}>
          <span className="font-mono text-xs">
            {call.sourceChain} · #{call.sourceChainId}
          </span>
        </Field>
        <Field label={t("detail.target")}>
          <span className="font-mono text-xs">
            {call.targetChain} · #{call.targetChainId}
          </span>
        </Field>
        <Field label={t("detail.sourceTx")}>{hex(call.sourceTxHash, "source-tx")}</Field>
        <Field label={t("detail.targetTx")}>{hex(call.targetTxHash, "target-tx")}</Field>
        <Field label={t("view.targetAddress")}>{hex(call.targetAddress, "target-address")}</Field>
        <Field label={t("detail.fee")}>{formatUsd(call.feeCents, language)}</Field>
        <Field label={t("view.attempts")}>{call.attempts}</Field>
        <Field label={t("detail.reason")}>
          {call.reason ? (
            <span className="break-words text-red-700" data-testid="call-reason">
              {call.reason}
            </span>
          ) : (
            "—"
          )}
        </Field>
      </dl>
    </div>
  );
}
