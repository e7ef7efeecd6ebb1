import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { CONFIRM_NAME_MAX } from "./services.ts";

/*
 * The chains on nodes by URL (docs/decisions/094 and its addendum): which configured node serves each chain, the
 * operators' mapping (seeded from the CHAIN_NODES file) and moving a chain to another node. Operators only, and
 * only when the chains run on nodes by URL: on the embedded engine both paths answer "not found". Nodes are named
 * by their address; their keys never leave the file.
 */

/** Where a chain's node comes from: the file's row, an operator's row, or the pool (no row: the node it was given). */
export const CHAIN_NODE_SOURCES = ["file", "operator", "pool"] as const;
export type ChainNodeSource = (typeof CHAIN_NODE_SOURCES)[number];

/** What a node reports: its chain id and height, or why it did not answer. */
const nodeReport = {
  chainId: z.number().int().nullable(),
  height: z.number().int().nullable(),
  unreachable: z.string().nullable(),
};

export const chainNodeSchema = z.object({
  url: z.string(),
  /** The chains the file names for it; "*" is the pool. */
  fileChains: z.array(z.string()),
  pool: z.boolean(),
  ...nodeReport,
});
export type ChainNode = z.infer<typeof chainNodeSchema>;

export const chainOnNodeSchema = z.object({
  name: z.string(),
  purpose: z.string(),
  /** The node serving it now. */
  nodeUrl: z.string(),
  source: z.enum(CHAIN_NODE_SOURCES),
  /** The node an operator's or the file's row names when it is no longer configured (the row is then ignored). */
  unconfiguredUrl: z.string().nullable(),
  setBy: z.string().nullable(),
  setAt: z.string().nullable(),
  ...nodeReport,
});
export type ChainOnNode = z.infer<typeof chainOnNodeSchema>;

export const chainNodesSchema = z.object({
  nodes: z.array(chainNodeSchema),
  chains: z.array(chainOnNodeSchema),
});
export type ChainNodes = z.infer<typeof chainNodesSchema>;

/** A chain's registry name (lower-case letters, digits, dashes). */
const chainName = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, "validation.required")
  .max(63, "validation.tooLong")
  .regex(/^[a-z0-9][a-z0-9-]*$/, "chainNodes:validation.chain");

/**
 * Moving a chain to another configured node: the operator types the chain's name to confirm that the chain then
 * starts from the new node's state (its contracts, balances and transactions on the old node stay there).
 */
export const moveChainSchema = z
  .object({
    chain: chainName,
    nodeUrl: z
      .string({ error: "chainNodes:validation.node" })
      .trim()
      .min(1, "chainNodes:validation.node")
      .max(2048, "validation.tooLong"),
    confirmName: z
      .string({ error: "validation.required" })
      .trim()
      .min(1, "validation.required")
      .max(CONFIRM_NAME_MAX, "validation.tooLong"),
  })
  .refine((v) => v.confirmName === v.chain, { path: ["confirmName"], message: "validation.nameMismatch" });
export type MoveChain = z.infer<typeof moveChainSchema>;

export const chainNodePaths = {
  /** Every configured node and every chain with its node, what the node reports, and where its mapping comes from. */
  "/sys/ops/chainNodes/list": { auth: "operator", payload: z.object({}), data: chainNodesSchema },
  /** Maps a chain to another configured node and re-opens it there (audited by the handler). */
  "/sys/ops/chainNodes/move": { auth: "operator", payload: moveChainSchema, data: chainOnNodeSchema },
} satisfies Record<string, PathSpec>;
