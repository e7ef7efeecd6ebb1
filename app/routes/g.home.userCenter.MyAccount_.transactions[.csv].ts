import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { utc8Day } from "#app/lib/bills.ts";
import { transactionFilterFromQuery } from "#app/lib/bills.server.ts";
import { csvNumber, csvResponse } from "#app/lib/csv.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { fixedT } from "#app/lib/i18n.server.ts";

/** An amount in USD with 2 decimals as the inquiry shows it, signed, a number cell (app/lib/csv.server.ts). */
const usd = (cents: number) => csvNumber((cents / 100).toFixed(2));

/**
 * My account's transaction inquiry as CSV (issue 35 §3, docs/decisions/093): the inquiry's filters (type and UTC+8
 * days), every matching ledger entry of the viewer up to the backend's export limit, newest first; headers and
 * types in the viewer's language, times in UTC+8 as the page shows them, amounts in USD with 2 decimals.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const condition = transactionFilterFromQuery(new URL(request.url).searchParams);
  const data = await apiFor(request, viewer).load("/sys/account/transactionsExport", { condition });
  const t = fixedT(viewer.language, "billing");
  const columns = ["time", "kind", "reference", "balanceChange", "invoiceableChange", "balanceAfter"] as const;
  const rows = data.rows.map((e) => [
    formatDate(e.createdAt, viewer.language, true, false),
    t(`kinds.${e.kind}`, { defaultValue: e.kind }),
    e.reference ?? "",
    usd(e.balanceDelta),
    usd(e.invoiceableDelta),
    usd(e.balanceAfter),
  ]);
  return csvResponse([columns.map((c) => t(`transactions.csv.${c}`)), ...rows], {
    asciiName: "transactions",
    localName: t("transactions.csv.fileName"),
    day: utc8Day(new Date()),
    total: data.total,
    truncated: data.truncated,
  });
}
