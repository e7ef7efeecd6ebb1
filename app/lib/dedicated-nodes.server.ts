import { redirect } from "@remix-run/node";
import { PRN_UPDATE_TYPES } from "@contract/dedicated-nodes-codes";
import { notFound } from "./api.server";
import { oneOf, positiveId } from "./params";

/*
 * The query of the dedicated-node screens (SPEC §2 PrivatedNodesCheck, PrivatedNodesConfig (prnProjectId,
 * prnProjectName), PrivatedNodesConfigDetail (prnProjectUpdateId, prnUpdateType, prnProjectName)). The ids
 * name the record (a malformed, unknown or foreign one is a 404, the backend deciding the last two); the
 * name and type only repeat what the record says, so a link with other ones is sent to the record's own.
 */

/** `?prnProjectId=` of the request, or a 404. */
export function prnProjectIdParam(request: Request): number {
  const id = positiveId(new URL(request.url).searchParams.get("prnProjectId"));
  if (!id) throw notFound();
  return id;
}

/** `?prnProjectUpdateId=` of the request, or a 404. */
export function prnUpdateIdParam(request: Request): number {
  const id = positiveId(new URL(request.url).searchParams.get("prnProjectUpdateId"));
  if (!id) throw notFound();
  return id;
}

/**
 * The page's own address when the link's name (and type) are not the record's: the record's href is where
 * the page redirects, so a shared or edited link always shows the project by its real name.
 */
export function canonicalOr(request: Request, record: { name: string; updateType?: number }, href: string): void {
  const q = new URL(request.url).searchParams;
  const name = q.get("prnProjectName");
  const type = record.updateType === undefined ? undefined : oneOf(PRN_UPDATE_TYPES, q.get("prnUpdateType"));
  if (name !== record.name || (record.updateType !== undefined && type !== record.updateType)) throw redirect(href);
}
