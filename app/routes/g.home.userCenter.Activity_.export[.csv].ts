import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { activityFilterFromQuery } from "#app/lib/activity.server.ts";
import { detailsText } from "#app/lib/audit.ts";
import { utc8Day } from "#app/lib/bills.ts";
import { csvNumber, toCsv } from "#app/lib/csv.server.ts";
import { fixedT } from "#app/lib/i18n.server.ts";

/**
 * Team activity as CSV (docs/decisions/079): the page's filters, every matching entry of the acting account up
 * to the backend's export limit, newest first; headers and names in the viewer's language, times in ISO 8601
 * (UTC), every text cell neutralised against spreadsheet formulas (members' names are typed by people).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const filter = activityFilterFromQuery(new URL(request.url).searchParams);
  const data = await apiFor(request, viewer).load("/sys/team/activityExport", filter);
  const t = fixedT(viewer.language, "activity");
  const columns = ["id", "at", "memberId", "member", "action", "kind", "target", "details"] as const;
  const rows = data.rows.map((e) => [
    csvNumber(e.id),
    e.at,
    csvNumber(e.memberId),
    e.memberName,
    t(`actions.${e.action}`, { defaultValue: e.action }),
    t(`kinds.${e.kind}`, { defaultValue: e.kind }),
    e.targetId ?? "",
    detailsText(e.details),
  ]);
  const csv = toCsv([columns.map((c) => t(`csv.${c}`)), ...rows]);
  const day = utc8Day(new Date());
  // A byte order mark, so spreadsheet programs read the UTF-8 (Chinese labels and names) correctly.
  return new Response(`\uFEFF${csv}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="team-activity-${day}.csv"; filename*=UTF-8''${encodeURIComponent(`${t("csv.fileName")}-${day}.csv`)}`,
      "Cache-Control": "no-store",
      "X-Total-Count": String(data.total),
      "X-Truncated": data.truncated ? "1" : "0",
    },
  });
}
