import { notFound } from "./api.server.ts";
import { positiveId } from "./params.ts";

/** Server helpers of the public-chain console pages (app/routes/g.home.PermissionlessServices.*). */

/** The project, account or contract id of a page's query (`?projectId=`, `?accountId=`, `?contractId=`), or a 404. */
export function idParam(request: Request, name: "projectId" | "accountId" | "contractId"): number {
  const id = positiveId(new URL(request.url).searchParams.get(name));
  if (!id) throw notFound();
  return id;
}

/** The site's own address, for the endpoint URLs a project shows (its users' tools call them). */
export function siteOrigin(request: Request): string {
  return new URL(request.url).origin;
}
