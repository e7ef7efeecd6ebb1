import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { isLanguage } from "#app/lib/i18n.ts";
import { languageSetCookie } from "#app/lib/i18n.server.ts";
import { safeReturnTo } from "#app/lib/session.server.ts";

/** The language switch: a plain GET link, so it works without JavaScript; the choice is kept in a cookie. */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const lng = url.searchParams.get("lng");
  const back = safeReturnTo(url.searchParams.get("redirectTo"), "/g/main/index");
  if (!isLanguage(lng)) return redirect(back);
  return redirect(back, { headers: { "Set-Cookie": await languageSetCookie(lng) } });
}
