import { readFileSync } from "node:fs";
import { z } from "zod";

/**
 * Which Ethereum JSON-RPC node serves which chain (CHAIN_NODES; docs/decisions/094). The file names nodes, each
 * with the chains it serves and the key of an account funded on it (the treasury that pays the gas the portal
 * assigns). Nodes that serve "*" are the pool: a chain no node names (those made at run time: one per consortium
 * EVM service, a cross-chain service's) goes to the pool node that serves the fewest chains, and stays there (the
 * registry records it in `chains.node_url`). CHAIN_RPC_URL with CHAIN_TREASURY_KEY is the short form of a file
 * with one node serving "*".
 *
 *   { "nodes": [
 *     { "url": "http://10.0.0.5:8545", "treasuryKey": "0x…", "chains": ["open-alliance"] },
 *     { "url": "http://10.0.0.6:8545", "treasuryKey": "0x…", "chains": ["test-network"] },
 *     { "url": "http://10.0.0.7:8545", "treasuryKey": "0x…", "chains": ["*"] } ] }
 */
export type ChainNodeConfig = { url: string; treasuryKey: string; chains: string[] };

/** The pool: the node that serves every chain no other node names. */
export const POOL = "*";

const CHAIN = /^([a-z0-9][a-z0-9-]{0,62}|\*)$/;

const fileSchema = z.object({
  nodes: z
    .array(
      z.object({
        url: z
          .string()
          .url()
          .refine((u) => /^https?:\/\//.test(u), "an http:// or https:// JSON-RPC address"),
        treasuryKey: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "a private key: 0x and 64 hex digits"),
        chains: z.array(z.string().regex(CHAIN, "a chain name (lower-case letters, digits, dashes) or *")).min(1),
      }),
    )
    .min(1),
});

/** The nodes of a CHAIN_NODES file, or the reason it is not one (each chain named by one node at most). */
export function parseChainNodes(text: string): ChainNodeConfig[] | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problem: `not JSON: ${(error as Error).message}` };
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success)
    return { problem: parsed.error.issues.map((i) => `${i.path.join(".") || "(file)"}: ${i.message}`).join("; ") };
  const seen = new Set<string>();
  for (const node of parsed.data.nodes)
    for (const chain of node.chains) {
      if (seen.has(chain) && chain !== POOL) return { problem: `the chain ${chain} is named by two nodes` };
      seen.add(chain);
    }
  return parsed.data.nodes;
}

/** CHAIN_NODES read from its file, or the reason it cannot be. */
export function readChainNodesFile(file: string): ChainNodeConfig[] | { problem: string } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return { problem: `cannot read ${file}: ${(error as Error).message}` };
  }
  return parseChainNodes(text);
}

/** The node that names `chain`, if one does. */
export const namedNode = (nodes: readonly ChainNodeConfig[], chain: string) =>
  nodes.find((n) => n.chains.includes(chain));

/** The pool: the nodes that serve "*". */
export const poolNodes = (nodes: readonly ChainNodeConfig[]) => nodes.filter((n) => n.chains.includes(POOL));
