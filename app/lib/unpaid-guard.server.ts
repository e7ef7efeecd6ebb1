import type { Viewer } from "./api.server";
import { apiFor } from "./api.server";
import { redirectWithFlash } from "./session.server";
import type { Transport } from "./transport.server";
import type { VueapiResult } from "./vueapi.server";

const UNPAID_BILLS = "errors:MSG_30005";

/** Leaves the page for /g/home/index with the message of why (SPEC §5 "Blocking by bills"). */
async function sendHome(request: Request, key: string): Promise<never> {
  throw await redirectWithFlash(request, "/g/home/index", { kind: "error", key });
}

/**
 * SPEC §7 /sys/product/h5isHasNoPayBillV2 and §5 "Blocking by bills", for loaders and actions of other
 * areas: payType 1 before a new service, a configuration upgrade, publishing, editing, upgrading, a new
 * product or IPFS upload/download; payType 2 before a dedicated node. Code 0 with data true lets the
 * request through; anything else throws a redirect to /g/home/index with a translated flash: unpaid
 * bills (errors:MSG_30005) when the backend says false, or the failure's own message when the call failed.
 * The backend applies the same rule again when the thing is created (backend/billing hasBlockingBills).
 */
export async function requireNoUnpaidBills(
  request: Request,
  viewer: Viewer,
  payType: 1 | 2,
  options: { transport?: Transport } = {},
): Promise<void> {
  const result = await apiFor(request, viewer, { transport: options.transport }).call("/sys/product/h5isHasNoPayBillV2", { payType });
  if (result.ok && result.data === true) return;
  await sendHome(request, result.ok || result.silent ? UNPAID_BILLS : result.messageKey);
}

/**
 * For a call whose backend path applies the same rule itself (the service wizard's draft and saves refuse
 * with MSG_30005 while bills are unpaid): that refusal leaves the page exactly as `requireNoUnpaidBills`
 * does, so the page need not ask h5isHasNoPayBillV2 first. Any other result is handed back.
 */
export async function unlessRefusedForBills<R extends VueapiResult<unknown>>(request: Request, result: R): Promise<R> {
  if (!result.ok && result.messageKey === UNPAID_BILLS) await sendHome(request, UNPAID_BILLS);
  return result;
}
