import type { Payload, SignedInContext } from "#backend/http/router.ts";
import {
  findBills,
  findChain,
  findDids,
  findInvoices,
  findIpfs,
  findManual,
  findPayments,
  findServices,
  findTickets,
  findWithdrawals,
  type Finder,
} from "./finders.ts";
import { findCredentials, findDdcs, findMessages } from "./finders-more.ts";
import { shapeOf } from "./rules.ts";

/** Every kind's finder, in the order the results page shows the groups (contract/search-codes.ts SEARCH_KINDS). */
const FINDERS: Finder[] = [
  findServices,
  findBills,
  findInvoices,
  findPayments,
  findWithdrawals,
  findChain,
  findDdcs,
  findIpfs,
  findDids,
  findCredentials,
  findTickets,
  findMessages,
  findManual,
];

/** The acting account's records (ctx.user, the account a member acts for) and the manual's pages matching `q`. */
export async function search(input: Payload<"/sys/search">, ctx: SignedInContext) {
  const q = shapeOf(input.q);
  const lang = ctx.language === "zh-CN" ? "zh-CN" : "en";
  const found = await Promise.all(FINDERS.map((find) => find(ctx.deps.db, ctx.user.id, q, lang)));
  return { hits: found.flat() };
}
