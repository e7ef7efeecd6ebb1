import { json, redirect } from "@remix-run/node";
import { idempotencyKey } from "#contract/rules.ts";
import type { DueBills } from "#contract/billing.ts";
import * as z from "zod";
import type { Api, Viewer } from "./api.server.ts";
import { apiFor, badRequest } from "./api.server.ts";
import {
  BLOCKED_ACTIONS,
  blockedHomeHref,
  isBlockedAction,
  safeReturnTo,
  type Block,
  type BlockedAction,
} from "./blocked.ts";
import { formatUsd } from "./format-number.ts";
import { redirectWithFlash } from "./session.server.ts";
import type { Transport } from "./transport.server.ts";
import type { VueapiResult } from "./vueapi.server.ts";

/*
 * SPEC §5 "Blocking by bills" and §7 h5isHasNoPayBillV2, explained to the user (issue 16, docs/decisions/027):
 * one helper for every guarded action. Before the click, `blockOf` gives the entry what it shows; on the
 * click, `requireNoUnpaidBills` / `unlessRefusedForBills` send a refused request home (SPEC §7) with the
 * action and where to come back; home shows `loadBlockedPanel` and its "Pay and continue" posts to
 * `payAndContinue`, which pays the blocking bills from the balance and returns to the action.
 */

const UNPAID_BILLS = "errors:MSG_30005";

/** The page the request was for (path and query), as the way back after the bills are paid. */
function attemptedPath(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  return url.pathname + url.search;
}

/**
 * Leaves for /g/home/index: with unpaid bills, home's panel names them, the action and the way back
 * (the flash says why at once); after a failed call, only the failure's own message.
 */
async function sendHome(request: Request, action: BlockedAction, key: string): Promise<never> {
  const to = key === UNPAID_BILLS ? blockedHomeHref(action, attemptedPath(request)) : "/g/home/index";
  throw await redirectWithFlash(request, to, { kind: "error", key });
}

/**
 * The guard of loaders and actions (§7 h5isHasNoPayBillV2 with the action's payType): code 0 with data
 * true lets the request through; anything else throws the redirect home (see sendHome). The backend
 * applies the same rule again when the thing is created (backend/billing hasBlockingBills).
 */
export async function requireNoUnpaidBills(
  request: Request,
  viewer: Viewer,
  action: BlockedAction,
  options: { transport?: Transport } = {},
): Promise<void> {
  const payType = BLOCKED_ACTIONS[action].payType;
  const result = await apiFor(request, viewer, { transport: options.transport }).call(
    "/sys/product/h5isHasNoPayBillV2",
    { payType },
  );
  if (result.ok && result.data === true) return;
  await sendHome(request, action, result.ok || result.silent ? UNPAID_BILLS : result.messageKey);
}

/**
 * For a call whose backend path applies the rule itself (the wizard's draft and saves refuse with
 * MSG_30005): that refusal leaves the page as `requireNoUnpaidBills` does. Any other result is handed back.
 */
export async function unlessRefusedForBills<R extends VueapiResult<unknown>>(
  request: Request,
  result: R,
  action: BlockedAction,
): Promise<R> {
  if (!result.ok && result.messageKey === UNPAID_BILLS) await sendHome(request, action, UNPAID_BILLS);
  return result;
}

/**
 * Before the click: what a page's blocked entries show, from one cheap call (h5billDue with the payType).
 * A failed call shows the entries as usual: the guard still answers on the click.
 */
export async function blockOf(api: Api, payType: 1 | 2): Promise<Block> {
  const result = await api.call("/sys/system/clientInfo/h5billDue", { payType });
  if (!result.ok || result.data.count === 0) return null;
  return { count: result.data.count, totalCents: result.data.totalCents };
}

/** Home's panel: the action tried, its way back, the bills blocking it and the balance; null without `?blocked`. */
export async function loadBlockedPanel(request: Request, api: Api) {
  const params = new URL(request.url).searchParams;
  const action = params.get("blocked");
  if (!isBlockedAction(action)) return null;
  const returnTo = safeReturnTo(params.get("returnTo"));
  const [due, summary] = await Promise.all([
    api.load("/sys/system/clientInfo/h5billDue", { payType: BLOCKED_ACTIONS[action].payType }),
    api.load("/sys/account/summary", {}),
  ]);
  return { action, returnTo, due, balanceCents: summary.balanceCents, idempotencyKey: crypto.randomUUID() };
}
export type BlockedPanelData = NonNullable<Awaited<ReturnType<typeof loadBlockedPanel>>>;

/** A pay-many form (Pay and continue, Pay all): bill ids, the key the loader issued, and the way back. */
const payManyForm = z.object({
  billIds: z.array(z.coerce.number().int().positive()).min(1).max(100),
  idempotencyKey: idempotencyKey(),
  returnTo: z.string().optional(),
});

/** The failure of a pay-many form, shown beside it (insufficient balance links to Recharge). */
export type PayManyFailure = { messageKey: string; insufficient: boolean };

/**
 * The POST of "Pay and continue" and "Pay all" (also without JavaScript): pays the listed bills from the
 * balance in one backend transaction (h5billPayMany; all or none, the same key pays once), then redirects
 * to the validated `returnTo` (a console path, never another site) or to `fallback`, with a flash naming
 * the amount. A malformed form is a 400; a refusal (insufficient balance, a bill no longer payable) is
 * answered as data with status 400 for the page to show.
 */
export async function payBillsAndReturn(request: Request, api: Api, form: FormData, fallback: string) {
  const parsed = payManyForm.safeParse({
    billIds: form.getAll("billId"),
    idempotencyKey: form.get("idempotencyKey"),
    returnTo: form.get("returnTo") ?? undefined,
  });
  if (!parsed.success) throw badRequest();
  const result = await api.call("/sys/system/clientInfo/h5billPayMany", {
    billIds: parsed.data.billIds,
    idempotencyKey: parsed.data.idempotencyKey,
  });
  if (!result.ok) {
    return json<PayManyFailure>(
      { messageKey: result.messageKey, insufficient: result.messageKey === "errors:MSG_30001" },
      { status: 400 },
    );
  }
  const to = safeReturnTo(parsed.data.returnTo) ?? fallback;
  const { paid, paidCents } = result.data;
  if (paid.length === 0) return redirect(to);
  return redirectWithFlash(request, to, {
    kind: "success",
    key: "common:blocked.paid",
    params: { amount: formatUsd(paidCents, api.viewer.language) },
  });
}

export type { DueBills };
