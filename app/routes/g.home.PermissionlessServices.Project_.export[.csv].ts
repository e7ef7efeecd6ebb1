import type { LoaderFunctionArgs } from "@remix-run/node";
import { STATS_RANGES } from "#contract/public-chain-codes.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { utc8Day } from "#app/lib/bills.ts";
import { csvNumber, csvResponse } from "#app/lib/csv.server.ts";
import { fixedT } from "#app/lib/i18n.server.ts";
import { oneOf } from "#app/lib/params.ts";
import { idParam } from "#app/lib/public-chain.server.ts";

const RANGES = Object.keys(STATS_RANGES) as (keyof typeof STATS_RANGES)[];

/**
 * A public-chain project's RPC usage by method as CSV (issue 35 §3, docs/decisions/093): the plan statistics the
 * project page charts for its period (7 days, 1 month, 3 months), one row per UTC+8 day and JSON-RPC method with
 * the requests counted (§9) and the calls made. The page's own path answers every row, so there is no export path
 * of its own; another account's project is not found, like on the page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const projectId = idParam(request, "projectId");
  const range = oneOf(RANGES, new URL(request.url).searchParams.get("range")) ?? "7d";
  const stats = await apiFor(request, viewer).load("/sys/opc/project/stats", { projectId, range });
  const t = fixedT(viewer.language, "publicChain");
  const rows = stats.rows.map((r) => [r.day, r.method, csvNumber(r.requests), csvNumber(r.calls)]);
  const columns = ["day", "method", "requests", "calls"] as const;
  return csvResponse([columns.map((c) => t(`stats.csv.${c}`)), ...rows], {
    asciiName: `rpc-usage-${range}`,
    localName: `${t("stats.csv.fileName")}-${range}`,
    day: utc8Day(new Date()),
    total: rows.length,
    truncated: false,
  });
}
