import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { AlertFiring, AlertKind } from "#contract/alerts.ts";
import { RecordTable, type Column } from "#app/components/RecordTable.tsx";
import { formatDate, formatNumber, formatSize, formatUsd, zoneHeader } from "#app/lib/format.ts";

type Language = "en" | "zh-CN";
type Page<Row> = { rows: Row[]; pageIndex: number; pageSize: number; total: number };

/** Where each alert is acted on (issue 35 §1: "with a link to the page that acts on it"). */
const ACT: Record<AlertKind, (id: number) => string> = {
  budget: () => "/g/home/userCenter/MyBills",
  balance: () => "/g/home/userCenter/MyAccount/Recharge",
  requests: (id) => `/g/home/PermissionlessServices/Project?projectId=${id}`,
  gas: (id) => `/g/home/PermissionlessServices/Account?accountId=${id}`,
  ipfsCapacity: (id) => `/g/home/IPFS/Service?ipfsServiceId=${id}`,
  ipfsTraffic: (id) => `/g/home/IPFS/Service?ipfsServiceId=${id}`,
  nodeEnd: (id) => `/g/home/PrivatedNodesCheck?prnProjectId=${id}`,
  serviceEnd: (id) => `/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${id}`,
};

/**
 * The alerts told to the account (docs/decisions/087, 090), newest first: what and when, the figure then against its
 * limit in the kind's unit (money as the rest of the page shows it), and the page that acts on it.
 */
export function AlertHistory({
  history,
  opened,
  language,
}: {
  history: Page<AlertFiring>;
  opened: number | null;
  language: Language;
}) {
  const { t } = useTranslation("alerts");
  const figure = (a: AlertFiring, n: number) => {
    switch (a.kind) {
      case "budget":
      case "balance":
        return formatUsd(n, language);
      case "requests":
        return t("history.units.requests", { count: n, n: formatNumber(n, language) });
      case "ipfsCapacity":
      case "ipfsTraffic":
        return formatSize(n);
      case "gas":
        return t("history.units.gas", { gas: formatNumber(n / 1e9, language) });
      default:
        return t("history.units.days", { count: n });
    }
  };
  const columns: Column<AlertFiring>[] = [
    {
      header: zoneHeader(t, t("history.columns.at")),
      cell: (a) => formatDate(a.firedAt, language, true, false),
      className: "whitespace-nowrap",
    },
    {
      header: t("history.columns.alert"),
      cell: (a) =>
        t(`history.kinds.${a.kind}`, {
          threshold: a.threshold,
          count: a.threshold,
          period: a.period,
          name: a.subjectName,
        }),
      cellTestId: "alert-kind",
    },
    { header: t("history.columns.value"), cell: (a) => figure(a, a.valueCents), numeric: true },
    { header: t("history.columns.limit"), cell: (a) => figure(a, a.limitCents), numeric: true },
    {
      header: <span className="sr-only">{t("history.columns.act")}</span>,
      cell: (a) => (
        <Link to={ACT[a.kind](a.subjectId)} className="link">
          {t(`history.act.${a.kind}`)}
        </Link>
      ),
    },
  ];
  return (
    <section aria-labelledby="alerts-history" className="space-y-2">
      <h2 id="alerts-history" className="text-lg font-semibold">
        {t("history.title")}
      </h2>
      <RecordTable
        label={t("history.title")}
        page={history}
        columns={columns}
        rowKey={(a) => a.id}
        rowTestId="alert-row"
        rowProps={(a) => ({ "aria-selected": a.id === opened })}
        empty={t("history.empty")}
        emptyTestId="alerts-empty"
      />
    </section>
  );
}
