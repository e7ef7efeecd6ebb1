import { json, type LoaderFunctionArgs } from "@remix-run/node";
import type { BreakdownLine } from "#contract/bill-breakdown.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { lineFile, lineGb, lineKindLabel } from "#app/lib/bill-breakdown.ts";
import { utc8Day } from "#app/lib/bills.ts";
import { csvNumber, toCsv } from "#app/lib/csv.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { fixedT } from "#app/lib/i18n.server.ts";

/** An amount in USD with 2 decimals, a number cell (app/lib/csv.server.ts): "-0.01" stays a number. */
const usd = (cents: number) => csvNumber((cents / 100).toFixed(2));

/**
 * A bill's breakdown as CSV (issue 35 §3, docs/decisions/093): the lines of the BillDetail page, whole
 * transaction hashes and CIDs included, and a last row with their total, which is the bill's amount. Headers and words in
 * the viewer's language, text cells formula-safe (app/lib/csv.server.ts), a byte order mark for the Chinese.
 * Another account's bill is a 404 like an unknown one.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const raw = new URL(request.url).searchParams.get("billId") ?? "";
  const billId = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (billId <= 0) throw json({ messageKey: "errors:MSG_10002" }, { status: 404 });
  const data = await apiFor(request, viewer).load("/sys/system/clientInfo/billBreakdown", { billId });
  const t = fixedT(viewer.language, "billing");
  const lang = viewer.language;
  const columns = [
    "item",
    "day",
    "place",
    "subject",
    "file",
    "cid",
    "method",
    "calls",
    "gb",
    "unitPrice",
    "periodStart",
    "periodEnd",
    "txHash",
    "amount",
  ] as const;
  const row = (l: BreakdownLine) => {
    const gb = lineGb(l);
    return [
      lineKindLabel(t, l),
      l.day,
      l.place,
      l.subject,
      // The file's name where the service keeps it, or "not itemised by file"; its CID in a column of its own.
      l.kind !== "ipfsTraffic" ? null : l.cid === null ? lineFile(t, l) : l.fileName,
      l.cid,
      l.method,
      l.calls === null ? null : csvNumber(l.calls),
      gb === null ? null : csvNumber(gb),
      l.unitPriceCents === null ? null : usd(l.unitPriceCents),
      l.periodStart ? formatDate(l.periodStart, lang, true) : null,
      l.periodEnd ? formatDate(l.periodEnd, lang, true) : null,
      l.txHash,
      usd(l.amountCents),
    ];
  };
  const total = data.lines.reduce((s, l) => s + l.amountCents, 0);
  const csv = toCsv([
    columns.map((c) => t(`breakdown.csv.${c}`)),
    ...data.lines.map(row),
    [t("breakdown.csv.total"), ...columns.slice(1, -1).map(() => null), usd(total)],
  ]);
  const fileName = `${t("breakdown.csv.fileName")}-${data.billNo}.csv`;
  return new Response(`\uFEFF${csv}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="bill-breakdown-${utc8Day(new Date())}.csv"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "Cache-Control": "no-store",
      "X-Total-Count": String(data.lines.length),
      "X-Truncated": data.truncated ? "1" : "0",
    },
  });
}
