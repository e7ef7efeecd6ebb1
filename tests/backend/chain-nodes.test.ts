import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { parseChainNodes, type ChainNodeConfig } from "#backend/kit/chain-nodes.ts";
import chain from "#backend/domains/chain/index.ts";
import { NODE_UNAVAILABLE } from "#backend/domains/chain/remote.ts";
import { eq } from "drizzle-orm";
import { activeUser, call } from "./client.ts";
import { demoTotpSecret, passSecondFactor } from "../support/second-factor.ts";
import {
  callVueapi,
  loginToken,
  migratedPgdata,
  openVueapi,
  ownDatabase,
  registeredUser,
  type Vueapi,
} from "./in-process.ts";
import { operator } from "./security/world.ts";
import { auditLog } from "#backend/db/tables.ts";
import { chainNodeMap } from "#backend/domains/chain/tables.ts";
import { MAP_REFRESH_MS } from "#backend/domains/chain/node-map.ts";
import { engineHolders } from "#backend/kit/engine-owner.ts";

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
    // From the run's migrated copy: migrating a fresh PGlite here cost most of this test's time (30 s under CI load).
    cpSync(await migratedPgdata(), path.join(dataDir, "pgdata"), { recursive: true });
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
    // Two services opened and closed one after the other: more than the usual 30 s on a loaded machine.
  }, 90_000);

  it("lists each chain with its node, what the node reports and where the mapping comes from", async () => {
    const list = await call("/sys/ops/chainNodes/list", {}, await operator());
    expect(list.code, JSON.stringify(list)).toBe(0);
    expect(list.data.nodes.map((n: { url: string }) => n.url)).toEqual(nodes.map((n) => n.url));
    expect(JSON.stringify(list.data)).not.toMatch(/treasury|0x[0-9a-f]{64}/i);
    for (const name of ["open-alliance", "test-network"]) {
      const row = list.data.chains.find((c: { name: string }) => c.name === name);
      const node = nodes.find((n) => n.chains.includes(name))!;
      expect(row, name).toMatchObject({ nodeUrl: node.url, source: "file", chainId: await chainIdOf(node.url) });
      expect(row.height, name).toBeGreaterThanOrEqual(0);
    }
  });

  it("refuses a non-operator, and an unknown node or chain with a 4xx", async () => {
    const user = (await activeUser("mapuser")).token;
    const refused = await call(
      "/sys/ops/chainNodes/move",
      { chain: "open-alliance", nodeUrl: nodes[0]!.url, confirmName: "open-alliance" },
      user,
    );
    expect(refused.code).toBe(4);
    expect((await call("/sys/ops/chainNodes/list", {}, user)).code).toBe(4);
    const ops = await operator();
    for (const [body, field] of [
      [{ chain: "open-alliance", nodeUrl: "http://127.0.0.1:9", confirmName: "open-alliance" }, "nodeUrl"],
      [{ chain: "open-alliance", nodeUrl: nodes[2]!.url, confirmName: "open-allianc" }, "confirmName"],
    ] as const) {
      const res = await fetch(`${inject("baseUrl")}/vueapi/sys/ops/chainNodes/move`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${ops}` },
        body: JSON.stringify(body),
      });
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      const reply = (await res.json()) as { code: number; data: { fieldErrors: Record<string, string[]> } };
      expect(reply.code).not.toBe(0);
      expect(Object.keys(reply.data.fieldErrors), JSON.stringify(reply)).toEqual([field]);
    }
    const unknown = await call(
      "/sys/ops/chainNodes/move",
      { chain: "no-such-chain", nodeUrl: nodes[2]!.url, confirmName: "no-such-chain" },
      ops,
    );
    expect(unknown.message).toBe(Msg.NOT_FOUND);
    // Nothing moved: open-alliance is still the file's, on its node.
    const after = await call("/sys/ops/chainNodes/list", {}, ops);
    expect(after.data.chains.find((c: { name: string }) => c.name === "open-alliance")).toMatchObject({
      source: "file",
      nodeUrl: nodes.find((n) => n.chains.includes("open-alliance"))!.url,
    });
  });

  describe("the mapping table (a database of its own)", () => {
    let service: Vueapi;
    let ops: string;
    let vars: Record<string, string | undefined>;
    const pool = nodes.filter((n) => n.chains.includes("*"));
    const name = `map-${Date.now().toString(36)}`;

    it("seeds the file's chains, keeps an operator's row over the file, and drops the rows the file no longer names", async () => {
      const databaseUrl = await ownDatabase(process.env.DATABASE_URL);
      const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-chain-map-"));
      vars = {
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        CHAIN_NODES: file,
        DEMO: "0",
        PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
        TEST_CAPTCHA: "MAP1",
      };
      service = await openVueapi("chain-map", vars);
      const rows = await service.services.db.select().from(chainNodeMap);
      expect(rows.map((r) => [r.chainName, r.nodeUrl, r.source]).sort()).toEqual(
        nodes.flatMap((n) => n.chains.filter((c) => c !== "*").map((c) => [c, n.url, "file"])).sort(),
      );
      // An operator's row for test-network, and a file that now names open-alliance nowhere: after a restart the
      // operator's row stands and open-alliance's file row is gone (it stays on the node it was given).
      await service.services.db
        .update(chainNodeMap)
        .set({ source: "operator", nodeUrl: pool[0]!.url, setBy: "someone" })
        .where(eq(chainNodeMap.chainName, "test-network"));
      await service.close();
      const edited = nodes.map((n) => ({ ...n, chains: n.chains.filter((c) => c !== "open-alliance") }));
      const editedFile = path.join(dataDir, "chain-nodes-edited.json");
      writeFileSync(editedFile, JSON.stringify({ nodes: edited.filter((n) => n.chains.length) }));
      service = await openVueapi("chain-map", { ...vars, CHAIN_NODES: editedFile });
      const again = await service.services.db.select().from(chainNodeMap);
      expect(again.map((r) => [r.chainName, r.nodeUrl, r.source])).toEqual([
        ["test-network", pool[0]!.url, "operator"],
      ]);
      expect(chain.api.chain(service.services, "test-network").chainId).toBe(await chainIdOf(pool[0]!.url));
      await service.close();
      // The file as it was: its row for open-alliance comes back; test-network stays the operator's.
      service = await openVueapi("chain-map", vars);
      const third = await service.services.db.select().from(chainNodeMap);
      expect(third.map((r) => [r.chainName, r.source]).sort()).toEqual([
        ["open-alliance", "file"],
        ["test-network", "operator"],
      ]);
      const { userName, password } = await registeredUser(service, "mapops", { role: "operator" });
      ops = await loginToken(service, userName, password);
    });

    it("moves a chain to another node after the typed confirmation: the next call lands there, audited", async () => {
      expect(pool.length).toBeGreaterThanOrEqual(2);
      await chain.api.createChain(service.services, { name, purpose: "consortium" });
      // A second process on the same database, with the chain open: it follows the move within a few seconds.
      const second = await openVueapi("chain-map-2", {
        ...vars,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "bsn-chain-map-2-")),
      });
      await chain.api.createChain(second.services, { name, purpose: "consortium" });
      const listed = await callVueapi(service, "/sys/ops/chainNodes/list", {}, ops);
      const before = listed.data.chains.find((c: { name: string }) => c.name === name);
      expect(before).toMatchObject({ source: "pool" });
      const from = pool.find((n) => n.url === before.nodeUrl)!;
      const to = pool.find((n) => n.url !== before.nodeUrl)!;
      const moved = await callVueapi(
        service,
        "/sys/ops/chainNodes/move",
        { chain: name, nodeUrl: to.url, confirmName: name },
        ops,
      );
      expect(moved.code, JSON.stringify(moved)).toBe(0);
      expect(moved.data).toMatchObject({ name, nodeUrl: to.url, source: "operator", chainId: await chainIdOf(to.url) });
      // The next call lands on the new node: its chain id, and a transfer found there, not on the old node.
      expect(Number(await chain.api.request(service.services, name, { method: "eth_chainId" }))).toBe(
        await chainIdOf(to.url),
      );
      const address = `0x${"5a".repeat(20)}`;
      const hash = await chain.api.fund(service.services, name, address, 1000n);
      const receiptOn = async (url: string) =>
        (
          (await (
            await fetch(url, {
              method: "POST",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getTransactionReceipt", params: [hash] }),
            })
          ).json()) as { result: unknown }
        ).result;
      expect(await receiptOn(to.url)).toBeTruthy();
      expect(await receiptOn(from.url)).toBeNull();
      await expect
        .poll(() => chain.api.chain(second.services, name).chainId, { timeout: MAP_REFRESH_MS * 3 })
        .toBe(await chainIdOf(to.url));
      await second.close();
      const [entry] = await service.services.db.select().from(auditLog).where(eq(auditLog.action, "chainNode.move"));
      expect(entry).toMatchObject({ targetType: "chain", targetId: name, decision: "move" });
      expect(entry!.details).toMatchObject({ from: from.url, to: to.url });
      // Moving it to the node it is on, or to a node that is not configured, is refused and changes nothing.
      const same = await callVueapi(
        service,
        "/sys/ops/chainNodes/move",
        { chain: name, nodeUrl: to.url, confirmName: name },
        ops,
      );
      expect(same.data.fieldErrors).toEqual({ nodeUrl: ["chainNodes:validation.sameNode"] });
      const user = await registeredUser(service, "mapuser");
      const refused = await callVueapi(
        service,
        "/sys/ops/chainNodes/move",
        { chain: name, nodeUrl: from.url, confirmName: name },
        await loginToken(service, user.userName, user.password),
      );
      expect(refused.code).toBe(4);
      await service.close();
    });
  });

  it("two processes on one database send for one treasury at once: one takes every nonce, none is refused", async () => {
    // docs/decisions/106: each process would otherwise take the node's next nonce itself, and one of two would lose.
    const databaseUrl = await ownDatabase(process.env.DATABASE_URL);
    const open = (tag: string) =>
      openVueapi(`chain-sends-${tag}`, {
        DATA_DIR: mkdtempSync(path.join(tmpdir(), `bsn-chain-sends-${tag}-`)),
        DATABASE_URL: databaseUrl,
        CHAIN_NODES: file,
        DEMO: "0",
        PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
      });
    const a = await open("a");
    const b = await open("b");
    try {
      // One of the two takes the sends (the first to start), the other forwards them.
      const held = await Promise.all([a, b].map(async (s) => (await engineHolders(s.services))["chain-sends"]?.self));
      expect(held).toEqual([true, false]);
      const addresses = Array.from({ length: 12 }, (_, i) => `0x${(0xc0ffee00 + i).toString(16).padStart(40, "0")}`);
      const hashes = await Promise.all(
        addresses.map((address, i) =>
          chain.api.fund((i % 2 ? a : b).services, "test-network", address, 1000n + BigInt(i)),
        ),
      );
      expect(new Set(hashes).size).toBe(addresses.length);
      const url = nodes.find((n) => n.chains.includes("test-network"))!.url;
      for (const [i, address] of addresses.entries()) {
        const res = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [address, "latest"] }),
        });
        expect(BigInt(((await res.json()) as { result: string }).result), address).toBeGreaterThanOrEqual(
          1000n + BigInt(i),
        );
      }
    } finally {
      await b.close();
      await a.close();
    }
  }, 120_000);

  it("shows the page to an operator (tab, tables, a move refused with a translated error) without JavaScript", async () => {
    const cookie = await operatorPageLogin();
    const get = (url: string) => fetch(`${base()}${url}`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(await (await get("/g/home/operations/FailedJobs")).text()).toContain('href="/g/home/operations/ChainNodes"');
    const page = await get("/g/home/operations/ChainNodes");
    expect(page.status).toBe(200);
    const html = await page.text();
    const oa = nodes.find((n) => n.chains.includes("open-alliance"))!;
    expect(html).toContain(oa.url);
    expect(html).toContain("From the file");
    for (const n of nodes) expect(html).not.toContain(n.treasuryKey.slice(2));
    expect((await get("/g/home/operations/ChainNodes?move=no-such-chain")).status).toBe(404);
    const form = await (await get("/g/home/operations/ChainNodes?move=open-alliance")).text();
    expect(form).toContain("starts from that node&#x27;s own state");
    const post = (fields: Record<string, string>) =>
      fetch(`${base()}/g/home/operations/ChainNodes?move=open-alliance`, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "move", chain: "open-alliance", ...fields }),
        redirect: "manual",
      });
    const mistyped = await post({ nodeUrl: nodes[2]!.url, confirmName: "open-allianc" });
    expect(mistyped.status).toBe(400);
    expect(await mistyped.text()).toContain("Type the name exactly as it is shown.");
    const unknown = await post({ nodeUrl: "http://127.0.0.1:9", confirmName: "open-alliance" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("That node is not configured in CHAIN_NODES.");
    expect((await post({ intent: "delete" })).status).toBe(400);
  });
});

const base = () => inject("baseUrl");

/** The demo operator's session through the login form and the second step, as a browser without JavaScript. */
async function operatorPageLogin(): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) jar.set(c.split("=")[0]!, c.split(";")[0]!);
  };
  const cookie = () => [...jar.values()].join("; ");
  const login = await fetch(`${base()}/g/main/Login/Logins`);
  keep(login);
  const captchaKey = (await login.text()).match(/name="captchaKey" value="([^"]+)"/)?.[1];
  const password = await fetch(`${base()}/g/main/Login/Logins`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie() },
    body: new URLSearchParams({
      username: "demooperator",
      password: "Demo12!@pass",
      captchaKey: captchaKey!,
      captcha: inject("testCaptcha"),
    }),
    redirect: "manual",
  });
  expect(password.headers.get("location")).toMatch(/TwoFactor/);
  keep(password);
  await passSecondFactor(demoTotpSecret("demooperator")!, async (code) => {
    const res = await fetch(`${base()}/g/main/Login/TwoFactor`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie() },
      body: new URLSearchParams({ intent: "verify", code }),
      redirect: "manual",
    });
    if (res.status !== 302) return { code: 1, message: /already used/.test(await res.text()) ? "MSG_21003" : "no" };
    keep(res);
    return { code: 0, message: "" };
  });
  return cookie();
}
