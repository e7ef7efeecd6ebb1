import { notFound } from "./api.server.ts";
import { positiveId } from "./params.ts";

/** Query parameters of the DID pages (issue 18; docs/decisions/043). */

/** `?<name>=` of the request as a record id, or a 404. */
export function idParam(request: Request, name: "didId" | "credentialId"): number {
  const id = positiveId(new URL(request.url).searchParams.get(name));
  if (!id) throw notFound();
  return id;
}
