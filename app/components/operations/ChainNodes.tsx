import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ChainNode, ChainOnNode } from "#contract/chain-nodes.ts";
import { formatDate } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";

/**
 * The operators' chain nodes page (docs/decisions/094 addendum): the configured nodes with what each reports, and
 * the chains with their node and where the mapping comes from. Plain tables: the same with and without JavaScript.
 */

/** What a node reports: its chain id and height, or "unreachable" with the reason in a title. */
function Report({ report }: { report: Pick<ChainNode, "chainId" | "height" | "unreachable"> }) {
  const { t } = useTranslation("chainNodes");
  if (report.unreachable)
    return (
      <span
        className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900"
        title={report.unreachable}
      >
        {t("nodes.unreachable")}
      </span>
    );
  return (
    <span className="font-mono tabular-nums">
      {report.chainId} · #{report.height}
    </span>
  );
}

export function NodesTable({ nodes }: { nodes: ChainNode[] }) {
  const { t } = useTranslation("chainNodes");
  return (
    <section aria-labelledby="nodes-title" className="space-y-2">
      <h3 id="nodes-title" className="font-semibold">
        {t("nodes.title")}
      </h3>
      <div className="card overflow-x-auto">
        <table className="w-full text-sm" data-testid="chain-nodes">
          <thead>
            <tr className="text-left text-slate-500">
              <th scope="col">{t("nodes.url")}</th>
              <th scope="col">{t("nodes.serves")}</th>
              <th scope="col">{t("chains.report")}</th>
            </tr>
          </thead>
          <tbody>
            {nodes.map((n) => (
              <tr key={n.url} className="border-t border-slate-100">
                <td className="font-mono">{n.url}</td>
                <td>{n.fileChains.map((c) => (c === "*" ? t("nodes.pool") : c)).join(", ")}</td>
                <td>
                  <Report report={n} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Source({ chain, language }: { chain: ChainOnNode; language: Language }) {
  const { t } = useTranslation("chainNodes");
  const text =
    chain.source === "operator"
      ? t("sources.operator", { name: chain.setBy ?? "", at: chain.setAt ? formatDate(chain.setAt, language) : "" })
      : t(`sources.${chain.source}`);
  return (
    <span data-testid={`source-${chain.name}`} data-source={chain.source}>
      {text}
      {chain.unconfiguredUrl ? (
        <span className="block text-xs text-amber-800">
          {t("sources.unconfigured", { url: chain.unconfiguredUrl })}
        </span>
      ) : null}
    </span>
  );
}

export function ChainsTable({ chains, language }: { chains: ChainOnNode[]; language: Language }) {
  const { t } = useTranslation("chainNodes");
  return (
    <section aria-labelledby="chains-title" className="space-y-2">
      <h3 id="chains-title" className="font-semibold">
        {t("chains.title")}
      </h3>
      {chains.length === 0 ? (
        <p className="text-sm text-slate-600">{t("chains.empty")}</p>
      ) : (
        <div className="card overflow-x-auto">
          <table className="w-full text-sm" data-testid="chains-on-nodes">
            <thead>
              <tr className="text-left text-slate-500">
                <th scope="col">{t("chains.name")}</th>
                <th scope="col">{t("chains.purpose")}</th>
                <th scope="col">{t("chains.node")}</th>
                <th scope="col">{t("chains.report")}</th>
                <th scope="col">{t("chains.source")}</th>
                <th scope="col">
                  <span className="sr-only">{t("chains.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {chains.map((c) => (
                <tr key={c.name} className="border-t border-slate-100" data-testid={`chain-${c.name}`}>
                  <td className="font-mono">{c.name}</td>
                  <td>{t(`purposes.${c.purpose}`, { defaultValue: c.purpose })}</td>
                  <td className="font-mono" data-testid={`node-${c.name}`}>
                    {c.nodeUrl}
                  </td>
                  <td>
                    <Report report={c} />
                  </td>
                  <td>
                    <Source chain={c} language={language} />
                  </td>
                  <td>
                    <Link
                      to={`?move=${encodeURIComponent(c.name)}`}
                      className="link"
                      aria-label={t("chains.moveLabel", { name: c.name })}
                    >
                      {t("chains.move")}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
