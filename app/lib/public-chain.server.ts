import { notFound } from "./api.server.ts";
import { getEnv } from "./env.server.ts";
import { positiveId } from "./params.ts";

/** Server helpers of the public-chain console pages (app/routes/g.home.PermissionlessServices.*). */

/** The project, account or contract id of a page's query (`?projectId=`, `?accountId=`, `?contractId=`), or a 404. */
export function idParam(request: Request, name: "projectId" | "accountId" | "contractId"): number {
  const id = positiveId(new URL(request.url).searchParams.get(name));
  if (!id) throw notFound();
  return id;
}

/**
 * The site's own address, for the endpoint URLs a project or a guide shows (its users' tools call them):
 * PUBLIC_URL as the server knows it, else the address this request came to.
 */
export function siteOrigin(request: Request): string {
  const configured = getEnv().PUBLIC_URL;
  return configured ? configured.replace(/\/+$/, "") : new URL(request.url).origin;
}
