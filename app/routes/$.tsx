import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { endpointFor, handleEndpoint } from "#backend/index.ts";
import { requireUser } from "#app/lib/api.server.ts";

/**
 * The door for the HTTP endpoints the backend's domains register outside /vueapi (backend/kit/domain.ts
 * `endpoints`: the sandbox provider's checkout today, webhooks and JSON-RPC later); with /vueapi
 * (vueapi.$.ts) and the transport, one of the three modules that import backend/.
 * Any other unknown path redirects to /g/main/index (SPEC §2); a visitor on a path containing /home goes to
 * login first.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const pathname = new URL(request.url).pathname;
  if (endpointFor(pathname)) return handleEndpoint(request);
  if (pathname.includes("/home")) await requireUser(request);
  return redirect("/g/main/index");
}
export const action = loader;
