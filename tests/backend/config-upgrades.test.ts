import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { BillType } from "#contract/billing-codes.ts";
import { Msg } from "#contract/messages.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { appNodes, apps, appVersions } from "#backend/domains/services/tables.ts";
import { sweepRenewals } from "#backend/domains/services/renewal.ts";
import { callVueapi, inProcessVueapi, insertedUser, sessionOf } from "./in-process.ts";

// Configuration upgrades and renewals (docs/decisions/036), with a clock the test moves.
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
let clock = new Date("2026-03-02T00:00:00Z");
const later = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const service = inProcessVueapi("config-upgrades", { TEST_FIXTURES: "1" }, () => clock);
const post = (p: string, body: object, token: string) => callVueapi(service, p, body, token);

async function grant(token: string, cents: number) {
  expect((await post("/test/fixtures", { grantCents: cents }, token)).code).toBe(0);
}

/** A publisher with a running service, on the free plan unless `free` is false (both are resized, ADR 060). */
async function runningService(prefix: string, free = true) {
  const userId = await insertedUser(service, `${prefix}${Date.now().toString(36)}`);
  const token = await sessionOf(service, userId);
  const svc = await post("/test/services", { verState: 25, free, nodeCount: 1, tps: 100 }, token);
  expect(svc.code, JSON.stringify(svc)).toBe(0);
  return { userId, token, appId: svc.data.appId as number, appVerId: svc.data.appVerId as number };
}

async function operator() {
  return sessionOf(service, await insertedUser(service, `op${Date.now().toString(36)}`, "operator"));
}

const tpsUp = async (token: string, appId: number, tps: number) => {
  const options = await post("/sys/configUpgrade/options", { appId }, token);
  expect(options.code, JSON.stringify(options)).toBe(0);
  return post(
    "/sys/configUpgrade/create",
    { appId, upgradeType: 2, nodes: options.data.current.map((n: any) => ({ ...n, tps })) },
    token,
  );
};

