import type { LoaderFunctionArgs } from "@remix-run/node";
import { notFound, requireUser } from "#app/lib/api.server.ts";

/**
 * An unknown /g/home path: a visitor logs in first (SPEC §2); a signed-in user gets the console's not-found,
 * inside the shell with the menu (issue 30 item 10), where §2 would send them to /g/main/index
 * (docs/decisions/066). Unknown paths elsewhere still redirect there ($.tsx).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  throw notFound();
}
export const action = loader;

/** Never drawn (the loader always throws): a page module, so its 404 is shown by the console's shell and not sent as data. */
export default function UnknownConsolePath() {
  return null;
}
