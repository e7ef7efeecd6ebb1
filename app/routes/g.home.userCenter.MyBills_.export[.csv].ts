import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { billSubject, billCycleLabel, billTypeLabel, utc8Day } from "#app/lib/bills.ts";
import { billFilterFromQuery } from "#app/lib/bills.server.ts";
import { csvNumber, csvResponse } from "#app/lib/csv.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { fixedT } from "#app/lib/i18n.server.ts";

/** An amount in USD with 2 decimals, a number cell (app/lib/csv.server.ts): "-12.00" stays a number. */
const usd = (cents: number) => csvNumber((cents / 100).toFixed(2));

/**
 * My Bills as CSV: the list's filters, every matching bill (up to the backend's export limit), headers
 * and statuses in the viewer's language, amounts in USD with 2 decimals, dates as §9 shows them (UTC+8).
 * Text cells that a spreadsheet would run as a formula are neutralised (app/lib/csv.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const condition = billFilterFromQuery(new URL(request.url).searchParams);
  const data = await apiFor(request, viewer).load("/sys/system/clientInfo/h5billExport", { condition });
  const t = fixedT(viewer.language, "billing");
  const lang = viewer.language;
  const columns = [
    "billNo",
    "service",
    "type",
    "payState",
    "payMode",
    "cycle",
    "created",
    "deadline",
    "paidAt",
    "total",
    "payAmount",
    "refund",
    "invoiceState",
  ] as const;
  const day = utc8Day(new Date());
  return csvResponse(
    [
      columns.map((c) => t(`csv.${c}`)),
      ...data.rows.map((b) => [
        b.billNo,
        billSubject(t, b),
        billTypeLabel(t, b.billType),
        t(`payStates.${b.payState}`, { defaultValue: String(b.payState) }),
        t(`payModes.${b.payMode}`, { defaultValue: String(b.payMode) }),
        billCycleLabel(t, b),
        formatDate(b.createdAt, lang, true),
        formatDate(b.deadline, lang, true),
        formatDate(b.paidAt, lang, true),
        usd(b.totalCents),
        usd(b.payCents),
        usd(b.refundCents),
        t(`invoiceStates.${b.invoiceState}`, { defaultValue: String(b.invoiceState) }),
      ]),
    ],
    {
      asciiName: "bills",
      localName: t("csv.fileName"),
      day,
      total: data.total,
      truncated: data.truncated,
    },
  );
}
