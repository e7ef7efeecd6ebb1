import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, requireOperator } from "#app/lib/api.server.ts";
import { detailsText } from "#app/lib/audit.ts";
import { auditFilterFromQuery } from "#app/lib/audit.server.ts";
import { utc8Day } from "#app/lib/bills.ts";
import { csvNumber, toCsv } from "#app/lib/csv.server.ts";
import { fixedT } from "#app/lib/i18n.server.ts";

/**
 * The audit log as CSV (docs/decisions/022): the tab's filters, every matching entry up to the backend's
 * export limit, newest first; headers and labels in the viewer's language, times in ISO 8601 (UTC), every
 * cell neutralised against spreadsheet formulas. The export itself is an entry of the log.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const filter = auditFilterFromQuery(new URL(request.url).searchParams);
  const data = await apiFor(request, viewer).load("/sys/ops/audit/export", filter);
  const t = fixedT(viewer.language, "audit");
  const columns = [
    "id",
    "at",
    "actor",
    "action",
    "targetType",
    "targetId",
    "decision",
    "comments",
    "details",
    "clientIp",
    "path",
  ] as const;
  const rows = data.rows.map((e) => [
    csvNumber(e.id),
    e.at,
    e.actorName,
    t(`actions.${e.action}`, { defaultValue: e.action }),
    t(`targets.${e.targetType}`, { defaultValue: e.targetType }),
    e.targetId ?? "",
    e.decision ? t(`decisions.${e.decision}`, { defaultValue: e.decision }) : "",
    e.comments ?? "",
    detailsText(e.details),
    e.clientIp ?? "",
    e.path,
  ]);
  // Every text cell neutralised against spreadsheet formulas (docs/decisions/024): comments are typed by operators.
  const csv = toCsv([columns.map((c) => t(`csv.${c}`)), ...rows]);
  const day = utc8Day(new Date());
  // A byte order mark, so spreadsheet programs read the UTF-8 (Chinese labels and names) correctly.
  return new Response(`\uFEFF${csv}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-log-${day}.csv"; filename*=UTF-8''${encodeURIComponent(`${t("csv.fileName")}-${day}.csv`)}`,
      "Cache-Control": "no-store",
      "X-Total-Count": String(data.total),
      "X-Truncated": data.truncated ? "1" : "0",
    },
  });
}
