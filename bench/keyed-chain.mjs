// The keyed chain endpoint's set-up, shared by the benches that measure `/chain/rpc` (bench/chain.mjs, and
// bench/fabric.ts beside its gateway): a test server on the bench's data directory logs in as democompany, shows
// its demo project's key, funds the bench's senders on open-alliance and deploys a Counter through the test-only
// RPC. The caller stops that server (maybe after more set-up on it) and measures a production server on the same
// data directory.
import { createPublicClient, createWalletClient, encodeFunctionData, http, parseAbi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { demoToken, serve, vueapi } from "./servers.mjs";

export const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Counter { event Counted(address indexed by, uint256 value); uint256 public value; function add(uint256 by) external { value += by; emit Counted(msg.sender, value); } }`;
export const counterAbi = parseAbi(["function value() view returns (uint256)", "function add(uint256 by)"]);

export const post = async (url, body) =>
  (
    await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
  ).json();

/** The env both servers share; the bench measures from one address, which the doors' per-address rates leave alone. */
export const benchEnv = (dataDir, secret) => ({
  DATA_DIR: dataDir,
  SESSION_SECRET: secret,
  DEMO: "1",
  JOBS_INTERVAL_MS: "0",
  RATE_LIMIT_EXEMPT: "127.0.0.1",
});

/**
 * `senders` funded keys (the last deploys the Counter). Answers the running test server, the project key, the
 * test RPC's URL and viem chain, the keys and the Counter's address and bytecode.
 */
export async function keyedChain({ dataDir, secret, senders = 1 }) {
  const setup = await serve({
    ...benchEnv(dataDir, secret),
    NODE_ENV: "test",
    TEST_CAPTCHA: "BENCH1",
    TEST_FIXTURES: "1",
  });
  const token = await demoToken(setup.base, "democompany");
  const [project] = (await vueapi(setup.base, "/sys/opc/project/list", { pageSize: 10 }, token)).page.rows;
  const { apiKey } = await vueapi(
    setup.base,
    "/sys/opc/project/key",
    { projectId: project.projectId, action: "show" },
    token,
  );
  const testRpc = `${setup.base}/chain/test-rpc/open-alliance`;
  const chainId = Number((await post(testRpc, { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] })).result);
  const chain = {
    id: chainId,
    name: "open-alliance",
    nativeCurrency: { name: "Gas", symbol: "GAS", decimals: 18 },
    rpcUrls: { default: { http: [testRpc] } },
  };
  const keys = Array.from({ length: senders }, () => generatePrivateKey());
  for (const key of keys)
    await post(`${testRpc}/fund`, { address: privateKeyToAccount(key).address, wei: (10n ** 18n).toString() });
  const compiled = await post(`${testRpc}/compile`, { "Counter.sol": COUNTER });
  const { bytecode } = compiled.contracts.find((c) => c.name === "Counter");
  const reader = createPublicClient({ chain, transport: http(testRpc), pollingInterval: 50 });
  const deployer = createWalletClient({ account: privateKeyToAccount(keys.at(-1)), chain, transport: http(testRpc) });
  const address = (
    await reader.waitForTransactionReceipt({ hash: await deployer.deployContract({ abi: counterAbi, bytecode }) })
  ).contractAddress;
  return { setup, apiKey, testRpc, chainId, chain, keys, address, bytecode };
}

/** The Counter's value() as a JSON-RPC eth_call body. */
export const ethCallBody = (address) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "eth_call",
    params: [{ to: address, data: encodeFunctionData({ abi: counterAbi, functionName: "value" }) }, "latest"],
  });
