import { CONTRACT_NAME_MAX } from "#contract/contracts-codes.ts";

/** Pure rules of the online IDE (docs/decisions/044), tested by tables in tests/unit/ide.test.ts. */

/** The folders a path sits in, outermost first: "a/b/c.sol" → ["a", "a/b"]. */
export function parentsOf(path: string): string[] {
  const parts = path.split("/");
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
}

/** The prefix of every path under a folder, for a LIKE match (its own LIKE wildcards escaped). */
export const filesUnder = (folder: string) => `${folder.replace(/[\\%_]/g, (c) => `\\${c}`)}/`;

/** A path under `from` moved under `to`: "a/b.sol" from "a" to "c" → "c/b.sol". */
export const movedPath = (path: string, from: string, to: string) => `${to}${path.slice(from.length)}`;

/** Solidity files are compiled; the others (notes, JSON) are kept as they are. */
export const isSolidity = (path: string) => path.endsWith(".sol");

/** A deployment's name (SPEC §5 Contract name): the contract's name, cut to the longest a name may be. */
export const deploymentName = (contract: string) => contract.slice(0, CONTRACT_NAME_MAX);
