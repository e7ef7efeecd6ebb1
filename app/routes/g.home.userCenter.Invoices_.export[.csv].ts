import type { LoaderFunctionArgs } from "@remix-run/node";
import { INVOICE_STATUSES } from "#contract/invoice-codes.ts";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { utc8Day } from "#app/lib/bills.ts";
import { csvNumber, csvResponse } from "#app/lib/csv.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { fixedT } from "#app/lib/i18n.server.ts";
import { oneOf } from "#app/lib/params.ts";

/**
 * The invoice applications as CSV (issue 35 §3, docs/decisions/093): the list's status filter, every application of
 * the viewer up to the backend's export limit, newest first; headers, types and statuses in the viewer's language,
 * amounts in USD with 2 decimals, the day applied in UTC+8 as the list shows it. Titles are typed by people, so
 * every text cell is neutralised against spreadsheet formulas (app/lib/csv.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const status = oneOf(INVOICE_STATUSES, new URL(request.url).searchParams.get("status"));
  const data = await apiFor(request, viewer).load("/sys/system/invoiceAccountTrade/h5invoiceExport", {
    condition: status === undefined ? {} : { status: status as 1 | 3 | 5 | 10 },
  });
  const t = fixedT(viewer.language, "invoices");
  const columns = ["applicationNo", "title", "invoiceType", "issuance", "amount", "status", "createdAt"] as const;
  const rows = data.rows.map((r) => [
    r.applicationNo,
    r.title,
    t(`invoiceType.${r.invoiceType}`, { defaultValue: String(r.invoiceType) }),
    t(`issuance.${r.issuance}`, { defaultValue: String(r.issuance) }),
    csvNumber((r.amountCents / 100).toFixed(2)),
    t(`status.${r.status}`, { defaultValue: String(r.status) }),
    formatDate(r.createdAt, viewer.language, true, false),
  ]);
  return csvResponse([columns.map((c) => t(`csv.${c}`)), ...rows], {
    asciiName: "invoice-applications",
    localName: t("csv.fileName"),
    day: utc8Day(new Date()),
    total: data.total,
    truncated: data.truncated,
  });
}
