import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "#app/lib/api.server.ts";

/** SPEC §2: DeveloperCommunity defaults to News_Events. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/g/home/DeveloperCommunity/News_Events");
}
