import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireOperator } from "~/lib/api.server";
import { OPERATIONS_QUEUES } from "~/lib/menu";

// The operations area opens on its first queue.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const first = OPERATIONS_QUEUES[0];
  return redirect(first ? first.to : "/g/home/index");
}
