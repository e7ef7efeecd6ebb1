import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "#app/lib/api.server.ts";

/** SPEC §2 App store: the area opens on all services. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/g/home/AppStore/Services");
}
