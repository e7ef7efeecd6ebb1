import { json } from "@remix-run/node";
import { failureStatus, type Api } from "./api.server.ts";
import { positiveId } from "./params.ts";
import { redirectWithFlash } from "./session.server.ts";

/**
 * The "unbind" intent of a page that lists bound addresses (docs/decisions/045): without `confirmed=yes` it
 * answers the confirm step; then it unbinds and goes back to `back` with a flash.
 */
export async function unbindIntent(request: Request, api: Api, formData: FormData, back: string) {
  const bindingId = positiveId(String(formData.get("bindingId") ?? ""));
  if (!bindingId) throw json({ messageKey: "errors:http.400" }, { status: 400 });
  if (formData.get("confirmed") !== "yes") return json({ unbindConfirm: { bindingId: String(bindingId) } });
  const result = await api.call("/sys/binding/unbind", { bindingId });
  if (!result.ok) throw json({ messageKey: result.messageKey }, { status: failureStatus(result) });
  return redirectWithFlash(request, back, { kind: "success", key: "ddc:binding.unbound" });
}
