import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/lib/api.server";

// SPEC §2: any unknown path redirects to /g/main/index; a visitor on a path containing /home goes to login first.
export async function loader({ request }: LoaderFunctionArgs) {
  if (new URL(request.url).pathname.includes("/home")) await requireUser(request);
  return redirect("/g/main/index");
}
export const action = loader;
