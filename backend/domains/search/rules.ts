import { getAddress } from "viem";
import { escapeLike } from "#backend/kit/sql.ts";

/**
 * What a query can be (issue 35 §2, docs/decisions/086), pure: the forms an exact lookup compares with, so each
 * one uses the index on its column. A number or code is stored upper-case, an address EIP-55 checksummed or
 * lower-case, a transaction hash lower-case; a ticket, a DDC token or a credential is asked for by its number, with or without `#`.
 */
export type QueryShape = {
  /** The query as typed (trimmed by the contract). */
  text: string;
  /** The forms an exact number or code may be stored in. */
  codes: string[];
  /** An EVM address: its checksummed and lower-case forms; null for anything else. */
  addresses: string[] | null;
  /** A 32-byte transaction hash, lower-case; null for anything else. */
  txHash: string | null;
  /** A record's number (a ticket, a DDC's token id, a credential), with or without `#`; null unless the query is one. */
  numberId: number | null;
  /** A `LIKE` pattern for a name containing the query (its wildcards escaped). */
  contains: string;
};

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const NUMBER_ID = /^#?([1-9][0-9]{0,8})$/;

export function shapeOf(q: string): QueryShape {
  const text = q.trim();
  const numberId = NUMBER_ID.exec(text);
  return {
    text,
    codes: [...new Set([text, text.toUpperCase()])],
    addresses: ADDRESS.test(text) ? [...new Set([getAddress(text.toLowerCase()), text.toLowerCase()])] : null,
    txHash: TX_HASH.test(text) ? text.toLowerCase() : null,
    numberId: numberId ? Number(numberId[1]) : null,
    contains: `%${escapeLike(text)}%`,
  };
}

/** The start of a longer text, on one line, for a result's second line. */
export function snippetOf(text: string, max = 140): string {
  const line = text
    .replace(/[#>*_`[\]()!|-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
