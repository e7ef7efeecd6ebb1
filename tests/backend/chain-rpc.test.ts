import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { JsonRpcProvider, Wallet } from "ethers";
import { createPublicClient, createWalletClient, http, parseEventLogs, type Abi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { callAt, loginAt, startedDataDir, startServer, stopServer, type Server } from "./server-process.ts";
import { COUNTER_SOURCE as SOURCE } from "./fixtures/counter-contract.ts";

// docs/decisions/025: the embedded chain through its JSON-RPC over HTTP (the test-only endpoint), with viem and
// ethers unchanged; its state survives a restart, and an acknowledged transaction survives kill -9.
// One server on its own DATA_DIR: on the embedded database by default, from a copy of a data directory a server has
// started on before (its first start's migrations and demo seeding are not what is tested); with DATABASE_URL, on a
// fresh database of that PostgreSQL server (its own, since the test server's database holds the test server's chains).

async function rpc(server: Server, chain: string, body: unknown) {
  const res = await fetch(`${server.baseUrl}/chain/test-rpc/${chain}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** A fresh database on the PostgreSQL server of DATABASE_URL, and how to drop it. */
async function freshDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bsn_chain_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return {
    url: fresh.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

describe("the embedded chain over JSON-RPC", () => {
  let server: Server | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-chain-"));
  const env: Record<string, string> = { TEST_FIXTURES: "1" };
  let drop = async () => {};
  beforeAll(async () => {
    if (!process.env.DATABASE_URL) {
      await startedDataDir(dataDir);
      return;
    }
    const db = await freshDatabase(process.env.DATABASE_URL);
    drop = db.drop;
    Object.assign(env, {
      DATABASE_URL: db.url,
      SESSION_SECRET: "chain-rpc-test-secret",
      PAYMENT_WEBHOOK_SECRET: "chain-rpc-test-webhook",
    });
  });
  afterAll(async () => {
    await stopServer(server, "SIGKILL");
    await drop();
  });

  it(
    "viem deploys a compiled contract, calls it, sends a transaction and reads its receipt and logs; ethers too; state survives restart and kill -9",
    { timeout: 400_000 },
    async () => {
      server = await startServer(dataDir, env);
      const health = (await (await fetch(`${server.baseUrl}/healthz`)).json()) as any;
      expect(health.chain.chains["open-alliance"]).toMatchObject({ height: expect.any(Number), pending: 0 });
      expect(health.chain.chains["test-network"].chainId).not.toBe(health.chain.chains["open-alliance"].chainId);

      // JSON-RPC errors
      expect(
        (await rpc(server, "test-network", { jsonrpc: "2.0", id: 1, method: "eth_nothing" })).body.error.code,
      ).toBe(-32601);
      expect(
        (await rpc(server, "test-network", { jsonrpc: "2.0", id: 2, method: "eth_getBalance", params: ["0x12"] })).body
          .error.code,
      ).toBe(-32602);
      const batch = await rpc(server, "test-network", [
        { jsonrpc: "2.0", id: 3, method: "eth_chainId" },
        { jsonrpc: "2.0", id: 4, method: "net_version" },
      ]);
      expect(batch.body.map((r: any) => r.id)).toEqual([3, 4]);
      expect(Number(batch.body[0].result)).toBe(Number(batch.body[1].result));
      expect((await rpc(server, "no-such-chain", { jsonrpc: "2.0", id: 1, method: "eth_chainId" })).status).toBe(404);

      // Gas from the treasury (api.fund, through the test endpoint).
      const account = privateKeyToAccount(generatePrivateKey());
      const funded = await fetch(`${server.baseUrl}/chain/test-rpc/test-network/fund`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ address: account.address, wei: (10n ** 18n).toString() }),
      });
      expect(funded.status, await funded.clone().text()).toBe(200);

      const url = `${server.baseUrl}/chain/test-rpc/test-network`;
      const chainId = Number(batch.body[0].result);
      const chain = {
        id: chainId,
        name: "test-network",
        nativeCurrency: { name: "Gas", symbol: "GAS", decimals: 18 },
        rpcUrls: { default: { http: [url] } },
      } as const;
      // Each restart listens on another port: the clients follow the current server.
      const transport = http(undefined, {
        fetchFn: (input, init) => fetch(String(input).replace(/^http:\/\/127\.0\.0\.1:\d+/, server!.baseUrl), init),
      });
      const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 });
      const wallet = createWalletClient({ account, chain, transport, pollingInterval: 50 });
      expect(await publicClient.getBalance({ address: account.address })).toBe(10n ** 18n);

      const compiled = (await (
        await fetch(`${url}/compile`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ "Counter.sol": SOURCE }),
        })
      ).json()) as any;
      expect(compiled.ok, JSON.stringify(compiled.errors)).toBe(true);
      const counter = compiled.contracts.find((c: any) => c.name === "Counter");
      const abi = counter.abi as Abi;
      const deployHash = await wallet.deployContract({ abi, bytecode: counter.bytecode });
      const deployed = await publicClient.waitForTransactionReceipt({ hash: deployHash });
      expect(deployed.status).toBe("success");
      const address = deployed.contractAddress!;
      expect((await publicClient.getCode({ address }))?.length).toBeGreaterThan(2);

      const addHash = await wallet.writeContract({ address, abi, functionName: "add", args: [5n] });
      const added = await publicClient.waitForTransactionReceipt({ hash: addHash });
      expect(added.gasUsed).toBeGreaterThan(21_000n);
      const [event] = parseEventLogs({ abi, logs: added.logs }) as any[];
      expect(event.eventName).toBe("Counted");
      expect(event.args.value).toBe(5n);
      expect(await publicClient.readContract({ address, abi, functionName: "value" })).toBe(5n);
      const logs = await publicClient.getLogs({ address, fromBlock: 0n });
      expect(logs.map((l) => l.transactionHash)).toEqual([addHash]);
      expect((await publicClient.getTransaction({ hash: addHash })).from.toLowerCase()).toBe(
        account.address.toLowerCase(),
      );
      // A revert answers code 3 with its data, which viem decodes.
      await expect(
        publicClient.simulateContract({ address, abi, functionName: "add", args: [0n], account }),
      ).rejects.toThrow(/zero/);

      // ethers 6, with a static network and no cache (instant mining).
      const provider = new JsonRpcProvider(url, chainId, { staticNetwork: true, cacheTimeout: -1 });
      const signer = new Wallet(generatePrivateKey(), provider);
      const viaEthers = await new Wallet(await fundedKey(server, url), provider).sendTransaction({
        to: signer.address,
        value: 1000n,
      });
      expect((await viaEthers.wait())?.status).toBe(1);
      expect(await provider.getBalance(signer.address)).toBe(1000n);
      provider.destroy();

      const height = await publicClient.getBlockNumber();
      const balance = await publicClient.getBalance({ address: account.address });

      // The demo project's keyed endpoint meters its requests (docs/decisions/026): three calls, counted today.
      const demo = async () => {
        const login = await loginAt(server!, "democompany", "Demo12!@pass");
        expect(login.code, JSON.stringify(login)).toBe(0);
        const token = login.data.token;
        const [project] = (await callAt(server!, "/sys/opc/project/list", { pageSize: 10 }, token)).data.page.rows;
        return { token, projectId: project.projectId as number };
      };
      const before = await demo();
      const apiKey = (
        await callAt(server, "/sys/opc/project/key", { projectId: before.projectId, action: "show" }, before.token)
      ).data.apiKey as string;
      const keyed = await fetch(`${server.baseUrl}/chain/rpc`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "x-api-key": apiKey },
        body: JSON.stringify([1, 2, 3].map((id) => ({ jsonrpc: "2.0", id, method: "eth_blockNumber", params: [] }))),
      });
      expect(keyed.status).toBe(200);
      const metered = (
        await callAt(server, "/sys/opc/project/stats", { projectId: before.projectId, range: "7d" }, before.token)
      ).data;
      expect(metered.rows.find((r: any) => r.method === "eth_blockNumber")).toMatchObject({ requests: 3, calls: 3 });

      // A clean restart keeps height, balances, code and receipts.
      await stopServer(server);
      server = await startServer(dataDir, env);
      expect(await publicClient.getBlockNumber()).toBe(height);
      expect(await publicClient.getBalance({ address: account.address })).toBe(balance);
      expect(await publicClient.readContract({ address, abi, functionName: "value" })).toBe(5n);
      expect((await publicClient.getTransactionReceipt({ hash: addHash })).status).toBe("success");
      // The meter is still there.
      const again = await demo();
      expect(
        (await callAt(server, "/sys/opc/project/stats", { projectId: again.projectId, range: "7d" }, again.token)).data
          .total,
      ).toBe(metered.total);

      // kill -9 right after an acknowledged transaction: it is there after the restart.
      const lastHash = await wallet.writeContract({ address, abi, functionName: "add", args: [2n] });
      await stopServer(server, "SIGKILL");
      server = await startServer(dataDir, env);
      expect((await publicClient.getTransactionReceipt({ hash: lastHash })).status).toBe("success");
      expect(await publicClient.readContract({ address, abi, functionName: "value" })).toBe(7n);
      expect(await publicClient.getBlockNumber()).toBe(height + 1n);

      // Forced replay: kill -9 right after an acknowledged eth_sendRawTransaction, then the engine's own store is
      // lost too (DATA_DIR/chains removed): the chains are rebuilt from the database's log, with that transaction.
      const raw = await wallet.signTransaction(
        await wallet.prepareTransactionRequest({
          to: address,
          data: "0x1003e2d20000000000000000000000000000000000000000000000000000000000000003",
          gas: 100_000n,
        }),
      );
      const sent = (
        await rpc(server, "test-network", { jsonrpc: "2.0", id: 9, method: "eth_sendRawTransaction", params: [raw] })
      ).body;
      expect(sent.result, JSON.stringify(sent)).toMatch(/^0x[0-9a-f]{64}$/);
      await stopServer(server, "SIGKILL");
      rmSync(path.join(dataDir, "chains"), { recursive: true, force: true });
      server = await startServer(dataDir, env);
      expect(server.stderr()).toMatch(/chain test-network: \d+ recorded block\(s\) replayed/);
      const replayed = await publicClient.getTransactionReceipt({ hash: sent.result });
      expect(replayed.status).toBe("success");
      expect(await publicClient.readContract({ address, abi, functionName: "value" })).toBe(10n);
      expect(await publicClient.getBlockNumber()).toBe(height + 2n);
      expect(await publicClient.getBalance({ address: account.address })).toBeLessThan(balance);
    },
  );
});

/** A new key funded with 1 ether by the test network's treasury. */
async function fundedKey(server: Server, url: string): Promise<string> {
  const key = generatePrivateKey();
  const res = await fetch(`${url}/fund`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ address: privateKeyToAccount(key).address, wei: (10n ** 18n).toString() }),
  });
  expect(res.status, `${server.baseUrl}: ${await res.clone().text()}`).toBe(200);
  return key;
}
