import { cityNodes } from "#backend/db/tables.ts";
import { handlersOf } from "#backend/http/router.ts";

/**
 * Handlers by path: the path must exist in contract/paths.ts (merged from contract/<name>.ts), and the handler
 * receives that path's parsed payload and, for a path that needs a token, a SignedInContext with its user.
 * This example answers an existing anonymous path so that the template type-checks; a copy lists its own.
 */
export const handlers = handlersOf({
  "/anon/platform/cityNodes": async (_payload, { services }) => {
    const rows = await services.db.select().from(cityNodes).orderBy(cityNodes.id);
    return rows.map(({ id, ...node }) => ({ ...node, nodeId: id }));
  },
});
