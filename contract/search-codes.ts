/**
 * The console's one search box (issue 35 §2, docs/decisions/086): the kinds of results, in the order the
 * results page shows their groups, and the pages a result leads to. Zod-free: the portal's links need them.
 */

/** The groups of results, in the order they are shown. */
export const SEARCH_KINDS = [
  "service",
  "bill",
  "invoice",
  "payment",
  "withdrawal",
  "chain",
  "ddc",
  "ipfs",
  "did",
  "ticket",
  "message",
  "manual",
] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** The page a result opens (app/lib/search-links.ts makes its address). */
export const SEARCH_TARGETS = [
  "service",
  "testService",
  "bill",
  "invoice",
  "payment",
  "withdrawal",
  "project",
  "chainAccount",
  "contract",
  "transaction",
  "ddc",
  "ipfsService",
  "did",
  "credential",
  "ticket",
  "message",
  "manual",
] as const;
export type SearchTarget = (typeof SEARCH_TARGETS)[number];

/** The longest query (a DID or an IPFS CID fits). */
export const SEARCH_QUERY_MAX = 200;
/** At most this many results of one kind. */
export const SEARCH_KIND_LIMIT = 10;
