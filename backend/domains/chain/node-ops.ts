import { asc, ne } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import type { ChainNode, ChainOnNode, MoveChain } from "#contract/chain-nodes.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { recordAudit } from "#backend/kit/audit.ts";
import { POOL, type ChainNodeConfig } from "#backend/kit/chain-nodes.ts";
import { DEDICATED } from "./chain-ids.ts";
import type { ChainRegistry } from "./registry.ts";
import { chains } from "./tables.ts";

/**
 * The operators' page of the chains on nodes by URL (contract/chain-nodes.ts; docs/decisions/094 addendum): each
 * configured node with what it reports, each chain with its node and where that mapping comes from, and moving a
 * chain to another configured node. On the embedded engine there are no nodes: both answer "not found".
 */

/** How long the page waits for a node's chain id and height before it says "unreachable". */
const PROBE_MS = 3_000;

type Report = { chainId: number | null; height: number | null; unreachable: string | null };

/** A node's chain id and height, asked directly (never through a chain's queue), or why it did not answer. */
export async function probe(url: string): Promise<Report> {
  const ask = async (method: string) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] }),
      signal: AbortSignal.timeout(PROBE_MS),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const reply = (await res.json()) as { result?: string; error?: { message: string } };
    if (typeof reply.result !== "string") throw new Error(reply.error?.message ?? "no result");
    return Number(reply.result);
  };
  try {
    const [chainId, height] = await Promise.all([ask("eth_chainId"), ask("eth_blockNumber")]);
    return { chainId, height, unreachable: null };
  } catch (error) {
    return { chainId: null, height: null, unreachable: (error as Error).message };
  }
}

/** The configured nodes; on the embedded engine the page does not exist. */
function nodesOf(registry: ChainRegistry, ctx: SignedInContext): readonly ChainNodeConfig[] {
  const chain = ctx.deps.env.chain;
  if (chain.kind !== "nodes" || !registry.nodeMap) throw new ApiError(Msg.NOT_FOUND);
  return chain.nodes;
}

/** The chains of the registry (not the dedicated networks', which stay on the embedded engine: ADR 094). */
const chainRows = (ctx: SignedInContext) =>
  ctx.deps.db.select().from(chains).where(ne(chains.purpose, DEDICATED)).orderBy(asc(chains.id));

function chainOut(
  registry: ChainRegistry,
  row: typeof chains.$inferSelect,
  reports: Map<string, Report>,
  nodes: readonly ChainNodeConfig[],
): ChainOnNode {
  const mapped = registry.nodeMap?.row(row.name);
  const configured = !!mapped && nodes.some((n) => n.url === mapped.nodeUrl);
  const nodeUrl = row.nodeUrl ?? "";
  return {
    name: row.name,
    purpose: row.purpose,
    nodeUrl,
    source: configured ? mapped.source : "pool",
    unconfiguredUrl: mapped && !configured ? mapped.nodeUrl : null,
    setBy: configured ? mapped.setBy : null,
    setAt: configured ? mapped.setAt.toISOString() : null,
    ...(reports.get(nodeUrl) ?? { chainId: null, height: null, unreachable: "not configured" }),
  };
}

/** /sys/ops/chainNodes/list: every node (asked in parallel) and every chain on them. */
export async function listChainNodes(registry: ChainRegistry, ctx: SignedInContext) {
  const nodes = nodesOf(registry, ctx);
  await registry.nodeMap!.load();
  const reports = new Map(await Promise.all(nodes.map(async (n) => [n.url, await probe(n.url)] as const)));
  const nodeList: ChainNode[] = nodes.map((n) => ({
    url: n.url,
    fileChains: n.chains,
    pool: n.chains.includes(POOL),
    ...reports.get(n.url)!,
  }));
  const rows = await chainRows(ctx);
  return { nodes: nodeList, chains: rows.map((row) => chainOut(registry, row, reports, nodes)) };
}

/**
 * /sys/ops/chainNodes/move: maps a chain to another configured node. The chain's state does not move with it: on
 * the new node it starts from that node's state (the confirmation said so). Refused when the chain is not one of
 * the registry's (not found), the node is not configured or is the chain's node already, or the node does not
 * answer. The mapping and its audit entry commit together; then this process re-opens the chain on the new node
 * (chain id and treasury read there) and the others do within a few seconds (NodeMap's refresh).
 */
export async function moveChain(registry: ChainRegistry, input: MoveChain, ctx: SignedInContext) {
  const nodes = nodesOf(registry, ctx);
  const row = (await chainRows(ctx)).find((r) => r.name === input.chain);
  if (!row || !registry.has(row.name)) throw new ApiError(Msg.NOT_FOUND);
  const target = nodes.find((n) => n.url === input.nodeUrl);
  if (!target) throw fieldError("nodeUrl", "chainNodes:validation.unknownNode");
  if (row.nodeUrl === target.url) throw fieldError("nodeUrl", "chainNodes:validation.sameNode");
  const report = await probe(target.url);
  if (report.unreachable) throw fieldError("nodeUrl", "chainNodes:validation.nodeUnreachable");
  const now = ctx.deps.now();
  await ctx.deps.db.transaction(async (tx) => {
    const mapped = await registry.nodeMap!.set(tx, row.name, target.url, ctx.user.userName, now);
    await recordAudit(tx, {
      action: "chainNode.move",
      targetType: "chain",
      targetId: row.name,
      decision: "move",
      comments: null,
      details: {
        from: row.nodeUrl,
        to: target.url,
        chainIdBefore: row.chainId,
        chainIdAfter: report.chainId,
        heightOnNewNode: report.height,
        source: mapped.source,
      },
      actor: ctx.user,
      at: now,
      path: ctx.path,
      clientIp: ctx.clientAddress,
    });
  });
  await registry.nodeMap!.load();
  await registry.remap();
  const [after] = (await chainRows(ctx)).filter((r) => r.name === row.name);
  return chainOut(registry, after!, new Map([[target.url, report]]), nodes);
}
