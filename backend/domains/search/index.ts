import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { search } from "./handlers.ts";

/**
 * The console's one search box (issue 35 §2, docs/decisions/086; contract/search.ts): the acting account's
 * services, bills, invoices, payments, withdrawals, public-chain records, IPFS files, DIDs and tickets by their
 * number, code, hash, address, CID or name, and the manual by its words. It owns no table: it reads the other
 * domains' tables, always for ctx.user only.
 */
export default defineDomain({
  name: "search",
  handlers: handlersOf({ "/sys/search": search }),
});
