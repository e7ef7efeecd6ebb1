import type { ChainNodeConfig } from "#backend/kit/chain-nodes.ts";
import type { ChainInfo } from "./chain-ids.ts";
import type { NodeFollower } from "./follower.ts";
import type { remoteNode } from "./remote.ts";
import type { ChainNode } from "./rpc.ts";

/** The types of the chains' registry (./registry.ts). */

export type ChainHealth = { height: number; lastBlockAt: string | null; pending: number };

/** An open chain of the registry. */
export type Entry = ChainInfo & {
  node: ChainNode;
  health: () => ChainHealth | Promise<ChainHealth>;
  treasuryKey: string;
  /** On a node by URL: the node's follower (the index), and the node's address (one nonce queue per node). */
  follower?: NodeFollower;
  nodeUrl?: string;
};

/** A configured node: its JSON-RPC client and its follower. */
export type Remote = { config: ChainNodeConfig; node: ReturnType<typeof remoteNode>; follower: NodeFollower };
