// @ts-check
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What one incoming request carries through everything that answers it (its loaders and actions and the
 * backend calls they make in-process): a bag the server entry opens per request (server/remix.js). The
 * transport keeps the request's token check in it, so that a page checks its token once however many
 * backend calls its loaders make (app/lib/transport.server.ts, docs/decisions/030).
 *
 * The build bundles its own copy of this module; both copies use the one storage kept on globalThis.
 * @typedef {{ authScope?: unknown }} PageRequest
 */
const KEY = Symbol.for("bsn.pageRequest");
const holder = /** @type {{ [KEY]?: AsyncLocalStorage<PageRequest> }} */ (/** @type {unknown} */ (globalThis));

/** @type {AsyncLocalStorage<PageRequest>} */
export const pageRequest = (holder[KEY] ??= new AsyncLocalStorage());
