import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { CROSS_CHAIN_INDEX } from "#app/lib/cross-chain-urls.ts";
import { requireUser } from "#app/lib/api.server.ts";

/** SPEC §2: InterchainServices redirects to CrossChainService/Index (a visitor logs in first). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect(CROSS_CHAIN_INDEX);
}
