import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { isLanguage } from "~/lib/i18n";
import { languageSetCookie } from "~/lib/i18n.server";
import { safeReturnTo } from "~/lib/session.server";

/** The language switch: a plain GET link, so it works without JavaScript; the choice is kept in a cookie. */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const lng = url.searchParams.get("lng");
  const back = safeReturnTo(url.searchParams.get("redirectTo"), "/g/main/index");
  if (!isLanguage(lng)) return redirect(back);
  return redirect(back, { headers: { "Set-Cookie": await languageSetCookie(lng) } });
}
