import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { BillType, PayState } from "#contract/billing-codes.ts";
import { Msg } from "#contract/messages.ts";
import { PrnNodeType, PrnStatus, PrnUpdateType, PrnUpgradeStatus } from "#contract/dedicated-nodes-codes.ts";
import { prnCallsPerWindow, prnNodeLimits } from "#contract/dedicated-node-limits.ts";
import chain from "#backend/domains/chain/index.ts";
import { post as ledgerPost, totalsOf } from "#backend/domains/billing/ledger.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { callVueapi, inProcessVueapi, insertedUser, ownDatabase, sessionOf } from "./in-process.ts";
import { uniqueName } from "./client.ts";
import { okVia } from "../support/envelope.ts";
import { idempotencyKeys } from "../support/ids.ts";

// Issue 17, dedicated nodes (docs/decisions/047): projects over the /vueapi paths, in this process, each a real
// network of the chain domain's provisioner, on PGlite or (with a database of its own) on PostgreSQL. The
// clock is held and moved by hand: periods, renewals and purges happen when the test says.

const DAY = 86_400_000;
let clock = new Date();
const service = inProcessVueapi(
  "prn",
  {
    TEST_FIXTURES: "1",
    DEMO: "0",
    JOBS_INTERVAL_MS: "0",
    PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
    DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
  },
  () => clock,
);
const networks = () => chain.api.networks;

const idem = idempotencyKeys("prn");
const letters = () => [...randomBytes(10)].map((b) => String.fromCharCode(97 + (b % 26))).join("");
const call = <T = any>(p: string, body: object, token: string) => callVueapi<T>(service, p, body, token);
const ok = okVia((p: string, body: object, token: string) => call(p, body, token));

type User = { id: number; token: string };
const users: User[] = [];
async function user(prefix: string, grantCents: number): Promise<User> {
  const id = await insertedUser(service, uniqueName(prefix));
  if (grantCents > 0)
    await service.services.db.transaction((tx) =>
      ledgerPost(tx, { userId: id, kind: "grant", amountCents: grantCents, refType: "grant", refId: id }, clock),
    );
  const u = { id, token: await sessionOf(service, id) };
  users.push(u);
  return u;
}
/** Moves the clock; sessions would time out over days, so every user signs in again. */
async function moveClockTo(at: Date) {
  clock = at;
  for (const u of users) u.token = await sessionOf(service, u.id);
}
const balanceOf = async (userId: number) => (await totalsOf(service.services.db, userId)).balanceCents;
const billsOf = (userId: number) =>
  service.services.db
    .select()
    .from(bills)
    .where(and(eq(bills.userId, userId), eq(bills.billType, BillType.DEDICATED_NODE)))
    .orderBy(bills.id);

/** A region of the catalogue by its city node code, with its cloud. */
async function region(token: string, code: string) {
  const options = await ok("/sys/prn/options", {}, token);
  for (const cloud of options.clouds)
    for (const r of cloud.regions)
      if (r.code === code)
        return { cloud: cloud.cloud as string, nodeId: r.nodeId as number, freePeers: r.freePeers as number };
  throw new Error(`no region ${code}`);
}

const PASSWORD = "secret123";
async function form(token: string, extra: Record<string, unknown> = {}) {
  const bj = await region(token, "CN-BJ-01");
  return {
    name: letters(),
    framework: "fisco",
    consensus: "pbft",
    cloud: bj.cloud,
    nodeId: bj.nodeId,
    nodeCount: 1,
    hostConfig: "c2m4",
    dataCapacityGb: 20,
    cycle: 2,
    authUser: "admin",
    password: PASSWORD,
    confirmPassword: PASSWORD,
    idempotencyKey: idem(),
    ...extra,
  };
}
const MONTH_1_PEER = 2000 + 3000 + 400;

/** The owner's inbox messages of this domain, newest first: [key, params]. */
async function inbox(token: string) {
  const list = await ok("/sys/system/message/list", { page: { pageSize: 50, pageIndex: 1 } }, token);
  return (list.page.rows as { textKey: string; params: Record<string, string> }[])
    .filter((m) => m.textKey.startsWith("messages.dedicatedNodes."))
    .map((m) => [m.textKey.slice("messages.dedicatedNodes.".length), m.params] as const);
}

