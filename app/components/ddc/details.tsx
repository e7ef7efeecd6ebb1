import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DdcStatus } from "#contract/ddc-codes.ts";
import { Table, td } from "#app/components/Table.tsx";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";

/** Shared UI of the DDC pages (docs/decisions/045). */

export function DdcStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("ddc");
  const tone =
    status === DdcStatus.MINTED
      ? "bg-emerald-100 text-emerald-800"
      : status === DdcStatus.FAILED
        ? "bg-red-100 text-red-800"
        : "bg-amber-100 text-amber-800";
  return (
    <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${tone}`} data-testid="ddc-status">
      {t(`status.${status}`, { defaultValue: String(status) })}
    </span>
  );
}

export type DdcEvent = { from: string; to: string; txHash: string; blockNumber: number; at: string | null };
const ZERO = "0x0000000000000000000000000000000000000000";

/**
 * The on-chain history: the Transfer events, the mint first. A table from the small breakpoint up; on a phone each
 * event is a card of its own (issue 30 item 12), where an address has the screen's width instead of a squeezed
 * column's.
 */
export function HistoryTable({ history, language }: { history: DdcEvent[]; language: Language }) {
  const { t } = useTranslation("ddc");
  if (!history.length) return <p className="text-sm text-slate-600">{t("history.empty")}</p>;
  const kind = (h: DdcEvent) => (h.from === ZERO ? t("history.mint") : t("history.transfer"));
  return (
    <>
      <ol className="space-y-3 sm:hidden" aria-label={t("history.title")} data-testid="ddc-history-cards">
        {history.map((h) => (
          <li key={`${h.txHash}-${h.to}`} className="card text-sm" data-testid="ddc-history-card">
            <p className="font-semibold">
              {kind(h)} · {formatDate(h.at, language, true)}
            </p>
            <dl className="mt-2 space-y-1">
              {h.from === ZERO ? null : <CardField label={t("history.from")} value={h.from} />}
              <CardField label={t("history.to")} value={h.to} />
              <CardField label={t("history.block")} value={String(h.blockNumber)} />
              <CardField label={t("history.tx")} value={h.txHash} />
            </dl>
          </li>
        ))}
      </ol>
      <div className="hidden sm:block">
        <Table
          label={t("history.title")}
          regionTestId="ddc-history"
          head={[
            t("history.event"),
            t("history.from"),
            t("history.to"),
            t("history.block"),
            t("history.tx"),
            zoneHeader(t, t("history.at")),
          ]}
        >
          {history.map((h) => (
            <tr key={`${h.txHash}-${h.to}`} data-testid="ddc-history-row">
              <td className={td}>{kind(h)}</td>
              <td className={`${td} break-all font-mono text-xs`}>{h.from === ZERO ? "—" : h.from}</td>
              <td className={`${td} break-all font-mono text-xs`}>{h.to}</td>
              <td className={`${td} tabular-nums`}>{h.blockNumber}</td>
              <td className={`${td} break-all font-mono text-xs`}>{h.txHash}</td>
              <td className={td}>{formatDate(h.at, language, true, false)}</td>
            </tr>
          ))}
        </Table>
      </div>
    </>
  );
}

function CardField({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="break-all font-mono text-xs">{value}</dd>
    </div>
  );
}

/** The metadata entries as a definition list. */
export function MetadataList({ metadata }: { metadata: { key: string; value: string }[] }) {
  const { t } = useTranslation("ddc");
  if (!metadata.length) return <p className="text-sm text-slate-600">{t("fields.noMetadata")}</p>;
  return (
    <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]" data-testid="ddc-metadata">
      {metadata.map((m) => (
        <div key={m.key} className="contents">
          <dt className="font-medium text-slate-700">{m.key}</dt>
          <dd className="break-words text-slate-900">{m.value || "—"}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The DDC vault document (SPEC §9 static document links). */
export function VaultLink({ href }: { href: string }) {
  const { t } = useTranslation("ddc");
  const external = /^https?:\/\//.test(href);
  return external ? (
    <a className="link text-sm" href={href} target="_blank" rel="noopener" data-testid="ddc-vault-link">
      {t("vault")}
    </a>
  ) : (
    <Link className="link text-sm" to={href} data-testid="ddc-vault-link">
      {t("vault")}
    </Link>
  );
}
