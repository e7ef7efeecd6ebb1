import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TestServiceStatus } from "#contract/test-services-codes.ts";
import { PASSWORD, registration, uniqueName } from "./client.ts";
import { contractPackage } from "./fabric-support.ts";
import { ownDatabase } from "./in-process.ts";
import { startServer, stopServer, type Server } from "./server-process.ts";

/**
 * The dedicated networks and the Fabric peer owned through their leases (issue 32 item 3, docs/decisions/099): two
 * portal processes started separately on one PostgreSQL, each with a DATA_DIR of its own. The first holds every
 * engine; a dedicated network and a Fabric test service are made through the second, which forwards. The holder is
 * killed with -9; the second takes both leases over and serves them from what the database and the file store hold:
 * the network answers at its gateway with its chain id, credentials and blocks, and the chaincode (unpacked again from
 * the file store, since this DATA_DIR never had it) answers with the state committed before the kill and commits more.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const reason = "skipped: DATABASE_URL is unset (processes share an engine only on PostgreSQL; PGlite has one writer)";

type Holder = { holder: string; address: string; epoch: number; self: boolean } | null;
type Engines = Record<string, Holder>;

describe.skipIf(!DATABASE_URL)(`engines taken over on PostgreSQL${DATABASE_URL ? "" : ` (${reason})`}`, () => {
  const dirs: string[] = [];
  let a: Server;
  let b: Server;
  let url: string;
  const dir = () => {
    const made = mkdtempSync(path.join(tmpdir(), "bsn-takeover-engines-"));
    dirs.push(made);
    return made;
  };

  beforeAll(async () => {
    const vars = {
      DATABASE_URL: (url = (await ownDatabase(DATABASE_URL))!),
      SESSION_SECRET: "backend-test-secret",
      PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
      TEST_FIXTURES: "1",
      JOBS_INTERVAL_MS: "200",
      DEMO: "0",
    };
    a = await startServer(dir(), vars);
    b = await startServer(dir(), vars);
  }, 300_000);

  afterAll(async () => {
    await stopServer(b);
    await stopServer(a, "SIGKILL");
    for (const made of dirs) rmSync(made, { recursive: true, force: true });
  });

  const engines = async (server: Server) =>
    ((await (await fetch(`${server.baseUrl}/healthz`)).json()) as { engines?: Engines }).engines ?? {};
  const vueapi = async (server: Server, p: string, body: Record<string, unknown>, token?: string) => {
    const res = await fetch(`${server.baseUrl}/vueapi${p}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ userLanguage: "en", ...body }),
    });
    return (await res.json()) as { code: number; data: any };
  };
  /** A mail's token, from whichever process's outbox sent it (a job may run in either). */
  const fromMail = (to: string, pattern: RegExp): string => {
    for (const server of [a, b]) {
      const outbox = path.join(server.dataDir, "outbox");
      const found = (existsSync(outbox) ? readdirSync(outbox) : [])
        .filter((f) => f.endsWith(".json"))
        .map((f) => JSON.parse(readFileSync(path.join(outbox, f), "utf8")) as { to: string; text: string })
        .find((m) => m.to === to && pattern.test(m.text));
      if (found) return found.text.match(pattern)![1]!;
    }
    throw new Error(`no mail to ${to} matching ${pattern}`);
  };
  const until = async <T>(what: string, ms: number, probe: () => Promise<T | undefined | null | false>) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not in ${ms / 1000} s`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  it("the holder killed with -9: a dedicated network and a Fabric service run on in the other process, with their state", async () => {
    // a started first and holds every engine; b forwards.
    const [ea, eb] = [await engines(a), await engines(b)];
    for (const engine of ["chain", "dedicated", "fabric"]) {
      expect(ea[engine]?.self, engine).toBe(true);
      expect(eb[engine], engine).toMatchObject({ holder: ea[engine]!.holder, self: false });
    }

    // A user, through b.
    const name = uniqueName("tke");
    const captcha = await vueapi(b, "/anon/captcha/create", {});
    expect(
      (
        await vueapi(b, "/anon/user/register", {
          payload: { ...registration(name), captchaKey: captcha.data.captchaKey },
        })
      ).code,
    ).toBe(0);
    const activation = await until("the activation mail", 30_000, async () => {
      try {
        return fromMail(`${name}@example.com`, /UserActivation\?token=([A-Za-z0-9_-]+)/);
      } catch {
        return null;
      }
    });
    expect((await vueapi(b, "/anon/user/activate", { token: activation })).code).toBe(0);
    const loginCaptcha = await vueapi(b, "/anon/captcha/create", {});
    const login = await vueapi(b, "/main/user/login", {
      username: name,
      password: PASSWORD,
      captchaKey: loginCaptcha.data.captchaKey,
      captcha: inject("testCaptcha"),
    });
    expect(login.code, JSON.stringify(login)).toBe(0);
    const token = login.data.token as string;
    const ok = async (server: Server, p: string, body: Record<string, unknown>) => {
      const res = await vueapi(server, p, body, token);
      expect(res.code, `${p}: ${JSON.stringify(res)}`).toBe(0);
      return res.data;
    };
    await ok(b, "/test/fixtures", { grantCents: 100_000 });

    // A dedicated network deployed through b (it runs in a).
    const options = await ok(b, "/sys/prn/options", {});
    const [cloud, region] = (options.clouds as { cloud: string; regions: { nodeId: number; freePeers: number }[] }[])
      .flatMap((c) => c.regions.map((r) => [c.cloud, r] as const))
      .find(([, r]) => r.freePeers >= 2)!;
    const password = "takeover1";
    const project = await ok(b, "/sys/prn/create", {
      name: [...randomBytes(10)].map((x) => String.fromCharCode(97 + (x % 26))).join(""),
      framework: "fisco",
      consensus: "pbft",
      cloud,
      nodeId: region.nodeId,
      nodeCount: 2,
      hostConfig: "c2m4",
      dataCapacityGb: 20,
      cycle: 2,
      authUser: "admin",
      password,
      confirmPassword: password,
      idempotencyKey: `tke${randomBytes(8).toString("hex")}`,
    });
    const running = (server: Server) => async () => {
      const detail = await ok(server, "/sys/prn/detail", { prnProjectId: project.prnProjectId });
      return detail.status === 3 && detail.network?.nodes.every((n: { status: string }) => n.status === "running")
        ? detail
        : null;
    };
    const detail = await until("the dedicated network running", 90_000, running(b));
    const gatewayRpc = async (server: Server, method: string, params: unknown[] = [], pw = password) => {
      const res = await fetch(`${server.baseUrl}${project.gatewayPath}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Authorization: `Basic ${Buffer.from(`admin:${pw}`).toString("base64")}`,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
      return { status: res.status, body: (await res.json()) as { result?: any } };
    };
    const chainId = (await gatewayRpc(b, "eth_chainId")).body.result;
    expect(Number(chainId)).toBe(detail.network.chainId);
    const heightBefore = Number((await gatewayRpc(b, "eth_blockNumber")).body.result);
    const headBefore = (await gatewayRpc(b, "eth_getBlockByNumber", [`0x${heightBefore.toString(16)}`, false])).body
      .result.hash;

    // A Fabric test service deployed through b (its peer runs in a), and three invokes through both processes.
    const zip = contractPackage(
      "counter",
      `  async init(ctx) { await ctx.stub.putState("n", Buffer.from("0")); }
  async get(ctx, key) { return (await ctx.stub.getState(key)).toString(); }
  async put(ctx, key, value) { await ctx.stub.putState(key, Buffer.from(value)); return value; }`,
    );
    const uploaded = (await (
      await fetch(`${b.baseUrl}/vueapi/upload/chaincode`, {
        method: "POST",
        headers: {
          "Content-Type": "application/octet-stream",
          "X-File-Name": "counter.zip",
          Authorization: `Bearer ${token}`,
        },
        body: Buffer.from(zip),
      })
    ).json()) as { code: number; data: { uploadId: string } };
    expect(uploaded.code, JSON.stringify(uploaded)).toBe(0);
    const created = await ok(b, "/sys/testService/create", {
      name: "Takeover counter",
      version: "1.0.0",
      platform: "fabric",
      sourceKind: "package",
      uploadId: uploaded.data.uploadId,
      mainContract: "",
      initParams: "init",
    });
    await ok(b, "/sys/testService/deploy", { testServiceId: created.testServiceId });
    const deployed = await until("the Fabric test service deployed", 120_000, async () => {
      const d = await ok(b, "/sys/testService/detail", { testServiceId: created.testServiceId });
      return d.status !== TestServiceStatus.DEPLOYING ? d : null;
    });
    expect(deployed.status, deployed.failReason ?? "").toBe(TestServiceStatus.DEPLOYED);
    const callOf = (server: Server, mode: string, fn: string, args = "") =>
      ok(server, "/sys/testService/chaincode", { testServiceId: created.testServiceId, mode, fn, args });
    const blocks: number[] = [];
    for (const [i, server] of [b, a, b].entries()) {
      const invoked = await callOf(server, "invoke", "put", `n\n${i + 1}`);
      expect(invoked, JSON.stringify(invoked)).toMatchObject({ status: 200, validationCode: 0 });
      blocks.push(invoked.blockNumber);
    }
    expect((await callOf(b, "query", "get", "n")).payload).toBe("3");
    // b has not run the peer: its DATA_DIR holds no package, which it unpacks after the takeover from the file store.
    expect(existsSync(path.join(b.dataDir, "fabric"))).toBe(false);

    // The chaincode's version as one installed before its zip was kept (migration 0055): no package file, and the
    // install's copy gone; only the upload it came from has its bytes. b finds it by the digest (ADR 099 addendum).
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const installed = await db.query<{ id: number }>(
        "SELECT package_file_id AS id FROM fabric_chaincodes WHERE package_file_id IS NOT NULL",
      );
      expect(installed.rows.length).toBeGreaterThan(0);
      await db.query("UPDATE fabric_chaincodes SET package_file_id = NULL");
      await db.query("DELETE FROM files WHERE id = ANY($1)", [installed.rows.map((r) => r.id)]);
      const upload = await db.query("SELECT 1 FROM files f JOIN fabric_chaincodes c ON f.blob = c.digest");
      expect(upload.rows.length, "the upload's file, with the package's digest").toBeGreaterThan(0);
    } finally {
      await db.end();
    }

    await stopServer(a, "SIGKILL");
    const killedAt = Date.now();
    const taken = await until("both leases taken over by b", 30_000, async () => {
      const now = await engines(b);
      return now.dedicated?.self && now.fabric?.self ? now : null;
    });
    const takenMs = Date.now() - killedAt;
    expect(taken.dedicated!.epoch).toBeGreaterThan(ea.dedicated!.epoch);
    expect(taken.fabric!.epoch).toBeGreaterThan(ea.fabric!.epoch);

    // The network: the same chain, its blocks and credentials, in b now.
    const back = await until("the dedicated network running in b", 60_000, running(b));
    expect(back.network.chainId).toBe(detail.network.chainId);
    const served = await until("the network's gateway answering", 30_000, async () => {
      const r = await gatewayRpc(b, "eth_chainId");
      return r.status === 200 && r.body.result ? r : null;
    });
    expect(served.body.result).toBe(chainId);
    expect(Number((await gatewayRpc(b, "eth_blockNumber")).body.result)).toBeGreaterThanOrEqual(heightBefore);
    expect(
      (await gatewayRpc(b, "eth_getBlockByNumber", [`0x${heightBefore.toString(16)}`, false])).body.result.hash,
    ).toBe(headBefore);
    expect((await gatewayRpc(b, "eth_blockNumber", [], "wrongpass1")).status).toBe(401);

    // The chaincode: the state committed before the kill, and the next invoke in the next block.
    const servedFabricMs = await until("the chaincode answering in b", 60_000, async () => {
      const res = await vueapi(
        b,
        "/sys/testService/chaincode",
        { testServiceId: created.testServiceId, mode: "query", fn: "get", args: "n" },
        token,
      );
      return res.code === 0 && res.data.payload === "3" ? Date.now() - killedAt : null;
    });
    const after = await callOf(b, "invoke", "put", "n\n4");
    expect(after, JSON.stringify(after)).toMatchObject({ status: 200, validationCode: 0 });
    expect(after.blockNumber).toBe(blocks[blocks.length - 1]! + 1);
    expect((await callOf(b, "query", "get", "n")).payload).toBe("4");
    // The version now has a package file of its own again, a copy of the upload's: the next holder finds it too.
    const after0055 = new pg.Client({ connectionString: url });
    await after0055.connect();
    try {
      const linked = await after0055.query<{ id: number | null; blob: string | null; digest: string }>(
        "SELECT c.package_file_id AS id, f.blob, c.digest FROM fabric_chaincodes c LEFT JOIN files f ON f.id = c.package_file_id",
      );
      expect(
        linked.rows.some((r) => r.id !== null && r.blob === r.digest),
        JSON.stringify(linked.rows),
      ).toBe(true);
    } finally {
      await after0055.end();
    }
    console.log(
      `engines taken over: both leases in ${takenMs} ms; the chaincode answered again after ${servedFabricMs} ms; ` +
        `network height ${heightBefore} kept; chaincode blocks ${blocks.join(", ")} then ${after.blockNumber}`,
    );
  }, 420_000);
});