describe("configuration upgrades", () => {
  it("a resource upgrade goes through review, payment of bill type 2 and deployment, and re-books the node", async () => {
    const s = await runningService("cu");
    const op = await operator();
    const created = await tpsUp(s.token, s.appId, 300);
    expect(created.code, JSON.stringify(created)).toBe(0);
    expect(created.data).toMatchObject({ status: 1, reviewState: 1, deployState: 1, upgradeType: 2 });
    // 200 more TPS on Beijing (150 cents a TPS-month) for a whole monthly cycle less the time gone (none yet).
    expect(created.data.amountCents).toBe(200 * 150);
    // Another request while this one is in progress: MSG_44002.
    expect((await tpsUp(s.token, s.appId, 400)).message).toBe(Msg.UPGRADE_IN_PROGRESS);

    const approved = await post(
      "/sys/ops/configUpgrades/decide",
      { upgradeId: created.data.upgradeId, decision: "approve" },
      op,
    );
    expect(approved.data).toEqual({ reviewState: 10, status: 1 });
    const detail = await post("/sys/configUpgrade/detail", { upgradeId: created.data.upgradeId }, s.token);
    expect(detail.data).toMatchObject({ payable: true, payState: 1 });
    const [bill] = await service.services.db.select().from(bills).where(eq(bills.id, detail.data.billId));
    expect(bill).toMatchObject({ billType: BillType.CONFIG_UPGRADE, payCents: 30000 });

    // Paid from the balance: short of money first (MSG_30001), then paid once even when posted twice.
    expect(
      (
        await post(
          "/sys/configUpgrade/pay",
          { upgradeId: created.data.upgradeId, idempotencyKey: "k".repeat(20) },
          s.token,
        )
      ).message,
    ).toBe(Msg.INSUFFICIENT_BALANCE);
    await grant(s.token, 30000);
    expect(
      (
        await post(
          "/sys/configUpgrade/pay",
          { upgradeId: created.data.upgradeId, idempotencyKey: "p".repeat(20) },
          s.token,
        )
      ).data.replayed,
    ).toBe(false);
    expect(
      (
        await post(
          "/sys/configUpgrade/pay",
          { upgradeId: created.data.upgradeId, idempotencyKey: "q".repeat(20) },
          s.token,
        )
      ).data.replayed,
    ).toBe(true);
    await service.runJobs();
    const done = await post("/sys/configUpgrade/detail", { upgradeId: created.data.upgradeId }, s.token);
    expect(done.data).toMatchObject({ status: 2, deployState: 10, payState: 15 });
    const [node] = await service.services.db.select().from(appNodes).where(eq(appNodes.verId, s.appVerId));
    expect(node.tps).toBe(300);
    const shown = await post("/sys/chainAppInfo/publishedDetail", { appId: s.appId }, s.token);
    expect(shown.data.contents.nodes[0].tps).toBe(300);
    expect(shown.data.upgrades.map((u: any) => u.upgradeId)).toEqual([created.data.upgradeId]);

    // Within 6 hours of that success: MSG_44003; 6 hours later it is allowed again.
    later(6 * HOUR - 60_000);
    expect((await tpsUp(s.token, s.appId, 320)).message).toBe(Msg.UPGRADE_COOLDOWN);
    later(60_000);
    expect((await tpsUp(s.token, s.appId, 320)).code).toBe(0);
  });

  it("not within 5 days of the cycle's end (MSG_44001); the price is for the rest of the cycle", async () => {
    const s = await runningService("ce");
    later(20 * DAY);
    const ten = await tpsUp(await sessionOf(service, s.userId), s.appId, 130);
    expect(ten.code).toBe(0);
    // 30 more TPS × 150 cents for 10 of the 30 days left: 1500.
    expect(ten.data.amountCents).toBe(1500);
    const op = await operator();
    expect(
      (
        await post(
          "/sys/ops/configUpgrades/decide",
          { upgradeId: ten.data.upgradeId, decision: "reject", comments: "Capacity planning" },
          op,
        )
      ).code,
    ).toBe(0);
    later(5 * DAY + 1);
    // A login lasts 12 hours: a new session at the moved clock.
    const token = await sessionOf(service, s.userId);
    const options = await post("/sys/configUpgrade/options", { appId: s.appId }, token);
    expect(options.data.refusal).toBe(Msg.UPGRADE_CYCLE_END);
    expect(
      (
        await post(
          "/sys/configUpgrade/create",
          { appId: s.appId, upgradeType: 2, nodes: options.data.current.map((n: any) => ({ ...n, tps: 140 })) },
          token,
        )
      ).message,
    ).toBe(Msg.UPGRADE_CYCLE_END);
  });

  it("rejection needs comments and ends the upgrade; the type must match the change; unpaid usage bills block", async () => {
    const s = await runningService("rj");
    const op = await operator();
    const options = await post("/sys/configUpgrade/options", { appId: s.appId }, s.token);
    const [current] = options.data.current;
    const addNode = [current, { cityNodeId: current.cityNodeId + 1, tps: 10, capacityGb: 5, peers: 1 }];
    expect(
      (await post("/sys/configUpgrade/create", { appId: s.appId, upgradeType: 2, nodes: addNode }, s.token)).message,
    ).toBe(Msg.UPGRADE_TYPE_MISMATCH);
    expect(
      (await post("/sys/configUpgrade/create", { appId: s.appId, upgradeType: 1, nodes: [current] }, s.token)).message,
    ).toBe(Msg.UPGRADE_NO_CHANGE);
    const node = await post("/sys/configUpgrade/create", { appId: s.appId, upgradeType: 1, nodes: addNode }, s.token);
    expect(node.code).toBe(0);
    expect(
      (await post("/sys/ops/configUpgrades/decide", { upgradeId: node.data.upgradeId, decision: "reject" }, op))
        .message,
    ).toBe(Msg.COMMENTS_REQUIRED);
    const rejected = await post(
      "/sys/ops/configUpgrades/decide",
      { upgradeId: node.data.upgradeId, decision: "reject", comments: "Not this node" },
      op,
    );
    expect(rejected.data).toEqual({ reviewState: 5, status: 3 });
    const queue = await post("/sys/ops/configUpgrades/list", { queue: "rejected" }, op);
    expect(queue.data.page.rows.find((r: any) => r.upgradeId === node.data.upgradeId)).toMatchObject({
      reviewComments: "Not this node",
      deployState: 25,
    });
    // Another user never sees it.
    const other = await runningService("ot");
    expect((await post("/sys/configUpgrade/detail", { upgradeId: node.data.upgradeId }, other.token)).message).toBe(
      Msg.NOT_FOUND,
    );
    // An unpaid data-traffic bill blocks a new request (payType 1).
    expect((await post("/test/fixtures", { bills: [{ billType: 3, totalCents: 500, cycle: 99 }] }, s.token)).code).toBe(
      0,
    );
    expect((await tpsUp(s.token, s.appId, 150)).message).toBe(Msg.UNPAID_BILLS);
  });

  it("a service open to cross-chain may not add a node without its protocol (§8, MSG_48103 at the nodes); a supporting node is accepted", async () => {
    const s = await runningService("xc");
    const byName = async (name: string) =>
      (await service.services.db.select({ id: cityNodes.id }).from(cityNodes).where(eq(cityNodes.name, name)))[0]!.id;
    const chongqing = await byName("Chongqing");
    const shanghai = await byName("Shanghai");
    await service.services.db
      .update(apps)
      .set({ crossChain: true, crossProtocol: 2, crossAppCode: "APP-XC", crossStatus: 1 })
      .where(eq(apps.id, s.appId));
    const options = await post("/sys/configUpgrade/options", { appId: s.appId }, s.token);
    const [current] = options.data.current;
    expect(current.cityNodeId).not.toBe(chongqing);
    const adding = (cityNodeId: number) => ({
      appId: s.appId,
      upgradeType: 1,
      nodes: [current, { cityNodeId, tps: 10, capacityGb: 5, peers: 1 }],
    });
    for (const p of ["/sys/configUpgrade/quote", "/sys/configUpgrade/create"]) {
      const refused = await post(p, adding(chongqing), s.token);
      expect(refused, p).toMatchObject({
        code: 1,
        message: Msg.XC_PROTOCOL_UNSUPPORTED,
        data: { fieldErrors: { nodes: [Msg.XC_PROTOCOL_UNSUPPORTED] } },
      });
    }
    // Protocol 1 is supported by Chongqing: the same node is quoted for a protocol-1 service (pending deactivation).
    await service.services.db
      .update(apps)
      .set({ crossProtocol: 1, crossAppCode: null, crossStatus: 4 })
      .where(eq(apps.id, s.appId));
    expect((await post("/sys/configUpgrade/quote", adding(chongqing), s.token)).code).toBe(0);
    // Back on protocol 2: a node that supports it is accepted.
    await service.services.db
      .update(apps)
      .set({ crossProtocol: 2, crossAppCode: "APP-XC", crossStatus: 1 })
      .where(eq(apps.id, s.appId));
    const accepted = await post("/sys/configUpgrade/create", adding(shanghai), s.token);
    expect(accepted.code, JSON.stringify(accepted)).toBe(0);
    expect(accepted.data).toMatchObject({ status: 1, upgradeType: 1 });
  });

  it("a paid service is resized too, running (25) or lapsed (40); a deactivated one (30) is not (docs/decisions/060)", async () => {
    const s = await runningService("pd", false);
    const options = await post("/sys/configUpgrade/options", { appId: s.appId }, s.token);
    expect(options.code, JSON.stringify(options)).toBe(0);
    const created = await tpsUp(s.token, s.appId, 200);
    expect(created.code, JSON.stringify(created)).toBe(0);
    // 100 more TPS on Beijing (150 cents a TPS-month) for the rest of the monthly cycle (none gone yet).
    expect(created.data).toMatchObject({ status: 1, reviewState: 1, upgradeType: 2, amountCents: 100 * 150 });
    // A second paid service, lapsed (40) then deactivated by its publisher (30).
    const other = await post("/test/services", { verState: 25, free: false, nodeCount: 1, tps: 100 }, s.token);
    expect(other.code, JSON.stringify(other)).toBe(0);
    const setState = (verState: number) =>
      service.services.db.update(appVersions).set({ verState }).where(eq(appVersions.id, other.data.appVerId));
    await setState(40);
    expect((await post("/sys/configUpgrade/options", { appId: other.data.appId }, s.token)).code).toBe(0);
    await setState(30);
    expect((await post("/sys/configUpgrade/options", { appId: other.data.appId }, s.token)).message).toBe(
      Msg.UPGRADE_NOT_AVAILABLE,
    );
    expect(
      (
        await post(
          "/sys/configUpgrade/create",
          { appId: other.data.appId, upgradeType: 2, nodes: [{ cityNodeId: 1, tps: 150, capacityGb: 10, peers: 1 }] },
          s.token,
        )
      ).message,
    ).toBe(Msg.UPGRADE_NOT_AVAILABLE);
  });

  it("insufficient resources on the node: the deployment fails with the reason and books nothing", async () => {
    const s = await runningService("in");
    const op = await operator();
    const [row] = await service.services.db.select().from(appNodes).where(eq(appNodes.verId, s.appVerId));
    const [node] = await service.services.db.select().from(cityNodes).where(eq(cityNodes.id, row.cityNodeId));
    const up = await tpsUp(s.token, s.appId, node.availableTps + 1);
    expect(up.code).toBe(0);
    await post("/sys/ops/configUpgrades/decide", { upgradeId: up.data.upgradeId, decision: "approve" }, op);
    await grant(s.token, up.data.amountCents);
    expect(
      (await post("/sys/configUpgrade/pay", { upgradeId: up.data.upgradeId, idempotencyKey: "r".repeat(20) }, s.token))
        .code,
    ).toBe(0);
    await service.runJobs();
    const failed = await post("/sys/configUpgrade/detail", { upgradeId: up.data.upgradeId }, s.token);
    expect(failed.data).toMatchObject({ status: 3, deployState: 20 });
    expect(failed.data.deployReport.reasons[0].key).toBe("report.insufficientResources");
    const [still] = await service.services.db.select().from(appNodes).where(eq(appNodes.verId, s.appVerId));
    expect(still.tps).toBe(100);
  });
});

