import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import * as x509 from "@peculiar/x509";
import { eq } from "drizzle-orm";
import { createPublicClient, createWalletClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVueapi } from "#backend/index.ts";
import chain from "#backend/domains/chain/index.ts";
import { chainBlocks, chains, dedicatedCertificates, dedicatedNetworks } from "#backend/domains/chain/tables.ts";
import { openVueapi, ownDatabase, type Vueapi } from "./in-process.ts";
import { waitFor } from "../support/wait.ts";

// Issue 17 (docs/decisions/046): a dedicated network of the embedded provisioner, its nodes, CA and gateway,
// in this process on PGlite or on the PostgreSQL of DATABASE_URL. The endpoints are reached over real HTTP:
// a loopback server hands each request to the service's endpoint door, as the portal's door route does.

const NAME = "prn-testnet";
let service: Vueapi;
let server: Server;
let base = "";
const auth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
let credentials = { user: "alice", password: "secret123" };

async function rpc(p: string, body: unknown, authorization = auth(credentials.user, credentials.password)) {
  const res = await fetch(`${base}${p}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: authorization },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}
const call = async (p: string, method: string, params: unknown[] = []) => {
  const r = await rpc(p, { jsonrpc: "2.0", id: 1, method, params });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.error, JSON.stringify(r.body)).toBeUndefined();
  return r.body.result;
};
const networks = () => chain.api.networks;
const deps = () => service.services;

beforeAll(async () => {
  service = await openVueapi("dedicated", {
    DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
    PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
    DEMO: "0",
  });
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
        const response = await service.serveEndpoint(
          new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }),
        );
        res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
        res.end(Buffer.from(await response.arrayBuffer()));
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  await service?.close();
});

describe("a dedicated network of the embedded provisioner", () => {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  const receiver = privateKeyToAccount(generatePrivateKey()).address;

  it(
    "deploys with 2 peers: every node runs, each certificate verifies against the network's CA, and deploying again changes nothing",
    { timeout: 120_000 },
    async () => {
      const status = await networks().deploy(deps(), { name: NAME, peers: 2, consensus: "raft", ...credentials });
      expect(status).toMatchObject({ name: NAME, state: "running", consensus: "raft", peers: 2 });
      expect(status.nodes.map((n) => [n.name, n.type, n.status])).toEqual([
        ["orderer", 3, "running"],
        ["peer-1", 1, "running"],
        ["peer-2", 1, "running"],
        ["gateway", 2, "running"],
        ["ca", 4, "running"],
      ]);
      expect(status.nodes.find((n) => n.name === "gateway")!.endpoint).toBe(`/chain/dedicated/${NAME}`);
      expect(status.nodes.find((n) => n.name === "peer-1")!.endpoint).toBe(`/chain/dedicated/${NAME}/nodes/peer-1`);
      expect(status.nodes.find((n) => n.name === "orderer")!.bytesUsed).toBeGreaterThan(0);
      const [registry] = await deps().db.select().from(chains).where(eq(chains.name, NAME));
      expect(registry).toMatchObject({ purpose: "dedicated", chainId: status.chainId });
      expect(chain.api.chains(deps()).map((c) => c.name)).not.toContain(NAME);

      const ca = new x509.X509Certificate(status.caCertificatePem);
      expect(await ca.verify({ signatureOnly: true })).toBe(true);
      for (const node of status.nodes) {
        expect(node.certificate, node.name).not.toBeNull();
        if (node.name === "ca") continue;
        const [row] = await deps()
          .db.select()
          .from(dedicatedCertificates)
          .where(eq(dedicatedCertificates.node, node.name));
        const cert = new x509.X509Certificate(row!.certificatePem);
        expect(cert.subject).toContain(`CN=${node.name}.${NAME}`);
        expect(cert.issuer).toBe(ca.subject);
        expect(await cert.verify({ publicKey: ca.publicKey, date: new Date() })).toBe(true);
        expect(node.certificate!.fingerprint).toBe(Buffer.from(await cert.getThumbprint("SHA-256")).toString("hex"));
      }
      const again = await networks().deploy(deps(), { name: NAME, peers: 2, consensus: "raft", ...credentials });
      expect(again.caCertificatePem).toBe(status.caCertificatePem);
      expect(again.chainId).toBe(status.chainId);
      expect(await networks().status(deps(), "prn-nosuch")).toBeNull();
    },
  );

  it("the gateway answers with the right credentials only (HTTP Basic), and serves the CA certificate", async () => {
    expect(Number(await call(`/chain/dedicated/${NAME}`, "eth_blockNumber"))).toBeGreaterThanOrEqual(0);
    const wrong = await rpc(
      `/chain/dedicated/${NAME}`,
      { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" },
      auth(credentials.user, "nope"),
    );
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe(`Basic realm="${NAME}", charset="UTF-8"`);
    expect(
      (await rpc(`/chain/dedicated/${NAME}`, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" }, "")).status,
    ).toBe(401);
    expect(
      (
        await rpc(
          `/chain/dedicated/${NAME}`,
          { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" },
          auth("mallory", credentials.password),
        )
      ).status,
    ).toBe(401);
    expect(
      (await rpc(`/chain/dedicated/prn-nosuch`, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" })).status,
    ).toBe(404);
    expect(
      (await rpc(`/chain/dedicated/${NAME}/nodes/peer-9`, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" })).status,
    ).toBe(404);
    const batch = await rpc(`/chain/dedicated/${NAME}`, [
      { jsonrpc: "2.0", id: 1, method: "eth_chainId" },
      { jsonrpc: "2.0", id: 2, method: "net_version" },
    ]);
    expect(batch.body.map((r: any) => r.id)).toEqual([1, 2]);
    const pem = await fetch(`${base}/chain/dedicated/${NAME}/ca`, {
      headers: { Authorization: auth(credentials.user, credentials.password) },
    });
    expect(pem.status).toBe(200);
    expect(await pem.text()).toBe((await networks().status(deps(), NAME))!.caCertificatePem);
    expect((await fetch(`${base}/chain/dedicated/${NAME}/ca`)).status).toBe(401);
    // The api answers what the HTTP gateway answers (the portal's "try it" form).
    expect(
      await networks().gateway(
        deps(),
        NAME,
        credentials,
        JSON.stringify({ jsonrpc: "2.0", id: 7, method: "eth_chainId" }),
      ),
    ).toEqual({
      status: 200,
      body: { jsonrpc: "2.0", id: 7, result: `0x${(await networks().status(deps(), NAME))!.chainId.toString(16)}` },
    });
    expect((await networks().gateway(deps(), NAME, { ...credentials, password: "x" }, "{}")).status).toBe(401);
  });

  it("a transaction sent through the gateway with viem appears on every peer", { timeout: 120_000 }, async () => {
    await networks().fund(deps(), NAME, account.address, parseEther("10"));
    const chainId = (await networks().status(deps(), NAME))!.chainId;
    const url = `${base}/chain/dedicated/${NAME}`;
    const definition = {
      id: chainId,
      name: NAME,
      nativeCurrency: { name: "Gas", symbol: "GAS", decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    } as const;
    const transport = http(url, {
      fetchOptions: { headers: { Authorization: auth(credentials.user, credentials.password) } },
    });
    const wallet = createWalletClient({ account, chain: definition, transport });
    const reader = createPublicClient({ chain: definition, transport, pollingInterval: 50 });
    const hash = await wallet.sendTransaction({ to: receiver, value: parseEther("1.5") });
    const receipt = await reader.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    for (const peer of ["peer-1", "peer-2"]) {
      const balance = await waitFor(
        `${peer}'s balance`,
        () => call(`/chain/dedicated/${NAME}/nodes/${peer}`, "eth_getBalance", [receiver, "latest"]),
        (b) => BigInt(b) === parseEther("1.5"),
      );
      expect(BigInt(balance)).toBe(parseEther("1.5"));
      expect(Number(await call(`/chain/dedicated/${NAME}/nodes/${peer}`, "eth_blockNumber"))).toBeGreaterThanOrEqual(
        Number(receipt.blockNumber),
      );
      expect((await call(`/chain/dedicated/${NAME}/nodes/${peer}`, "eth_getTransactionReceipt", [hash])).status).toBe(
        "0x1",
      );
    }
    const status = (await networks().status(deps(), NAME))!;
    expect(status.nodes.find((n) => n.name === "gateway")!.requestsPerMinute).toBeGreaterThan(0);
    expect(status.nodes.find((n) => n.name === "orderer")!.height).toBe(Number(receipt.blockNumber));
  });

  it("scales to 3 peers: the new peer starts and catches up", { timeout: 120_000 }, async () => {
    // A few more blocks for the new peer to import.
    for (let i = 0; i < 3; i++) await networks().fund(deps(), NAME, receiver, 1n);
    const status = await networks().scale(deps(), NAME, 3);
    expect(status.peers).toBe(3);
    expect(status.nodes.find((n) => n.name === "peer-3")).toMatchObject({
      type: 1,
      endpoint: `/chain/dedicated/${NAME}/nodes/peer-3`,
    });
    expect(status.nodes.find((n) => n.name === "peer-3")!.certificate!.subject).toContain(`CN=peer-3.${NAME}`);
    const caught = await waitFor(
      "peer-3's lag",
      async () => (await networks().status(deps(), NAME))!.nodes.find((n) => n.name === "peer-3")!,
      (n) => n.lag === 0 && n.status === "running",
    );
    expect(caught.height).toBe(status.nodes.find((n) => n.name === "orderer")!.height);
    expect(await call(`/chain/dedicated/${NAME}/nodes/peer-3`, "eth_getBalance", [receiver, "latest"])).toBe(
      await call(`/chain/dedicated/${NAME}/nodes/orderer`, "eth_getBalance", [receiver, "latest"]),
    );
    await expect(networks().scale(deps(), NAME, 2)).rejects.toThrow(/grows only/);
  });

  it("setCredentials changes what the gateway accepts", async () => {
    await networks().setCredentials(deps(), NAME, { user: "bob", password: "Newpass99" });
    expect((await rpc(`/chain/dedicated/${NAME}`, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" })).status).toBe(
      401,
    );
    credentials = { user: "bob", password: "Newpass99" };
    expect((await rpc(`/chain/dedicated/${NAME}`, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" })).status).toBe(
      200,
    );
  });

  it("a restart keeps blocks, balances, credentials, peers and certificates", { timeout: 180_000 }, async () => {
    const before = (await networks().status(deps(), NAME))!;
    const balance = await call(`/chain/dedicated/${NAME}/nodes/peer-3`, "eth_getBalance", [receiver, "latest"]);
    const env = service.services.env;
    await service.close();
    service = await createVueapi(env);
    const after = (await networks().status(deps(), NAME))!;
    expect(after).toMatchObject({
      state: "running",
      peers: 3,
      chainId: before.chainId,
      caCertificatePem: before.caCertificatePem,
    });
    expect(after.nodes.map((n) => n.certificate?.fingerprint)).toEqual(
      before.nodes.map((n) => n.certificate?.fingerprint),
    );
    expect(after.nodes.find((n) => n.name === "orderer")!.height).toBe(
      before.nodes.find((n) => n.name === "orderer")!.height,
    );
    for (const peer of ["peer-1", "peer-2", "peer-3"]) {
      expect(
        await waitFor(
          `${peer} after the restart`,
          () => call(`/chain/dedicated/${NAME}/nodes/${peer}`, "eth_getBalance", [receiver, "latest"]),
          (b) => b === balance,
        ),
      ).toBe(balance);
    }
    expect(Number(await call(`/chain/dedicated/${NAME}`, "eth_blockNumber"))).toBe(
      before.nodes.find((n) => n.name === "orderer")!.height,
    );
    const height = before.nodes.find((n) => n.name === "orderer")!.height;
    expect(((await service.health()).chain as any).dedicated[NAME]).toEqual({
      state: "running",
      height,
      peers: [height, height, height],
    });
    expect(
      (
        await rpc(
          `/chain/dedicated/${NAME}`,
          { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" },
          auth("alice", "secret123"),
        )
      ).status,
    ).toBe(401);
    // Still writes after the restart.
    await networks().fund(deps(), NAME, receiver, 5n);
    expect(BigInt(await call(`/chain/dedicated/${NAME}/nodes/orderer`, "eth_getBalance", [receiver, "latest"]))).toBe(
      BigInt(balance) + 5n,
    );
  });

  it("stop answers 503 and keeps the state; resume answers again", { timeout: 120_000 }, async () => {
    await networks().stop(deps(), NAME);
    expect((await rpc(`/chain/dedicated/${NAME}`, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" })).status).toBe(
      503,
    );
    expect(
      (await rpc(`/chain/dedicated/${NAME}/nodes/peer-1`, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" })).status,
    ).toBe(503);
    const stopped = (await networks().status(deps(), NAME))!;
    expect(stopped.state).toBe("stopped");
    expect(stopped.nodes.every((n) => n.status === "stopped")).toBe(true);
    const resumed = await networks().resume(deps(), NAME);
    expect(resumed.state).toBe("running");
    expect(Number(await call(`/chain/dedicated/${NAME}`, "eth_blockNumber"))).toBe(
      stopped.nodes.find((n) => n.name === "orderer")!.height,
    );
  });

  it("remove: 404, the directory and the rows are gone, and the name is free again", { timeout: 120_000 }, async () => {
    const { chainId } = (await networks().status(deps(), NAME))!;
    const dir = path.join(service.services.env.dataDir, "dedicated", NAME);
    expect(existsSync(dir)).toBe(true);
    await networks().remove(deps(), NAME);
    expect((await rpc(`/chain/dedicated/${NAME}`, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" })).status).toBe(
      404,
    );
    expect(existsSync(dir)).toBe(false);
    expect(await networks().status(deps(), NAME)).toBeNull();
    expect(await deps().db.select().from(dedicatedNetworks).where(eq(dedicatedNetworks.name, NAME))).toEqual([]);
    expect(await deps().db.select().from(chainBlocks).where(eq(chainBlocks.chainId, chainId))).toEqual([]);
    const fresh = await networks().deploy(deps(), {
      name: NAME,
      peers: 1,
      consensus: "pbft",
      user: "carol",
      password: "abc123",
    });
    expect(fresh).toMatchObject({ peers: 1, consensus: "pbft" });
    expect(fresh.nodes.find((n) => n.name === "orderer")!.height).toBe(0);
    await networks().remove(deps(), NAME);
  });
});
