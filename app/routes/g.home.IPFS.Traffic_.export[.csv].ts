import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { utc8Day } from "#app/lib/bills.ts";
import { csvNumber, csvResponse } from "#app/lib/csv.server.ts";
import { inLanguage } from "#app/lib/i18n.ts";
import { fixedT } from "#app/lib/i18n.server.ts";
import { serviceIdParam } from "#app/lib/ipfs.server.ts";

/**
 * An IPFS service's download traffic as CSV (issue 35 §3, docs/decisions/093): what its page charts and tabulates,
 * the bytes each city node gateway served per UTC+8 day over the last 30 days (days without traffic are absent, as
 * in the backend's answer), with the gateway's price. The page's own path answers every row (30 days × gateways),
 * so there is no export path of its own; another account's service is not found, like on the page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const ipfsServiceId = serviceIdParam(request);
  const traffic = await apiFor(request, viewer).load("/sys/ipfsBusiness/ipfs/traffic", { ipfsServiceId });
  const t = fixedT(viewer.language, "ipfs");
  const gateways = new Map(traffic.gateways.map((g) => [g.orgCode, g]));
  const rows = traffic.rows.map((r) => {
    const g = gateways.get(r.orgCode);
    return [
      r.day,
      g ? inLanguage(g.orgName, g.orgNameZh, viewer.language) : r.orgCode,
      g ? csvNumber((g.flowPriceCents / 100).toFixed(2)) : "",
      csvNumber(r.bytes),
    ];
  });
  const columns = ["day", "node", "price", "bytes"] as const;
  return csvResponse([columns.map((c) => t(`traffic.csv.${c}`)), ...rows], {
    asciiName: "ipfs-traffic",
    localName: t("traffic.csv.fileName"),
    day: utc8Day(new Date()),
    total: rows.length,
    truncated: false,
  });
}
