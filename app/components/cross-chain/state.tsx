import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { crossDetailSchema } from "#contract/cross-chain.ts";
import { Field } from "#app/components/details.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { CrossStatusBadge } from "./badges.tsx";
import { canReopen } from "#app/lib/cross-chain-rules.ts";
import { crossDetailHref, dredgeHref } from "#app/lib/cross-chain-urls.ts";
import { CallsTable } from "./calls.tsx";
import { CrossStatus } from "#contract/cross-chain-codes.ts";

export type CrossDetail = z.infer<typeof crossDetailSchema>;

/**
 * The live cross-chain state of a service (CrossChainDetail and the service detail's cross-chain info tab):
 * protocol, status, its chain, the relayer account, the calls counted, and the message contracts on each chain.
 */
export function CrossStatePanel({ detail, language }: { detail: CrossDetail; language: Language }) {
  const { t } = useTranslation("crossChain");
  const n = (v: number) => v.toLocaleString(language);
  return (
    <section className="space-y-3" aria-labelledby="cross-state">
      <h2 id="cross-state" className="text-lg font-semibold">
        {t("detail.state")}
      </h2>
      <dl className="card grid gap-4 sm:grid-cols-3" data-testid="cross-state">
        <Field label={t("detail.status")}>
          <CrossStatusBadge status={detail.crossStatus} />
        </Field>
        <Field label={t("detail.protocol")}>
          {detail.protocol ? t(`protocols.${detail.protocol}.name`) : "—"}
          {detail.crossAppCode ? <span className="block font-mono text-xs">{detail.crossAppCode}</span> : null}
        </Field>
        <Field label={t("detail.chain")}>
          {detail.chainName ? (
            <span className="font-mono text-xs">
              {detail.chainName}
              {detail.chainId !== null ? ` · #${detail.chainId}` : ""}
            </span>
          ) : (
            t("index.noChain")
          )}
        </Field>
        <Field label={t("detail.relayer")}>
          <span className="break-all font-mono text-xs" data-testid="relayer">
            {detail.relayerAddress ?? "—"}
          </span>
        </Field>
        <Field label={t("detail.sender")}>
          <span className="break-all font-mono text-xs">{detail.senderAddress ?? "—"}</span>
        </Field>
        <Field label={t("detail.calls")}>
          <span data-testid="cross-counts">
            {t("detail.totals", {
              count: detail.counts.total,
              total: n(detail.counts.total),
              success: n(detail.counts.success),
              failure: n(detail.counts.failure),
            })}
          </span>
          <span className="block text-xs text-slate-600">
            {t("detail.unitPrice", { price: formatUsd(detail.unitPriceCents, language) })}
          </span>
        </Field>
      </dl>
      {detail.contracts.length > 0 ? (
        <>
          <h3 className="font-semibold">{t("detail.contracts")}</h3>
          <Table
            label={t("detail.contracts")}
            regionTestId="cross-contracts"
            head={[t("detail.chain"), t("detail.chainId"), t("detail.role"), t("detail.address")]}
          >
            {detail.contracts.map((c) => (
              <tr key={`${c.chainName}-${c.role}`} data-testid="cross-contract">
                <td className={`${td} font-mono text-xs`}>{c.chainName}</td>
                <td className={`${td} tabular-nums`}>{c.chainId}</td>
                <td className={td}>{t(`detail.roles.${c.role}`)}</td>
                <td className={`${td} break-all font-mono text-xs`}>{c.address}</td>
              </tr>
            ))}
          </Table>
        </>
      ) : null}
    </section>
  );
}

/**
 * The service detail's "cross-chain info" tab (SPEC §2): the live state and the latest calls, with the way to
 * every call and its filters (CrossChainDetail), or to open the service when it is not open.
 */
export function CrossChainTab({ detail, language }: { detail: CrossDetail; language: Language }) {
  const { t } = useTranslation("crossChain");
  const opened = detail.protocol !== null && detail.crossStatus !== CrossStatus.CLOSED;
  return (
    <div className="space-y-4" data-testid="cross-chain-tab">
      {opened ? (
        <CrossStatePanel detail={detail} language={language} />
      ) : (
        <p className="card text-sm text-slate-600">{t("tab.none")}</p>
      )}
      {opened ? (
        <section className="space-y-2" aria-labelledby="cross-recent">
          <h2 id="cross-recent" className="text-lg font-semibold">
            {t("tab.recent")}
          </h2>
          {detail.recentCalls.length === 0 ? (
            <p className="text-sm text-slate-600">{t("detail.callsEmpty")}</p>
          ) : (
            <CallsTable rows={detail.recentCalls} language={language} testId="recent-calls" />
          )}
        </section>
      ) : null}
      <p className="flex flex-wrap gap-3 text-sm">
        {opened ? (
          <Link className="btn-secondary" to={crossDetailHref(detail.appId)}>
            {t("tab.all")}
          </Link>
        ) : null}
        {canReopen(detail.crossStatus) ? (
          <Link className="btn-primary" to={dredgeHref(detail.appId)}>
            {t("tab.open")}
          </Link>
        ) : null}
      </p>
    </div>
  );
}
