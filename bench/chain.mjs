#!/usr/bin/env node
// The chain's JSON-RPC under load (`npm run bench:chain`; issue 12): eth_call and eth_sendRawTransaction through
// the keyed endpoint /chain/rpc (x-api-key of democompany's demo project), beside a bare JSON endpoint (a
// node:http server answering a fixed JSON-RPC result: the machine's ceiling for a JSON POST). A file of its
// own beside bench/run.mjs: it adds targets without touching that script's output. Also a dedicated network's
// gateway (docs/decisions/046): "gateway eth_call req/s", eth_call through /chain/dedicated/<network> with Basic auth.
import { createServer } from "node:http";
import autocannon from "autocannon";
import { benchEnv, counterAbi, ethCallBody, keyedChain, post } from "./keyed-chain.mjs";
import { benchDir, children, freePort, serve, stop } from "./servers.mjs";
import { createPublicClient, createWalletClient, encodeFunctionData, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** Signed transactions prepared per connection (each connection sends its own sender's, nonce after nonce). */
const TX_PER_CONNECTION = Number(process.env.BENCH_TX_PER_CONNECTION ?? 400);

async function main() {
  const dataDir = benchDir("bsn-bench-chain-");
  const common = benchEnv(dataDir, "bench-chain-secret");
  // Set-up on a test server (test captcha, test-only funding and compiling), measured on a production server.
  const { setup, apiKey, testRpc, chainId, keys, address, bytecode } = await keyedChain({
    dataDir,
    secret: "bench-chain-secret",
    senders: CONNECTIONS + 1,
  });
  const abi = counterAbi;
  // Each connection's sender signs its transactions in advance (nonce 0, 1, …): the bench measures the endpoint, not signing.
  const gasPrice = BigInt((await post(testRpc, { jsonrpc: "2.0", id: 1, method: "eth_gasPrice", params: [] })).result);
  const data = encodeFunctionData({ abi, functionName: "add", args: [1n] });
  const signed = [];
  for (const key of keys.slice(0, CONNECTIONS)) {
    const account = privateKeyToAccount(key);
    const list = [];
    for (let nonce = 0; nonce < TX_PER_CONNECTION; nonce++) {
      list.push(
        await account.signTransaction({
          type: "eip1559",
          chainId,
          nonce,
          to: address,
          data,
          gas: 60_000n,
          maxFeePerGas: gasPrice * 4n,
          maxPriorityFeePerGas: 1_000_000_000n,
        }),
      );
    }
    signed.push(list);
  }
  // A dedicated network (docs/decisions/046) with 2 peers and the same contract, deployed through its gateway.
  const network = "prn-bench";
  const gatewayAuth = `Basic ${Buffer.from("bench:bench123").toString("base64")}`;
  const deployed = await post(`${setup.base}/chain/test-rpc/${network}/dedicated`, {
    peers: 2,
    user: "bench",
    password: "bench123",
  });
  const gatewayUrl = `${setup.base}/chain/dedicated/${network}`;
  const gatewayChain = {
    id: deployed.chainId,
    name: network,
    nativeCurrency: { name: "Gas", symbol: "GAS", decimals: 18 },
    rpcUrls: { default: { http: [gatewayUrl] } },
  };
  const gatewayTransport = http(gatewayUrl, { fetchOptions: { headers: { Authorization: gatewayAuth } } });
  await post(`${setup.base}/chain/test-rpc/${network}/dedicated-fund`, {
    address: privateKeyToAccount(keys[CONNECTIONS]).address,
    wei: (10n ** 18n).toString(),
  });
  const gatewayDeployer = createWalletClient({
    account: privateKeyToAccount(keys[CONNECTIONS]),
    chain: gatewayChain,
    transport: gatewayTransport,
  });
  const gatewayReader = createPublicClient({ chain: gatewayChain, transport: gatewayTransport, pollingInterval: 50 });
  const gatewayCounter = (
    await gatewayReader.waitForTransactionReceipt({
      hash: await gatewayDeployer.deployContract({ abi, bytecode }),
    })
  ).contractAddress;
  await stop(setup.child);

  const product = await serve({ ...common, NODE_ENV: "production" });
  const bareBody = JSON.stringify({ jsonrpc: "2.0", id: 1, result: "0x1" });
  const bare = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "Content-Type": "application/json" }).end(bareBody));
  });
  const barePort = await freePort();
  await new Promise((r) => bare.listen(barePort, "127.0.0.1", r));

  const headers = { "Content-Type": "application/json", "x-api-key": apiKey };
  const callBody = ethCallBody(address);
  let nextSender = 0;
  const targets = [
    [
      "bare JSON endpoint",
      {
        url: `http://127.0.0.1:${barePort}/`,
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: callBody,
      },
    ],
    ["eth_call /chain/rpc", { url: `${product.base}/chain/rpc`, method: "POST", headers, body: callBody }],
    [
      "eth_sendRawTransaction /chain/rpc",
      {
        url: `${product.base}/chain/rpc`,
        method: "POST",
        headers,
        // Each connection (client) sends its own sender's transactions, nonce after nonce, one at a time.
        setupClient(client) {
          const sender = nextSender++ % CONNECTIONS;
          let nonce = 0;
          const next = () =>
            JSON.stringify({
              jsonrpc: "2.0",
              id: nonce + 1,
              method: "eth_sendRawTransaction",
              params: [signed[sender][nonce++]],
            });
          client.setBody(next());
          client.on("response", () => client.setBody(next()));
        },
      },
    ],
    // The network's gateway: HTTP Basic (checked once, then remembered), reads spread over its caught-up peers.
    [
      "gateway eth_call /chain/dedicated",
      {
        url: `${product.base}/chain/dedicated/${network}`,
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: gatewayAuth },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "eth_call",
          params: [{ to: gatewayCounter, data: encodeFunctionData({ abi, functionName: "value" }) }, "latest"],
        }),
      },
    ],
  ];
  const rows = [];
  for (const [name, options] of targets) {
    if (!name.startsWith("eth_send")) await autocannon({ ...options, connections: CONNECTIONS, duration: 2 }); // warm-up (not for transactions: nonces)
    const r = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION });
    rows.push({
      target: name,
      "req/s": Math.round(r.requests.average),
      "p50 ms": r.latency.p50,
      "p99 ms": r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors,
      requests: r.requests.total,
    });
  }
  // Every answered eth_sendRawTransaction must have landed: the counter counts them.
  const answer = await fetch(`${product.base}/chain/rpc`, { method: "POST", headers, body: callBody });
  const landed = Number(BigInt((await answer.json()).result));
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s per target, 127.0.0.1 (chain JSON-RPC)\n`);
  console.table(rows);
  console.log(`transactions landed on the chain: ${landed} (answered: ${rows[2].requests - rows[2].non2xx})`);
  bare.close();
  if (rows.some((r) => r.non2xx || r.errors) || landed < rows[2].requests - rows[2].non2xx) process.exitCode = 1;
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  for (const c of children) c.kill("SIGTERM");
}
