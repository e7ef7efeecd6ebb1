import { cityNodes } from "#backend/db/tables.ts";
import type { CallContext, Payload } from "#backend/http/router.ts";

/**
 * The domain's handlers: plain named functions, each typed by its path (its parsed payload, `Payload<P>`, and its
 * caller: `CallContext` for an anonymous path, `SignedInContext` with its user for one that needs a token);
 * index.ts maps every path to its function inside `handlersOf`, which checks each against its own path. The path
 * must exist in contract/paths.ts (merged from contract/<name>.ts). This example answers an existing anonymous
 * path so that the template type-checks; a copy lists its own.
 */
export async function listCityNodes(_payload: Payload<"/anon/platform/cityNodes">, { deps }: CallContext) {
  const rows = await deps.db.select().from(cityNodes).orderBy(cityNodes.id);
  return rows.map(({ id, ...node }) => ({ ...node, nodeId: id }));
}
