import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { parseChainNodes, type ChainNodeConfig } from "#backend/kit/chain-nodes.ts";
import chain from "#backend/domains/chain/index.ts";
import { NODE_UNAVAILABLE } from "#backend/domains/chain/remote.ts";
import { call } from "./client.ts";
import { openVueapi } from "./in-process.ts";
import { operator } from "./security/world.ts";

// docs/decisions/094: the chains on real EVM nodes by URL (CHAIN_NODES), in the test command's chain-node run
// (four Hardhat nodes, scripts/hardhat-nodes.sh). Without CHAIN_NODES (the other stages) the file skips itself:
// the embedded engine is tested by chain-rpc.test.ts and the chain-facing suites.

const file = process.env.CHAIN_NODES;
const nodes = file ? (parseChainNodes(readFileSync(file, "utf8")) as ChainNodeConfig[]) : [];

async function chainIdOf(url: string): Promise<number> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
  });
  return Number(((await res.json()) as { result: string }).result);
}

describe.skipIf(!file)("chains on nodes by URL (CHAIN_NODES)", () => {
  it("serves each named chain from its node and the chains made at run time from the pool", async () => {
    const health = (await (await fetch(`${inject("baseUrl")}/healthz`)).json()) as any;
    for (const name of ["open-alliance", "test-network"]) {
      const node = nodes.find((n) => n.chains.includes(name))!;
      expect(health.chain.chains[name].chainId, name).toBe(await chainIdOf(node.url));
      expect(health.chain.chains[name].unreachable).toBeUndefined();
    }
    const pool = await Promise.all(nodes.filter((n) => n.chains.includes("*")).map((n) => chainIdOf(n.url)));
    const made = Object.entries(health.chain.chains).filter(([name]) => !/^(open-alliance|test-network)$/.test(name));
    for (const [name, h] of made) expect(pool, name).toContain((h as { chainId: number }).chainId);
  });

  it("refuses to reset the test network, which only its node can start afresh", async () => {
    const ops = await operator();
    const refused = await call("/sys/ops/testNetwork/reset", { confirmName: "test-network" }, ops);
    expect(refused.message).toBe(Msg.TEST_NETWORK_EXTERNAL);
  });

  it("starts again while a chain's node is down: that chain says so and its calls are refused, nothing else", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-chain-nodes-"));
    const first = await openVueapi("chain-nodes", { DATA_DIR: dataDir, CHAIN_NODES: file });
    await first.close();
    // The same chains, the test network's node now at an address where nothing listens.
    const down = nodes.map((n) => (n.chains.includes("test-network") ? { ...n, url: "http://127.0.0.1:9" } : n));
    const downFile = path.join(dataDir, "chain-nodes-down.json");
    writeFileSync(downFile, JSON.stringify({ nodes: down }));
    const again = await openVueapi("chain-nodes", { DATA_DIR: dataDir, CHAIN_NODES: downFile });
    try {
      const health = (await again.health()) as any;
      expect(health.chain.chains["test-network"].unreachable).toMatch(/does not answer/);
      expect(health.chain.chains["open-alliance"].unreachable).toBeUndefined();
      await expect(
        chain.api.request(again.services, "test-network", { method: "eth_blockNumber" }),
      ).rejects.toMatchObject({ code: NODE_UNAVAILABLE });
      expect(
        Number(await chain.api.request(again.services, "open-alliance", { method: "eth_blockNumber" })),
      ).toBeGreaterThanOrEqual(0);
    } finally {
      await again.close();
    }
  });
});
