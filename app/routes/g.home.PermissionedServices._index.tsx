import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "#app/lib/api.server.ts";

// SPEC §2: PermissionedServices opens on PublishedServices.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/g/home/PermissionedServices/PublishedServices");
}
