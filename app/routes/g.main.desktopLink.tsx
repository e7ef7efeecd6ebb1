import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { desktopLinkPayloadSchema } from "#contract/platform.ts";
import { apiFor, getViewer } from "#app/lib/api.server.ts";
import { redirectWithFlash } from "#app/lib/session.server.ts";

/*
 * "Mail me a desktop link" of the desktop-only page (issue 16, SPEC §2 mobile; app/components/MobileNotice.tsx):
 * a POST with the address and the page, answered by a redirect back to that page with a flash, with or
 * without JavaScript. The backend applies the mail limits (a refusal is shown as its message).
 */
export async function loader() {
  return redirect("/g/main/index");
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await getViewer(request);
  const form = await request.formData();
  const path = desktopLinkPayloadSchema.shape.path.safeParse(form.get("path"));
  const back = path.success ? path.data : "/g/main/index";
  const parsed = desktopLinkPayloadSchema.safeParse({ email: String(form.get("email") ?? "").trim(), path: back });
  if (!parsed.success) return redirectWithFlash(request, back, { kind: "error", key: "common:mobile.emailInvalid" });
  const result = await apiFor(request, viewer).call("/anon/platform/desktopLink", parsed.data);
  if (!result.ok) return redirectWithFlash(request, back, { kind: "error", key: result.messageKey });
  return redirectWithFlash(request, back, {
    kind: "success",
    key: "common:mobile.sent",
    params: { email: parsed.data.email },
  });
}
