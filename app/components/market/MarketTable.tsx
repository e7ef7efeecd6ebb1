import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { MarketPackage } from "#contract/market.ts";
import { formatNumber } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { marketDownloadUrl, marketPackageUrl, newServiceUrl } from "#app/lib/market.ts";
import { Table } from "#app/components/Table.tsx";

/** The market's packages: name, language, version, description (in the reader's language), downloads, actions. */
export function MarketTable({ rows, language }: { rows: MarketPackage[]; language: Language }) {
  const { t } = useTranslation("market");
  return (
    <Table
      label={t("title")}
      testId="market-table"
      head={[
        t("table.name"),
        t("table.language"),
        t("table.version"),
        t("table.description"),
        { header: t("table.downloads"), numeric: true },
        t("table.actions"),
      ]}
    >
      {rows.map((p) => (
        <tr key={p.marketPackageId} data-testid="market-row">
          <th scope="row" className="px-3 py-2 font-mono font-medium">
            {p.name}
          </th>
          <td className="px-3 py-2">{t(`languages.${p.language}`)}</td>
          <td className="px-3 py-2">{p.version}</td>
          <td className="max-w-md px-3 py-2">{language === "zh-CN" ? p.descriptionZh : p.descriptionEn}</td>
          <td className="px-3 py-2 text-right tabular-nums" data-testid="downloads">
            {formatNumber(p.downloads, language)}
          </td>
          <td className="px-3 py-2">
            <div className="flex flex-wrap gap-2">
              <a
                className="link"
                href={marketDownloadUrl(p.marketPackageId)}
                download
                aria-label={t("download", { name: p.name })}
              >
                {t("actions.download")}
              </a>
              <Link className="link" to={marketPackageUrl(p.marketPackageId)} aria-label={t("files", { name: p.name })}>
                {t("actions.files")}
              </Link>
              <Link className="link" to={newServiceUrl(p.marketPackageId)} aria-label={t("use", { name: p.name })}>
                {t("actions.use")}
              </Link>
            </div>
          </td>
        </tr>
      ))}
    </Table>
  );
}
