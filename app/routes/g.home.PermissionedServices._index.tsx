import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/lib/api.server";

// SPEC §2: PermissionedServices opens on PublishedServices.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/g/home/PermissionedServices/PublishedServices");
}
