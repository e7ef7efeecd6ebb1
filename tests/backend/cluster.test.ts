import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ResponseCode } from "#contract/envelope.ts";
import { Msg } from "#contract/messages.ts";
import { SESSION_CACHE_TTL_MS } from "#backend/http/session-cache.ts";
import { tinyPng } from "../fixtures/files.ts";
import { PASSWORD, registration, uniqueName } from "./client.ts";
import { ownDatabase } from "./in-process.ts";
import { contractPackage } from "./fabric-support.ts";
import { TestServiceStatus } from "#contract/test-services-codes.ts";
import { startServer, stopServer, type Server } from "./server-process.ts";

/**
 * WORKERS=2 on PostgreSQL (docs/decisions/031): two portal processes on one port. Each "side" below is a
 * connection held by one worker (a node:http keep-alive agent of one socket), so a call is known to go to that worker.
 * Shown: a job runs once, a rate limit and captchas are shared, a file uploaded through one worker is used
 * through the other, the chain (run by the owner worker) answers from both, and so does a dedicated network
 * deployed through the peer (docs/decisions/046). The cluster has a database of its own: the run's test server
 * would otherwise take its jobs (a dedicated project's deployment) and run them in its own process.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const reason = "skipped: DATABASE_URL is unset (a cluster needs PostgreSQL; PGlite has one writer)";

type Side = { pid: number; role: string; agent: Agent };

type Init = { method?: string; headers?: Record<string, string>; body?: string | Buffer };

/** One HTTP request over `agent`'s socket (so it reaches the worker that holds it): its status, headers and text. */
function sendRaw(
  baseUrl: string,
  agent: Agent,
  p: string,
  init: Init = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${p}`, { method: init.method ?? "GET", headers: init.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

/** The same, the answer's JSON. */
async function send(baseUrl: string, agent: Agent, p: string, init: Init = {}): Promise<any> {
  return JSON.parse((await sendRaw(baseUrl, agent, p, init)).text);
}

describe.skipIf(!DATABASE_URL)(`WORKERS=2 on PostgreSQL${DATABASE_URL ? "" : ` (${reason})`}`, () => {
  let server: Server;
  let dataDir: string;
  const sides: Side[] = [];

  const post = (side: Side, p: string, body: unknown) =>
    send(server.baseUrl, side.agent, p, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const vueapi = (side: Side, p: string, body: Record<string, unknown>) =>
    post(side, `/vueapi${p}`, { userLanguage: "en", ...body });

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "bsn-cluster-"));
    server = await startServer(dataDir, {
      WORKERS: "2",
      DATABASE_URL: (await ownDatabase(DATABASE_URL))!,
      SESSION_SECRET: "backend-test-secret",
      PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
      TEST_FIXTURES: "1",
      JOBS_INTERVAL_MS: "100",
      DEMO: "0",
      // The tests before the last sign up six users (two captchas each, one registration) from one address.
      RATE_LIMITS: "captcha.ip=16/1m,register.ip=20/1h",
    });
    // New connections go to the workers in turn: keep one agent per worker.
    // The peer starts once the owner listens: look for it for up to a minute.
    const until = Date.now() + 60_000;
    while (sides.length < 2 && Date.now() < until) {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const health = (await send(server.baseUrl, agent, "/healthz")) as { cluster?: { pid: number; role: string } };
      if (health.cluster && !sides.some((s) => s.pid === health.cluster!.pid)) sides.push({ ...health.cluster, agent });
      else {
        agent.destroy();
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }, 240_000);

  afterAll(async () => {
    await stopServer(server);
    for (const side of sides) side.agent.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("two workers serve the port: the owner of the engines and a peer", () => {
    expect(sides.map((s) => s.role).sort()).toEqual(["owner", "peer"]);
    expect(new Set(sides.map((s) => s.pid)).size).toBe(2);
  });

  it("a file uploaded through one worker is claimed by a registration through the other", async () => {
    const [a, b] = sides as [Side, Side];
    const uploaded = await send(server.baseUrl, a.agent, "/vueapi/upload/licence", {
      method: "POST",
      headers: { "Content-Type": "application/octet-stream", "X-File-Name": "licence.png" },
      body: Buffer.from(tinyPng()),
    });
    expect(uploaded.code).toBe(0);
    const captcha = await vueapi(b, "/anon/captcha/create", {});
    const enterprise = {
      userType: "2",
      companyName: "Cluster Ltd",
      companyAddress: "1 Road",
      contactName: "Zhang",
      country: "China",
      creditCode: "91110000MA01ABCDEX",
    };
    const registered = await vueapi(b, "/anon/user/register", {
      payload: { ...registration(uniqueName("cle"), enterprise), captchaKey: captcha.data?.captchaKey },
      licence: { uploadId: uploaded.data.uploadId },
    });
    expect(registered.code).toBe(0);
  });

  /** The first match of `pattern` in the newest mail to `to` that has one, from the cluster's outbox. */
  function fromMail(to: string, pattern: RegExp): string {
    const outbox = path.join(dataDir, "outbox");
    const found = (existsSync(outbox) ? readdirSync(outbox) : [])
      .filter((f) => f.endsWith(".json"))
      .sort()
      .reverse()
      .map((f) => JSON.parse(readFileSync(path.join(outbox, f), "utf8")) as { to: string; text: string })
      .find((m) => m.to === to && pattern.test(m.text));
    if (!found) throw new Error(`no mail to ${to} matching ${pattern}`);
    return found.text.match(pattern)![1]!;
  }

  /**
   * A user registered through `a` (an enterprise, with its licence, when `enterprise`), activated and signed in
   * through `b`; calls with its token over a side.
   */
  async function signedUp(prefix: string, a: Side, b: Side, enterprise = false) {
    const name = uniqueName(prefix);
    const captcha = await vueapi(a, "/anon/captcha/create", {});
    const licence = enterprise
      ? await send(server.baseUrl, a.agent, "/vueapi/upload/licence", {
          method: "POST",
          headers: { "Content-Type": "application/octet-stream", "X-File-Name": "licence.png" },
          body: Buffer.from(tinyPng()),
        })
      : null;
    const company = {
      userType: "2",
      companyName: `${name} Ltd`,
      companyAddress: "1 Road",
      contactName: "Zhang",
      country: "Germany",
      creditCode: "DE12345678",
    };
    const registered = await vueapi(a, "/anon/user/register", {
      payload: { ...registration(name, enterprise ? company : undefined), captchaKey: captcha.data?.captchaKey },
      ...(licence ? { licence: { uploadId: licence.data.uploadId } } : {}),
    });
    expect(registered.code, JSON.stringify(registered)).toBe(0);
    const email = `${name}@example.com`;
    const token = fromMail(email, /UserActivation\?token=([A-Za-z0-9_-]+)/);
    expect((await vueapi(b, "/anon/user/activate", { token })).code).toBe(0);
    const loginCaptcha = await vueapi(b, "/anon/captcha/create", {});
    const login = await vueapi(b, "/main/user/login", {
      username: name,
      password: PASSWORD,
      captchaKey: loginCaptcha.data?.captchaKey,
      captcha: inject("testCaptcha"),
    });
    expect(login.code).toBe(0);
    const call = (side: Side, p: string, body: Record<string, unknown>) =>
      send(server.baseUrl, side.agent, `/vueapi${p}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${login.data.token}` },
        body: JSON.stringify({ userLanguage: "en", ...body }),
      });
    return Object.assign(call, { token: login.data.token as string, email });
  }

  it("a removed member's sessions end in both workers within the session cache's lifetime (issue 33)", async () => {
    const [a, b] = sides as [Side, Side];
    const owner = await signedUp("clo", a, b, true);
    const member = await signedUp("clm", b, a);
    const accountId = (await owner(a, "/main/getClientInfo", {})).data.userId as number;
    expect((await owner(a, "/sys/team/invite", { email: member.email, role: "developer" })).code).toBe(0);
    const invitation = fromMail(member.email, /team\/accept\?token=([A-Za-z0-9_-]+)/);
    expect((await member(b, "/main/team/accept", { token: invitation })).code).toBe(0);
    expect((await member(a, "/main/team/switch", { teamAccountId: accountId })).code).toBe(0);
    // Acting for the account through both workers: the other process sees the switch once its cached read of the
    // session (from the acceptance) has expired; then each process holds the member's session in its cache.
    const until = Date.now() + SESSION_CACHE_TTL_MS + 5_000;
    while ((await member(b, "/main/getClientInfo", {})).data.userId !== accountId && Date.now() < until)
      await new Promise((r) => setTimeout(r, 200));
    for (const side of [a, b]) expect((await member(side, "/main/getClientInfo", {})).data.userId).toBe(accountId);
    const memberId = (await member(b, "/main/getClientInfo", {})).data.member.memberId as number;

    // Removed through one worker; once the cache's lifetime has passed, neither process takes the session.
    expect((await owner(a, "/sys/team/remove", { memberId })).code).toBe(0);
    await new Promise((r) => setTimeout(r, SESSION_CACHE_TTL_MS + 500));
    for (const side of [a, b])
      expect((await member(side, "/main/getClientInfo", {})).code).toBe(ResponseCode.SESSION_INVALID);
    // The owner's own session is untouched in both.
    for (const side of [a, b]) expect((await owner(side, "/main/getClientInfo", {})).data.userId).toBe(accountId);
  });

  it("a job runs once although both workers poll for due jobs every 100 ms", async () => {
    const [a, b] = sides as [Side, Side];
    const bearer = await signedUp("clj", a, b);
    const made = await Promise.all(
      Array.from({ length: 6 }, () => bearer(a, "/test/jobs", { run: "loop", durationsMs: [300] })),
    );
    const ids = made.map((r) => r.data.jobId as number);
    const deadline = Date.now() + 30_000;
    let states: any[] = [];
    while (Date.now() < deadline) {
      states = await Promise.all(ids.map((jobId) => bearer(b, "/test/jobs/status", { jobId }).then((r) => r.data)));
      if (states.every((s) => s.state === "done")) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(states.map((s) => s.state)).toEqual(ids.map(() => "done"));
    expect(states.map((s) => s.attempts)).toEqual(ids.map(() => 1));
  });

  it("the chain runs in the owner and answers from both workers; the peer's funding is mined by the owner", async () => {
    const [a, b] = sides as [Side, Side];
    const rpc = (side: Side, method: string, params: unknown[] = []) =>
      post(side, "/chain/test-rpc/open-alliance", { jsonrpc: "2.0", id: 1, method, params });
    const chainIds = [await rpc(a, "eth_chainId"), await rpc(b, "eth_chainId")];
    expect(chainIds[0].result).toMatch(/^0x[0-9a-f]+$/);
    expect(chainIds[1].result).toBe(chainIds[0].result);
    const peer = sides.find((s) => s.role === "peer")!;
    const owner = sides.find((s) => s.role === "owner")!;
    const address = `0x${randomBytes(20).toString("hex")}`;
    const funded = await post(peer, "/chain/test-rpc/open-alliance/fund", { address, wei: "12345" });
    expect(funded.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await rpc(owner, "eth_getBalance", [address, "latest"])).result).toBe("0x3039");
    expect((await rpc(peer, "eth_getBalance", [address, "latest"])).result).toBe("0x3039");
    // An unknown method keeps its JSON-RPC error code through the owner's socket.
    expect((await rpc(peer, "eth_noSuchMethod")).error.code).toBe((await rpc(owner, "eth_noSuchMethod")).error.code);
  });
  it("a dedicated network deployed through the peer runs in the owner: its gateway, nodes and CA answer through both workers, and a password changed through the peer holds on both", async () => {
    const owner = sides.find((s) => s.role === "owner")!;
    const peer = sides.find((s) => s.role === "peer")!;
    const bearer = await signedUp("cld", owner, peer);
    const ok = async (side: Side, p: string, body: Record<string, unknown>) => {
      const res = await bearer(side, p, body);
      expect(res.code, `${p}: ${JSON.stringify(res)}`).toBe(0);
      return res.data;
    };
    await ok(peer, "/test/fixtures", { grantCents: 100_000 });
    const options = await ok(peer, "/sys/prn/options", {});
    const [cloud, region] = (options.clouds as { cloud: string; regions: { nodeId: number; freePeers: number }[] }[])
      .flatMap((c) => c.regions.map((r) => [c.cloud, r] as const))
      .find(([, r]) => r.freePeers >= 2)!;
    const name = [...randomBytes(10)].map((b) => String.fromCharCode(97 + (b % 26))).join("");
    const password = "cluster1";
    const project = await ok(peer, "/sys/prn/create", {
      name,
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
      idempotencyKey: `cld${randomBytes(8).toString("hex")}`,
    });
    // The deploy job runs on whichever worker takes it; the network runs in the owner; the peer reads its figures.
    const deadline = Date.now() + 90_000;
    let detail: any;
    for (;;) {
      detail = await ok(peer, "/sys/prn/detail", { prnProjectId: project.prnProjectId });
      if (detail.status === 3 && detail.network?.nodes.every((n: { status: string }) => n.status === "running")) break;
      expect(detail.status, JSON.stringify(detail).slice(0, 600)).toBeLessThan(4);
      if (Date.now() > deadline) throw new Error(`not running: ${JSON.stringify(detail).slice(0, 600)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(detail.network.nodes.filter((n: { type: number }) => n.type === 1)).toHaveLength(2);

    const basic = (pw: string) => `Basic ${Buffer.from(`admin:${pw}`).toString("base64")}`;
    const rpc = (side: Side, p: string, pw: string, method: string) =>
      sendRaw(server.baseUrl, side.agent, p, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: basic(pw) },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] }),
      });
    const gateway = project.gatewayPath as string;
    const chainIds = await Promise.all([owner, peer].map((side) => rpc(side, gateway, password, "eth_chainId")));
    expect(chainIds.map((r) => r.status)).toEqual([200, 200]);
    expect(JSON.parse(chainIds[1]!.text).result).toBe(JSON.parse(chainIds[0]!.text).result);
    expect(Number(JSON.parse(chainIds[0]!.text).result)).toBe(detail.network.chainId);
    // Every node's own endpoint, through the peer worker.
    for (const node of detail.network.nodes.filter((n: { type: number }) => n.type === 1 || n.type === 3)) {
      const answer = await rpc(peer, node.endpoint, password, "eth_blockNumber");
      expect(answer.status, node.endpoint).toBe(200);
      expect(JSON.parse(answer.text).result).toMatch(/^0x[0-9a-f]+$/);
    }
    const wrong = await rpc(peer, gateway, "wrongpass1", "eth_blockNumber");
    expect(wrong.status).toBe(401);
    expect(wrong.headers["www-authenticate"]).toMatch(/^Basic /);
    const ca = await sendRaw(server.baseUrl, peer.agent, `${gateway}/ca`, {
      headers: { Authorization: basic(password) },
    });
    expect(ca.status).toBe(200);
    expect(ca.text.trim()).toBe(detail.network.caCertificatePem.trim());
    // "Try it" through the peer goes through the owner's gateway too.
    expect(
      await ok(peer, "/sys/prn/tryIt", {
        prnProjectId: project.prnProjectId,
        method: "eth_chainId",
        params: "",
        password,
      }),
    ).toMatchObject({ status: 200, body: { result: JSON.parse(chainIds[0]!.text).result } });

    // A password changed through the peer: the old one is refused and the new one accepted, on both workers.
    await ok(peer, "/sys/prn/password", {
      prnProjectId: project.prnProjectId,
      password: "cluster2",
      confirmPassword: "cluster2",
    });
    for (const side of [owner, peer]) {
      expect((await rpc(side, gateway, password, "eth_blockNumber")).status).toBe(401);
      expect((await rpc(side, gateway, "cluster2", "eth_blockNumber")).status).toBe(200);
    }
  }, 150_000);

  it("one Fabric writer (docs/decisions/078): a Fabric test service deployed through the peer runs in the owner's peer; invokes through either worker commit once, in order, and both read them", async () => {
    const owner = sides.find((s) => s.role === "owner")!;
    const peer = sides.find((s) => s.role === "peer")!;
    const bearer = await signedUp("clf", owner, peer);
    const ok = async (side: Side, p: string, body: Record<string, unknown>) => {
      const res = await bearer(side, p, body);
      expect(res.code, `${p}: ${JSON.stringify(res)}`).toBe(0);
      return res.data;
    };
    const zip = contractPackage(
      "counter",
      `  async init(ctx) { await ctx.stub.putState("n", Buffer.from("0")); }
  async get(ctx, key) { return (await ctx.stub.getState(key)).toString(); }
  async put(ctx, key, value) { await ctx.stub.putState(key, Buffer.from(value)); return value; }`,
    );
    const uploaded = await send(server.baseUrl, peer.agent, "/vueapi/upload/chaincode", {
      method: "POST",
      headers: {
        "Content-Type": "application/octet-stream",
        "X-File-Name": "counter.zip",
        Authorization: `Bearer ${bearer.token}`,
      },
      body: Buffer.from(zip),
    });
    expect(uploaded.code, JSON.stringify(uploaded)).toBe(0);
    const created = await ok(peer, "/sys/testService/create", {
      name: "Cluster counter",
      version: "1.0.0",
      platform: "fabric",
      sourceKind: "package",
      uploadId: uploaded.data.uploadId,
      mainContract: "",
      initParams: "init",
    });
    await ok(peer, "/sys/testService/deploy", { testServiceId: created.testServiceId });
    const deadline = Date.now() + 120_000;
    let detail: any;
    for (;;) {
      detail = await ok(peer, "/sys/testService/detail", { testServiceId: created.testServiceId });
      if (detail.status !== TestServiceStatus.DEPLOYING) break;
      if (Date.now() > deadline) throw new Error(`not deployed: ${JSON.stringify(detail).slice(0, 600)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(detail.status, detail.failReason ?? "").toBe(TestServiceStatus.DEPLOYED);
    const callOf = (side: Side, mode: string, fn: string, args = "") =>
      ok(side, "/sys/testService/chaincode", { testServiceId: created.testServiceId, mode, fn, args });
    expect((await callOf(owner, "query", "get", "n")).payload).toBe("0");
    expect((await callOf(peer, "query", "get", "n")).payload).toBe("0");
    const blocks: number[] = [];
    for (const [i, side] of [peer, owner, peer, owner].entries()) {
      const invoked = await callOf(side, "invoke", "put", `n\n${i + 1}`);
      expect(invoked, JSON.stringify(invoked)).toMatchObject({ status: 200, validationCode: 0 });
      blocks.push(invoked.blockNumber);
      // What one worker committed, the other reads at once: there is one ledger, the owner's.
      for (const reader of [owner, peer])
        expect((await callOf(reader, "query", "get", "n")).payload).toBe(String(i + 1));
    }
    expect(blocks).toEqual(blocks.map((_, i) => blocks[0]! + i));
  });

  it("a rate limit is shared (captcha.ip: 16 a minute per address, counted across both workers); a captcha made by one is used by the other", async () => {
    const [a, b] = sides as [Side, Side];
    // Made alternately through both: with a counter per process, each would accept 16 (all 20 here).
    const made = [];
    for (let i = 0; i < 20; i++) made.push(await vueapi(sides[i % 2]!, "/anon/captcha/create", {}));
    const accepted = made.filter((r) => r.code === 0);
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThanOrEqual(16);
    expect(made.slice(-2).map((r) => r.code === 0)).toEqual([false, false]);
    // A captcha made through one worker is accepted (and used up) through the other, then refused.
    const key = accepted[accepted.length - 1].data.captchaKey;
    expect(
      (await vueapi(a, "/anon/user/register", { payload: { ...registration(uniqueName("clu")), captchaKey: key } }))
        .code,
    ).toBe(0);
    const again = await vueapi(b, "/anon/user/register", {
      payload: { ...registration(uniqueName("clu")), captchaKey: key },
    });
    expect(again.code).not.toBe(0);
    expect(again.data.fieldErrors.captcha).toEqual([`errors:${Msg.CAPTCHA_INVALID}`]);
  });
});
