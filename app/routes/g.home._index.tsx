import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/lib/api.server";

// SPEC §2: the logged-in area defaults to its index.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/g/home/index");
}