describe("renewals of the payment cycle", () => {
  it("the first period is paid on creation; each period end renews from the balance; an unpaid renewal offers Pay and lapses to 40", async () => {
    const s = await runningService("rn", false);
    const [app] = await service.services.db.select().from(apps).where(eq(apps.id, s.appId));
    expect(app.cycleEnd!.getTime() - app.cycleStart!.getTime()).toBe(30 * DAY);
    // Weekly from now on (§4 99): TPS × 150 cents × 7/30 + GB × 20 cents × 7/30 on Beijing, each rounded up.
    await service.services.db.update(apps).set({ paymentCycle: 99, cycleEnd: clock }).where(eq(apps.id, s.appId));
    const [booked] = await service.services.db.select().from(appNodes).where(eq(appNodes.verId, s.appVerId));
    const weekly = Math.ceil((booked.tps * 150 * 7) / 30) + Math.ceil((booked.capacityGb * 20 * 7) / 30);
    await grant(s.token, weekly);
    later(HOUR);
    // The hourly job's work, run here so that a failure shows.
    await sweepRenewals(service.services.db, clock);
    const [renewed] = await service.services.db.select().from(apps).where(eq(apps.id, s.appId));
    expect(renewed.cycleEnd!.getTime() - renewed.cycleStart!.getTime()).toBe(7 * DAY);
    expect(renewed.renewalBillId).toBeNull();
    const paid = await service.services.db.select().from(bills).where(eq(bills.appId, s.appId));
    expect(paid.find((b) => b.billType === BillType.RESOURCE_RENEWAL)).toMatchObject({
      payState: 15,
      payCents: weekly,
    });

    // The next week the balance is empty: the bill stays unpaid and Pay is offered on the service.
    later(7 * DAY);
    await sweepRenewals(service.services.db, clock);
    const list = await post(
      "/sys/chainAppInfo/publishedList",
      { page: { condition: {} } },
      await sessionOf(service, s.userId),
    );
    const row = list.data.page.rows.find((r: any) => r.appId === s.appId);
    expect(row.unpaidBillId).not.toBeNull();
    expect(row.verState).toBe(25);
    // After the 3 days of grace the platform deactivates it (40) and the bill expires.
    later(3 * DAY + HOUR);
    await sweepRenewals(service.services.db, clock);
    const [version] = await service.services.db.select().from(appVersions).where(eq(appVersions.id, s.appVerId));
    expect(version.verState).toBe(40);
    const [expired] = await service.services.db.select().from(bills).where(eq(bills.id, row.unpaidBillId));
    expect(expired.payState).toBe(10);
  });

  it("an unpaid renewal paid from BillDetail moves the period on", async () => {
    const s = await runningService("rp", false);
    await service.services.db.update(apps).set({ cycleEnd: clock }).where(eq(apps.id, s.appId));
    later(HOUR);
    await service.runJobs();
    await sweepRenewals(service.services.db, clock);
    const [app] = await service.services.db.select().from(apps).where(eq(apps.id, s.appId));
    expect(app.renewalBillId).not.toBeNull();
    const [bill] = await service.services.db.select().from(bills).where(eq(bills.id, app.renewalBillId!));
    const token = await sessionOf(service, s.userId);
    await grant(token, bill.payCents);
    const paid = await post(
      "/sys/system/clientInfo/h5billPay",
      { billId: bill.id, idempotencyKey: "b".repeat(20) },
      token,
    );
    expect(paid.code, JSON.stringify(paid)).toBe(0);
    const [after] = await service.services.db.select().from(apps).where(eq(apps.id, s.appId));
    expect(after.renewalBillId).toBeNull();
    expect(after.cycleEnd!.getTime()).toBe(bill.periodEnd.getTime());
  });
});
