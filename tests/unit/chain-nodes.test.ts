import { describe, expect, it } from "vitest";
import { namedNode, parseChainNodes, poolNodes, type ChainNodeConfig } from "#backend/kit/chain-nodes.ts";
import { readBackendEnv } from "#backend/env.ts";

// CHAIN_NODES (docs/decisions/094): the file's rules, and CHAIN_RPC_URL as its short form.

const KEY = `0x${"ab".repeat(32)}`;
const file = (nodes: unknown) => JSON.stringify({ nodes });

describe("CHAIN_NODES", () => {
  it("maps named chains to their node and keeps every pool node", () => {
    const nodes = parseChainNodes(
      file([
        { url: "http://a:8545", treasuryKey: KEY, chains: ["open-alliance"] },
        { url: "http://b:8545", treasuryKey: KEY, chains: ["*"] },
        { url: "http://c:8545", treasuryKey: KEY, chains: ["*", "test-network"] },
      ]),
    ) as ChainNodeConfig[];
    expect(namedNode(nodes, "open-alliance")?.url).toBe("http://a:8545");
    expect(namedNode(nodes, "test-network")?.url).toBe("http://c:8545");
    expect(namedNode(nodes, "service-7")).toBeUndefined();
    expect(poolNodes(nodes).map((n) => n.url)).toEqual(["http://b:8545", "http://c:8545"]);
  });

  it.each([
    { text: "not json", problem: /not JSON/ },
    { text: file([]), problem: /nodes/ },
    { text: file([{ url: "ftp://a", treasuryKey: KEY, chains: ["*"] }]), problem: /http/ },
    { text: file([{ url: "http://a", treasuryKey: "0x12", chains: ["*"] }]), problem: /private key/ },
    { text: file([{ url: "http://a", treasuryKey: KEY, chains: ["Open Alliance"] }]), problem: /chain name/ },
    {
      text: file([
        { url: "http://a", treasuryKey: KEY, chains: ["open-alliance"] },
        { url: "http://b", treasuryKey: KEY, chains: ["open-alliance"] },
      ]),
      problem: /named by two nodes/,
    },
  ])("refuses $text", ({ text, problem }) => {
    const parsed = parseChainNodes(text);
    expect("problem" in parsed && parsed.problem).toMatch(problem);
  });

  it("reads CHAIN_RPC_URL as one node serving every chain, and refuses both at once", () => {
    const env = readBackendEnv({ CHAIN_RPC_URL: "http://node:8545", CHAIN_TREASURY_KEY: KEY, DEMO: "1" });
    expect(env.chain).toEqual({ kind: "nodes", nodes: [{ url: "http://node:8545", treasuryKey: KEY, chains: ["*"] }] });
    expect(() =>
      readBackendEnv({
        CHAIN_RPC_URL: "http://node:8545",
        CHAIN_TREASURY_KEY: KEY,
        CHAIN_NODES: "/nowhere.json",
        DEMO: "1",
      }),
    ).toThrow(/CHAIN_NODES/);
  });
});
