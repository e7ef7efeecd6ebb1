import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor, requireUser } from "#app/lib/api.server.ts";
import { allCalls, callFilterOf } from "#app/lib/cross-chain.server.ts";
import { csvNumber, toCsv } from "#app/lib/csv.server.ts";
import { formatDate } from "#app/lib/format.ts";
import { fixedT } from "#app/lib/i18n.server.ts";
import { requiredId } from "#app/lib/params.server.ts";

/** An amount in USD with 2 decimals, a number cell (app/lib/csv.server.ts). */
const usd = (cents: number) => csvNumber((cents / 100).toFixed(2));

/**
 * CrossChainDetail's call records as CSV (SPEC §2, §3): the page's filters (status, from/to days, target),
 * every matching call of the caller's service (paged through the backend, up to 20,000), headers and statuses in
 * the viewer's language, dates in UTC+8 as the page shows them, fees in USD. Another user's service is a 404.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const url = new URL(request.url);
  const appId = requiredId(url, "appId");
  const api = apiFor(request, viewer);
  const detail = await api.load("/sys/crossChain/detail", { appId });
  const { rows, total } = await allCalls(api, appId, callFilterOf(url));
  const t = fixedT(viewer.language, "crossChain");
  const columns = [
    "callId",
    "sequence",
    "time",
    "source",
    "target",
    "sourceTx",
    "targetTx",
    "fee",
    "status",
    "attempts",
    "reason",
  ] as const;
  const csv = toCsv([
    columns.map((c) => t(`csv.${c}`)),
    ...rows.map((c) => [
      String(c.callId),
      String(c.sequence),
      formatDate(c.createdAt, viewer.language, true),
      c.sourceChain,
      c.targetChain,
      c.sourceTxHash,
      c.targetTxHash ?? "",
      usd(c.feeCents),
      t(`callStatus.${c.status}`, { defaultValue: String(c.status) }),
      String(c.attempts),
      c.reason ?? "",
    ]),
  ]);
  const day = new Date().toISOString().slice(0, 10);
  const fileName = `${t("csv.fileName")}-${detail.appCode}-${day}.csv`;
  return new Response(`\uFEFF${csv}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="cross-chain-calls-${day}.csv"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "Cache-Control": "no-store",
      "X-Total-Count": String(total),
      "X-Truncated": rows.length < total ? "1" : "0",
    },
  });
}
