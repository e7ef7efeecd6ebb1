import { useTranslation } from "react-i18next";
import type { DataOf } from "#contract/paths.ts";
import { inLanguage } from "#app/components/details.tsx";
import { Table, td } from "#app/components/Table.tsx";
import { formatUsd } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { formatBytes } from "#app/lib/format-number.ts";

/** My account's "IPFS data usage by city node gateway" (SPEC §2): bytes served per gateway over 30 days. */
export function IpfsUsageByGateway({
  usage,
  language,
}: {
  usage: DataOf<"/sys/ipfsBusiness/ipfs/usageByGateway">;
  language: Language;
}) {
  const { t } = useTranslation("ipfs");
  return (
    <section aria-labelledby="ipfs-usage-title" className="card space-y-3" data-testid="ipfs-usage">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="ipfs-usage-title" className="font-semibold">
          {t("usage.title")}
        </h2>
        <p className="text-sm text-slate-600" data-testid="ipfs-usage-total">
          {t("usage.total", { total: formatBytes(usage.totalBytes) })}
        </p>
      </div>
      <p className="text-sm text-slate-500">{t("usage.intro", { days: usage.days })}</p>
      {usage.rows.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="ipfs-usage-empty">
          {t("usage.none", { days: usage.days })}
        </p>
      ) : (
        <Table
          label={t("usage.title")}
          head={[t("usage.gateway"), t("usage.price"), t("usage.services"), t("usage.served")]}
        >
          {usage.rows.map((r) => (
            <tr key={r.orgCode} data-testid="ipfs-usage-row">
              <td className={td}>{inLanguage(r.orgName, r.orgNameZh, language)}</td>
              <td className={`${td} tabular-nums`}>
                {t("create.trafficPrice", { price: formatUsd(r.flowPriceCents, language) })}
              </td>
              <td className={`${td} tabular-nums`}>{r.services}</td>
              <td className={`${td} tabular-nums`}>{formatBytes(r.bytes)}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
