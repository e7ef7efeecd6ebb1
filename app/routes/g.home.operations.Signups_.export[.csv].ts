import type { LoaderFunctionArgs } from "@remix-run/node";
import { CAPACITY_MAX } from "#contract/community-codes.ts";
import { apiFor, notFound, requireOperator } from "#app/lib/api.server.ts";
import { utc8Day } from "#app/lib/bills.ts";
import { toCsv } from "#app/lib/csv.server.ts";
import { fixedT } from "#app/lib/i18n.server.ts";
import { positiveParam } from "#app/lib/params.ts";

/**
 * An event's sign-ups as CSV (?eventId=N): every sign-up (at most the largest capacity), headers in the
 * operator's language, times in ISO 8601 (UTC), every cell neutralised against spreadsheet formulas.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireOperator(request);
  const eventId = positiveParam(new URL(request.url).searchParams.get("eventId"));
  if (!eventId) throw notFound();
  const data = await apiFor(request, viewer).load("/sys/ops/community/signups", {
    eventId,
    pageIndex: 1,
    pageSize: CAPACITY_MAX,
  });
  const t = fixedT(viewer.language, "community");
  const columns = ["at", "user", "name", "email", "organization", "note"] as const;
  const csv = toCsv([
    columns.map((c) => t(`signups.columns.${c}`)),
    ...data.page.rows.map((s) => [s.createdAt, s.userName, s.name, s.email, s.organization, s.note]),
  ]);
  const day = utc8Day(new Date());
  return new Response(`\uFEFF${csv}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="event-${eventId}-signups-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
