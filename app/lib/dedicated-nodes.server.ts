import { redirect } from "@remix-run/node";
import { PRN_UPDATE_TYPES } from "#contract/dedicated-nodes-codes.ts";
import { notFound } from "./api.server.ts";
import { oneOf, positiveId } from "./params.ts";

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
 * The page's own address when the link's project name is not the record's: the record's href is where the page
 * redirects, so a shared or edited link always shows the project by its real name.
 */
export function canonicalName(request: Request, name: string, href: string): void {
  if (new URL(request.url).searchParams.get("prnProjectName") !== name) throw redirect(href);
}

/** The same for an upgrade's page, whose link also repeats the upgrade's type. */
export function canonicalUpgrade(
  request: Request,
  upgrade: { projectName: string; updateType: number },
  href: string,
): void {
  canonicalName(request, upgrade.projectName, href);
  if (oneOf(PRN_UPDATE_TYPES, new URL(request.url).searchParams.get("prnUpdateType")) !== upgrade.updateType)
    throw redirect(href);
}
