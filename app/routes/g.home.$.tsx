import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "#app/lib/api.server.ts";

// An unknown /g/home path: a visitor logs in first (SPEC §2), then it is an unknown path like any other.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/g/main/index");
}
export const action = loader;
