import { redirect } from "@remix-run/node";
import * as z from "zod";
import { CROSS_CALLS_PAGE_MAX, type CrossCall } from "#contract/cross-chain.ts";
import { failureResponse, redirectAfter, type Api } from "./api.server.ts";
import { intentOf, parseFormOr400 } from "./intents.server.ts";
import { allowedActions, CROSS_CALL_STATUS_VALUES, CROSS_STATUS_VALUES, INDEX_INTENTS } from "./cross-chain-rules.ts";
import { utc8Day } from "./bills.ts";
import { oneOf, positiveParam } from "./params.ts";

/*
 * The server side of the cross-chain screens (SPEC §2 CrossChainService; docs/decisions/048): the call filters
 * read from the query (the page and its CSV export read them the same way), the lifecycle actions of the
 * Index list (deactivate → 4, close → 2, each confirmed first) and a call record found by its id.
 */

/** The call filters of CrossChainDetail and its export: status, UTC+8 days from/to, target chain. */
export type CallFilter = { status?: number; from?: string; to?: string; target?: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (v: string | null) =>
  v && DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ? v : undefined;

/** `?status=&from=&to=&target=` as the backend's filter: a value that is not one is left out (never an error). */
export function callFilterOf(url: URL): CallFilter {
  const q = url.searchParams;
  const target = (q.get("target") ?? "").trim().slice(0, 100);
  let from = validDay(q.get("from"));
  let to = validDay(q.get("to"));
  // A range given backwards is read the right way round.
  if (from && to && from > to) [from, to] = [to, from];
  return { status: oneOf(CROSS_CALL_STATUS_VALUES, q.get("status")), from, to, target: target || undefined };
}

/**
 * The days the calls chart covers (UTC+8 days, as the filter): the filter's from/to; without them the last 14
 * days to today; at most 92 days (a longer range is cut to its last 92 days).
 */
export function chartRange(filter: CallFilter, now = new Date()): { from: string; to: string } {
  const today = utc8Day(now);
  const shift = (d: string, days: number) => {
    const x = new Date(`${d}T00:00:00Z`);
    x.setUTCDate(x.getUTCDate() + days);
    return x.toISOString().slice(0, 10);
  };
  const to = filter.to ?? (filter.from && filter.from > today ? filter.from : today);
  const earliest = shift(to, -91);
  const from = filter.from ? (filter.from < earliest ? earliest : filter.from) : shift(to, -13);
  return { from, to };
}

/** `?status=` of the Index list, when it is one of SPEC §4's cross-chain statuses. */
export function crossStatusParam(url: URL): number | undefined {
  return oneOf(CROSS_STATUS_VALUES, url.searchParams.get("status"));
}

/** Every call of a service matching the filter (the CSV export), a page of CROSS_CALLS_PAGE_MAX at a time, up to `limit`. */
export async function allCalls(
  api: Api,
  appId: number,
  filter: CallFilter,
  limit = 20 * CROSS_CALLS_PAGE_MAX,
): Promise<{ rows: CrossCall[]; total: number }> {
  const rows: CrossCall[] = [];
  let total = 0;
  for (let pageIndex = 1; rows.length < limit; pageIndex += 1) {
    const page = (
      await api.load("/sys/crossChain/calls", { appId, ...filter, pageIndex, pageSize: CROSS_CALLS_PAGE_MAX })
    ).page;
    total = page.total;
    rows.push(...page.rows);
    if (page.rows.length < CROSS_CALLS_PAGE_MAX || rows.length >= total) break;
  }
  return { rows: rows.slice(0, limit), total };
}

const lifecycleForm = z.object({
  appId: z.coerce.number().int().positive(),
  confirmed: z.literal("yes").optional(),
  intent: z.string(),
});

/**
 * Index's deactivate and close: without `confirmed=yes` (a browser without JavaScript) back to the list with
 * the confirm step open (`?confirm=<appId>&confirmAction=<intent>`); confirmed, the backend's answer as a flash.
 */
export async function indexAction(request: Request, api: Api, formData: FormData) {
  const intent = intentOf(formData, INDEX_INTENTS);
  const v = parseFormOr400(lifecycleForm, formData);
  const url = new URL(request.url);
  for (const name of ["confirm", "confirmAction", "index"]) url.searchParams.delete(name);
  const here = url.pathname + (url.search || "");
  if (v.confirmed !== "yes") {
    const q = new URLSearchParams(url.searchParams);
    q.set("confirm", String(v.appId));
    q.set("confirmAction", intent);
    return redirect(`${url.pathname}?${q}`);
  }
  const result =
    intent === "deactivate"
      ? await api.call("/sys/crossChain/deactivate", { appId: v.appId })
      : await api.call("/sys/crossChain/close", { appId: v.appId });
  return redirectAfter(
    request,
    result,
    here,
    intent === "deactivate" ? "crossChain:flash.deactivated" : "crossChain:flash.closed",
  );
}

/** The confirm step asked for by the query, when it names one of the listed services and an allowed action. */
export function confirmOf<R extends { appId: number; crossStatus: number }>(
  url: URL,
  rows: R[],
): { row: R; action: (typeof INDEX_INTENTS)[number] } | null {
  const appId = positiveParam(url.searchParams.get("confirm"));
  const action = oneOf(INDEX_INTENTS, url.searchParams.get("confirmAction"));
  const row = rows.find((r) => r.appId === appId);
  if (!row || !action || !allowedActions(row.crossStatus).includes(action)) return null;
  return { row, action };
}

/** `?callId=` and `?appId=` of CrossChainDetailView: the call record of the caller's service (another service's call, or another user's, is the backend's not-found: a 404). */
export function callOf(api: Api, appId: number, callId: number): Promise<CrossCall> {
  return api.load("/sys/crossChain/call", { appId, callId });
}

/**
 * The live cross-chain state of one of the caller's services for its detail's tab, or null when the backend
 * has none to give (a failure of its own is the page's, as for any loader).
 */
export async function crossChainOf(api: Api, appId: number) {
  const result = await api.call("/sys/crossChain/detail", { appId });
  if (result.ok) return result.data;
  if (result.status >= 500 || result.status === 0 || result.status === 999) throw failureResponse(result);
  return null;
}