const rpc = (token: string, prnProjectId: number, password: string, method = "eth_blockNumber", params = "[]") =>
  call("/sys/prn/tryIt", { prnProjectId, method, params, password }, token);

/** Polls the project's detail until `done` (the provisioner's figures move on their own). */
async function detailUntil(token: string, prnProjectId: number, done: (d: any) => boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const d = await ok("/sys/prn/detail", { prnProjectId }, token);
    if (done(d)) return d;
    if (Date.now() > deadline) throw new Error(`project ${prnProjectId}: still ${JSON.stringify(d).slice(0, 600)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("dedicated nodes (issue 17)", { timeout: 180_000 }, () => {
  let A: { id: number; token: string };
  let B: { id: number; token: string };
  let project: any;

  it("offers the EVM frameworks with their consensus, the catalogue's clouds and regions with free peers, and prices", async () => {
    A = await user("prna", 200_000);
    B = await user("prnb", 0);
    const options = await ok("/sys/prn/options", {}, A.token);
    expect(options.frameworks.map((f: any) => f.framework)).toEqual(["fisco", "cita"]);
    expect(options.frameworks[0].consensus).toContain("pbft");
    expect(options.clouds.length).toBeGreaterThan(1);
    expect((await region(A.token, "CN-BJ-01")).freePeers).toBe(4);
    const quote = await ok(
      "/sys/prn/quote",
      { nodeCount: 1, hostConfig: "c2m4", dataCapacityGb: 20, cycle: 2 },
      A.token,
    );
    expect(quote).toEqual({
      monthCents: MONTH_1_PEER,
      yearCents: MONTH_1_PEER * 10,
      cycle: 2,
      priceCents: MONTH_1_PEER,
      periodDays: 30,
    });
  });

  it("refuses each §5 rule at its field, and Insufficient resources (§8)", async () => {
    const bad = async (extra: Record<string, unknown>) =>
      await call("/sys/prn/create", await form(A.token, extra), A.token);
    const fields = (r: any) => Object.keys(r.data?.fieldErrors ?? {});
    expect(fields(await bad({ name: "Bad1" }))).toEqual(["name"]);
    expect(fields(await bad({ consensus: "cita-bft" }))).toEqual(["consensus"]);
    expect(fields(await bad({ consensus: "" }))).toEqual(["consensus"]);
    expect(fields(await bad({ password: "abc", confirmPassword: "abc" }))).toEqual(["password"]);
    expect(fields(await bad({ confirmPassword: "other123" }))).toEqual(["confirmPassword"]);
    expect(fields(await bad({ nodeCount: 9 }))).toEqual(["nodeCount"]);
    expect(fields(await bad({ hostConfig: "huge" }))).toEqual(["hostConfig"]);
    const fra = await region(A.token, "DE-FRA-01");
    const wrongCloud = await bad({ nodeId: fra.nodeId });
    expect(wrongCloud.message).toBe(Msg.PRN_REGION_UNKNOWN);
    expect(fields(wrongCloud)).toEqual(["nodeId"]);
    const tooMany = await bad({ cloud: fra.cloud, nodeId: fra.nodeId, nodeCount: fra.freePeers + 1 });
    expect(tooMany.message).toBe(Msg.INSUFFICIENT_RESOURCES);
    expect(fields(tooMany)).toEqual(["nodeCount"]);
    // Nothing was paid for any of them.
    expect(await billsOf(A.id)).toEqual([]);
    expect(await balanceOf(A.id)).toBe(200_000);
    // Without the balance: the insufficient-balance message, nothing kept.
    expect((await call("/sys/prn/create", await form(B.token), B.token)).message).toBe(Msg.INSUFFICIENT_BALANCE);
    expect(await billsOf(B.id)).toEqual([]);
  });

  it("create pays the first period from the balance (a dedicated-node bill), once per idempotency key", async () => {
    const payload = await form(A.token);
    project = await ok("/sys/prn/create", payload, A.token);
    expect(project).toMatchObject({
      name: payload.name,
      status: 1,
      nodeCount: 1,
      priceCents: MONTH_1_PEER,
      replayed: false,
      gatewayPath: `/chain/dedicated/prn-${payload.name}`,
    });
    expect(new Date(project.periodEnd).getTime() - new Date(project.periodStart).getTime()).toBe(30 * DAY);
    const [bill] = await billsOf(A.id);
    expect(bill).toMatchObject({ payState: PayState.PAID, payCents: MONTH_1_PEER, id: project.billId });
    expect(await balanceOf(A.id)).toBe(200_000 - MONTH_1_PEER);
    // Its region and cloud read in the page's language, never as a code (issue 30 item 9).
    const detail = (lang: string) =>
      ok("/sys/system/clientInfo/h5billDetail", { billId: bill.id, userLanguage: lang }, A.token);
    expect(await detail("en")).toMatchObject({ region: "Beijing", cloudPlatform: "China Mobile Cloud" });
    expect(await detail("zh-CN")).toMatchObject({ region: "北京", cloudPlatform: "移动云" });
    expect(await ok("/sys/prn/create", payload, A.token)).toMatchObject({
      prnProjectId: project.prnProjectId,
      replayed: true,
    });
    expect(await billsOf(A.id)).toHaveLength(1);
    // The name is unique: another user cannot take it.
    const taken = await call("/sys/prn/create", await form(B.token, { name: payload.name }), B.token);
    expect(taken.message).toBe(Msg.PRN_NAME_TAKEN);
    expect((await region(A.token, "CN-BJ-01")).freePeers).toBe(3);
  });

  it("the deploy job runs the network: orderer, peer, gateway and CA, from the engine", async () => {
    await service.runJobs();
    const d = await detailUntil(A.token, project.prnProjectId, (x) => x.status !== 1 && x.status !== 2);
    expect(d.status, d.failReason).toBe(3);
    expect(d.network.state).toBe("running");
    expect(d.network.nodes.map((n: any) => [n.name, n.type]).sort()).toEqual(
      [
        ["ca", 4],
        ["gateway", 2],
        ["orderer", 3],
        ["peer-1", 1],
      ].sort(),
    );
    expect(d.network.caCertificatePem).toContain("BEGIN CERTIFICATE");
    expect(await inbox(A.token)).toEqual([["deployed", { name: project.name, peers: "1" }]]);
  });

  it("try it answers what the gateway answers: a block number with the right password, 401 with a wrong one", async () => {
    const right = await rpc(A.token, project.prnProjectId, PASSWORD);
    expect(right.code).toBe(0);
    expect(right.data.status).toBe(200);
    expect(right.data.body.result).toMatch(/^0x[0-9a-f]+$/);
    const wrong = await rpc(A.token, project.prnProjectId, "wrong1234");
    expect(wrong.data.status).toBe(401);
    expect(
      (
        await call(
          "/sys/prn/tryIt",
          { prnProjectId: project.prnProjectId, method: "eth_blockNumber", params: "{", password: PASSWORD },
          A.token,
        )
      ).message,
    ).toBe(Msg.INVALID_PARAMS);
  });

  it("another user's project is not found, on every path", async () => {
    const id = project.prnProjectId;
    for (const [p, body] of [
      ["/sys/prn/detail", { prnProjectId: id }],
      ["/sys/prn/upgrade/list", { prnProjectId: id }],
      ["/sys/prn/upgrade/options", { prnProjectId: id }],
      ["/sys/prn/upgrade/create", { prnProjectId: id, updateType: 2, toValue: "c4m8", idempotencyKey: idem() }],
      ["/sys/prn/password", { prnProjectId: id, password: "abc123", confirmPassword: "abc123" }],
      ["/sys/prn/unsubscribe", { prnProjectId: id }],
      ["/sys/prn/delete", { prnProjectId: id }],
      ["/sys/prn/tryIt", { prnProjectId: id, method: "eth_blockNumber", password: PASSWORD }],
    ] as const) {
      expect((await call(p, body, B.token)).message, p).toBe(Msg.NOT_FOUND);
    }
    expect((await ok("/sys/prn/list", {}, B.token)).page.total).toBe(0);
    expect((await ok("/sys/prn/list", {}, A.token)).page.rows.map((r: any) => r.prnProjectId)).toEqual([
      project.prnProjectId,
    ]);
  });

  it("an unpaid dedicated-node bill blocks create and upgrade (payType 2), as h5isHasNoPayBillV2 says", async () => {
    const [blocking] = await service.services.db
      .insert(bills)
      .values({
        billNo: `DNT${letters()}`,
        userId: A.id,
        serviceName: "pending node",
        billType: BillType.DEDICATED_NODE,
        payState: PayState.UNPAID,
        payMode: 1,
        cycle: 2,
        periodStart: clock,
        periodEnd: clock,
        createdAt: clock,
        deadline: new Date(clock.getTime() + DAY),
        totalCents: 100,
        payCents: 100,
      })
      .returning();
    expect(await ok("/sys/product/h5isHasNoPayBillV2", { payType: 2 }, A.token)).toBe(false);
    expect(await ok("/sys/product/h5isHasNoPayBillV2", { payType: 1 }, A.token)).toBe(true);
    expect((await call("/sys/prn/create", await form(A.token), A.token)).message).toBe(Msg.UNPAID_BILLS);
    expect(
      (
        await call(
          "/sys/prn/upgrade/create",
          { prnProjectId: project.prnProjectId, updateType: 2, toValue: "c4m8", idempotencyKey: idem() },
          A.token,
        )
      ).message,
    ).toBe(Msg.UNPAID_BILLS);
    await ok("/sys/system/clientInfo/h5billPay", { billId: blocking.id, idempotencyKey: idem() }, A.token);
    expect(await ok("/sys/product/h5isHasNoPayBillV2", { payType: 2 }, A.token)).toBe(true);
  });

  it("an upgrade of the node count bills the difference for the rest of the period, and the new peer syncs", async () => {
    // A block first, so that catching up means something.
    await networks().fund(service.services, `prn-${project.name}`, `0x${"11".repeat(20)}`, 1n);
    const options = await ok("/sys/prn/upgrade/options", { prnProjectId: project.prnProjectId }, A.token);
    expect(options.nodeCounts.map((c: any) => c.value)).toEqual(["2", "3", "4", "5", "6", "7"]);
    expect(
      (
        await call(
          "/sys/prn/upgrade/create",
          { prnProjectId: project.prnProjectId, updateType: 1, toValue: "1", idempotencyKey: idem() },
          A.token,
        )
      ).message,
    ).toBe(Msg.PRN_UPGRADE_NO_CHANGE);
    expect(
      (
        await call(
          "/sys/prn/upgrade/create",
          { prnProjectId: project.prnProjectId, updateType: 1, toValue: "9", idempotencyKey: idem() },
          A.token,
        )
      ).message,
    ).toBe(Msg.INVALID_PARAMS);
    await moveClockTo(new Date(clock.getTime() + 15 * DAY));
    const quote = await ok(
      "/sys/prn/upgrade/quote",
      { prnProjectId: project.prnProjectId, updateType: 1, toValue: "2" },
      A.token,
    );
    expect(quote).toEqual({
      updateType: 1,
      fromValue: "1",
      toValue: "2",
      fullPeriodDiffCents: 3400,
      priceDiffCents: 1700,
      remainingDays: 15,
    });
    const before = await balanceOf(A.id);
    const upgrade = await ok(
      "/sys/prn/upgrade/create",
      { prnProjectId: project.prnProjectId, updateType: 1, toValue: "2", idempotencyKey: idem() },
      A.token,
    );
    expect(upgrade).toMatchObject({ status: 1, fromValue: "1", toValue: "2", priceDiffCents: 1700 });
    expect(await balanceOf(A.id)).toBe(before - 1700);
    // One upgrade at a time; peers only go up.
    expect(
      (
        await call(
          "/sys/prn/upgrade/create",
          { prnProjectId: project.prnProjectId, updateType: 2, toValue: "c4m8", idempotencyKey: idem() },
          A.token,
        )
      ).message,
    ).toBe(Msg.PRN_UPGRADE_OPEN);
    await service.runJobs();
    const done = await ok("/sys/prn/upgrade/detail", { prnProjectUpdateId: upgrade.prnProjectUpdateId }, A.token);
    expect(done.status, done.failReason).toBe(2);
    const synced = await detailUntil(A.token, project.prnProjectId, (d) => {
      const orderer = d.network?.nodes.find((n: any) => n.name === "orderer");
      const peer2 = d.network?.nodes.find((n: any) => n.name === "peer-2");
      return peer2?.status === "running" && peer2.lag === 0 && peer2.height === orderer.height && orderer.height > 0;
    });
    expect(synced).toMatchObject({ nodeCount: 2, priceCents: 2000 + 2 * 3400 });
    expect((await inbox(A.token))[0]).toEqual(["upgradeSucceeded", { name: project.name }]);
    expect(
      (
        await call(
          "/sys/prn/upgrade/create",
          { prnProjectId: project.prnProjectId, updateType: 1, toValue: "1", idempotencyKey: idem() },
          A.token,
        )
      ).message,
    ).toBe(Msg.PRN_PEERS_DECREASE);
    expect((await ok("/sys/prn/upgrade/list", { prnProjectId: project.prnProjectId }, A.token)).page.rows).toHaveLength(
      1,
    );
  });

  it("host configuration and capacity upgrades change the running nodes' limits: the new rate admits more, 429 above it, transactions refused over the storage limit", async () => {
    // A project of its own, so that the other tests' prices and renewals stay as they are.
    const D = await user("prnd", 200_000);
    const own = await ok("/sys/prn/create", await form(D.token), D.token);
    await service.runJobs();
    await detailUntil(D.token, own.prnProjectId, (d) => d.status === PrnStatus.RUNNING);
    const network = `prn-${own.name}`;
    const gateway = (body: unknown) =>
      networks().gateway(service.services, network, { user: "admin", password: PASSWORD }, JSON.stringify(body));
    const batch = (n: number) =>
      Array.from({ length: n }, (_, id) => ({ jsonrpc: "2.0", id, method: "eth_blockNumber" }));
    const limitsOf = (d: any) =>
      d.network.nodes.filter((n: any) => n.type !== PrnNodeType.CA).map((n: any) => [n.name, n.limits]);
    const everyNode = (d: any, limits: unknown) => limitsOf(d).map(([name]: [string]) => [name, limits]);
    const upgradeTo = async (updateType: number, toValue: string) => {
      const u = await ok(
        "/sys/prn/upgrade/create",
        { prnProjectId: own.prnProjectId, updateType, toValue, idempotencyKey: idem() },
        D.token,
      );
      await service.runJobs();
      const done = await ok("/sys/prn/upgrade/detail", { prnProjectUpdateId: u.prnProjectUpdateId }, D.token);
      expect(done.status, done.failReason).toBe(PrnUpgradeStatus.SUCCESS);
      return ok("/sys/prn/detail", { prnProjectId: own.prnProjectId }, D.token);
    };

    const before = await ok("/sys/prn/detail", { prnProjectId: own.prnProjectId }, D.token);
    const c2m4 = prnNodeLimits("c2m4", 20)!;
    expect(c2m4).toEqual({ requestsPerSecond: 10, storageBytes: 30 * 1024 ** 3 });
    expect(limitsOf(before)).toEqual(everyNode(before, c2m4));
    expect(before.network.nodes.find((n: any) => n.type === PrnNodeType.CA).limits).toBeNull();
    // Above the old rate (c2m4 takes 100 calls in its window) and below the new one (c4m8 takes 250).
    const burst = prnCallsPerWindow(c2m4) + 60;

    const host = await upgradeTo(PrnUpdateType.HOST_CONFIG, "c4m8");
    const c4m8 = prnNodeLimits("c4m8", 20)!;
    expect(host.hostConfig).toBe("c4m8");
    expect(limitsOf(host)).toEqual(everyNode(host, c4m8));
    expect((await networks().status(service.services, network))!.limits).toEqual(c4m8);
    expect(burst).toBeLessThan(prnCallsPerWindow(c4m8));
    for (const n of [burst / 2, burst / 2]) {
      const answer = await gateway(batch(n));
      expect(answer.status).toBe(200);
      expect((answer.body as any[]).every((r) => /^0x[0-9a-f]+$/.test(r.result))).toBe(true);
    }
    const over = await gateway(batch(prnCallsPerWindow(c4m8) - burst + 1));
    expect(over.status).toBe(429);
    expect((over.body as any).error).toMatchObject({ code: -32005, message: expect.stringContaining("rate limit") });

    const capacity = await upgradeTo(PrnUpdateType.DATA_CAPACITY, "50");
    const c4m8at50 = prnNodeLimits("c4m8", 50)!;
    expect(c4m8at50.storageBytes).toBe(70 * 1024 ** 3);
    expect(limitsOf(capacity)).toEqual(everyNode(capacity, c4m8at50));

    // Over the storage limit (a limit below what the orderer stores), a transaction is refused and reads go on.
    await networks().setLimits(service.services, network, { requestsPerSecond: 1000, storageBytes: 1 });
    const refused = await gateway([
      { jsonrpc: "2.0", id: 1, method: "eth_sendRawTransaction", params: ["0x00"] },
      { jsonrpc: "2.0", id: 2, method: "eth_blockNumber" },
    ]);
    expect(refused.status).toBe(200);
    const [tx, read] = refused.body as any[];
    expect(tx.error).toMatchObject({ code: -32003, message: expect.stringContaining("storage limit") });
    expect(read.result).toMatch(/^0x[0-9a-f]+$/);
    await networks().setLimits(service.services, network, c4m8at50);
  });

  it("changes the authorized password: the gateway then takes only the new one", async () => {
    const mismatch = await call(
      "/sys/prn/password",
      { prnProjectId: project.prnProjectId, password: "newpass1", confirmPassword: "newpass2" },
      A.token,
    );
    expect(Object.keys(mismatch.data.fieldErrors)).toEqual(["confirmPassword"]);
    await ok(
      "/sys/prn/password",
      { prnProjectId: project.prnProjectId, password: "newpass1", confirmPassword: "newpass1" },
      A.token,
    );
    expect((await rpc(A.token, project.prnProjectId, PASSWORD)).data.status).toBe(401);
    expect((await rpc(A.token, project.prnProjectId, "newpass1")).data.status).toBe(200);
  });

  it("renewal charges the next period from the balance; without the balance the nodes stop and the bill blocks payType 2 until paid", async () => {
    const C = await user("prnc", MONTH_1_PEER);
    const poor = await ok("/sys/prn/create", await form(C.token), C.token);
    await service.runJobs();
    await detailUntil(C.token, poor.prnProjectId, (d) => d.status === 3);
    expect(await balanceOf(C.id)).toBe(0);
    const beforeA = await balanceOf(A.id);
    const endA = new Date((await ok("/sys/prn/detail", { prnProjectId: project.prnProjectId }, A.token)).periodEnd);
    await moveClockTo(new Date(clock.getTime() + 31 * DAY));
    await service.runJobs();
    const renewed = await ok("/sys/prn/detail", { prnProjectId: project.prnProjectId }, A.token);
    expect(new Date(renewed.periodStart).getTime()).toBe(endA.getTime());
    expect(new Date(renewed.periodEnd).getTime()).toBe(endA.getTime() + 30 * DAY);
    expect(await balanceOf(A.id)).toBe(beforeA - (2000 + 2 * 3400));
    expect((await billsOf(A.id)).at(-1)).toMatchObject({ payState: PayState.PAID, payCents: 2000 + 2 * 3400 });
    expect((await inbox(A.token))[0]).toEqual([
      "renewalPaid",
      { name: project.name, amount: "88.00", until: renewed.periodEnd },
    ]);

    const stopped = await ok("/sys/prn/detail", { prnProjectId: poor.prnProjectId }, C.token);
    expect(stopped).toMatchObject({ status: 3, suspended: true });
    expect(stopped.network.state).toBe("stopped");
    expect((await rpc(C.token, poor.prnProjectId, PASSWORD)).data.status).toBe(503);
    const renewal = (await billsOf(C.id)).at(-1)!;
    expect(renewal.payState).toBe(PayState.UNPAID);
    expect(await ok("/sys/product/h5isHasNoPayBillV2", { payType: 2 }, C.token)).toBe(false);
    expect((await inbox(C.token))[0]).toEqual([
      "renewalUnpaid",
      { name: poor.name, billNo: renewal.billNo, amount: "54.00", deadline: renewal.deadline.toISOString() },
    ]);
    // Paid late from My bills: the period moves on and the nodes start again.
    await service.services.db.transaction((tx) =>
      ledgerPost(tx, { userId: C.id, kind: "grant", amountCents: MONTH_1_PEER, refType: "grant", refId: C.id }, clock),
    );
    await ok("/sys/system/clientInfo/h5billPay", { billId: renewal.id, idempotencyKey: idem() }, C.token);
    await service.runJobs();
    const resumed = await detailUntil(C.token, poor.prnProjectId, (d) => d.network?.state === "running");
    expect(resumed.suspended).toBe(false);
    expect((await rpc(C.token, poor.prnProjectId, PASSWORD)).data.status).toBe(200);
    expect(await ok("/sys/product/h5isHasNoPayBillV2", { payType: 2 }, C.token)).toBe(true);
    expect((await inbox(C.token))[0]).toEqual([
      "resumed",
      { name: poor.name, billNo: renewal.billNo, until: renewal.periodEnd.toISOString() },
    ]);
  });

  it("unsubscribe stops the nodes; the purge job removes them after the period; then delete hides the project", async () => {
    expect((await call("/sys/prn/delete", { prnProjectId: project.prnProjectId }, A.token)).message).toBe(
      Msg.PRN_NOT_ALLOWED_IN_STATUS,
    );
    // A typed name that is not the project's is refused at its field, and the nodes keep running (ADR 029).
    const mistyped = await call(
      "/sys/prn/unsubscribe",
      { prnProjectId: project.prnProjectId, confirmName: `${project.name}x` },
      A.token,
    );
    expect(mistyped.data.fieldErrors).toEqual({ confirmName: ["validation.nameMismatch"] });
    expect(await ok("/sys/prn/detail", { prnProjectId: project.prnProjectId }, A.token)).toMatchObject({
      status: 3,
      network: { state: "running" },
    });
    const out = await ok(
      "/sys/prn/unsubscribe",
      { prnProjectId: project.prnProjectId, confirmName: ` ${project.name} ` },
      A.token,
    );
    const d = await ok("/sys/prn/detail", { prnProjectId: project.prnProjectId }, A.token);
    expect(out).toEqual({ prnProjectId: project.prnProjectId, status: 6, purgeAt: d.periodEnd });
    expect(d.network.state).toBe("stopped");
    expect((await rpc(A.token, project.prnProjectId, "newpass1")).data.status).toBe(503);
    await service.runJobs();
    expect(await networks().status(service.services, `prn-${project.name}`)).not.toBeNull();
    await moveClockTo(new Date(new Date(d.periodEnd).getTime() + 1000));
    await service.runJobs();
    expect(await networks().status(service.services, `prn-${project.name}`)).toBeNull();
    expect((await ok("/sys/prn/detail", { prnProjectId: project.prnProjectId }, A.token)).purgedAt).not.toBeNull();
    expect(await ok("/sys/prn/delete", { prnProjectId: project.prnProjectId }, A.token)).toMatchObject({ status: 5 });
    expect((await ok("/sys/prn/list", {}, A.token)).page.total).toBe(0);
    expect((await ok("/sys/prn/list", { status: 5 }, A.token)).page.total).toBe(1);
  });
});
