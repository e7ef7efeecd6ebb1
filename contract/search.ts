import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { MESSAGE_REF_KINDS } from "./platform.ts";
import { SEARCH_KINDS, SEARCH_QUERY_MAX, SEARCH_TARGETS } from "./search-codes.ts";
export * from "./search-codes.ts";

/*
 * The console's one search box (issue 35 §2, docs/decisions/086): the acting account's own records found by
 * their number, code, hash, address, CID or name, and the manual's pages by their words, grouped by kind.
 */

export const searchPayloadSchema = z.object({
  q: z.string().trim().min(1, "validation.required").max(SEARCH_QUERY_MAX, "validation.tooLong"),
});

export const searchHitSchema = z.object({
  kind: z.enum(SEARCH_KINDS),
  /** What is shown: a number, a code, a hash, or a name the user gave (user data). */
  label: z.string(),
  /** A second line: what the label is (a service's name for its APPCode, a file's CID, a page's snippet). */
  detail: z.string().nullable(),
  /** What matched: the exact number, code, hash or address, or words in a name or text. */
  match: z.enum(["exact", "words"]),
  /** The page it opens and the record that page shows. */
  target: z.object({
    page: z.enum(SEARCH_TARGETS),
    id: z.union([z.number().int(), z.string()]),
    /** A second parameter: the file's name within its IPFS service. */
    name: z.string().optional(),
    /** A message's: what it is about (its link in the Message center); none for news. */
    ref: z.object({ kind: z.enum(MESSAGE_REF_KINDS), id: z.number().int() }).optional(),
  }),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchPaths = {
  /** The acting account's records matching the query, and the manual's pages; never another account's. */
  "/sys/search": {
    auth: "user",
    permission: "read",
    payload: searchPayloadSchema,
    data: z.object({ hits: z.array(searchHitSchema) }),
  },
} satisfies Record<string, PathSpec>;
