import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireOperator } from "#app/lib/api.server.ts";
import { OPERATIONS_QUEUES } from "#app/lib/menu.ts";

// The operations area opens on its first queue.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const first = OPERATIONS_QUEUES[0];
  return redirect(first ? first.to : "/g/home/index");
}
