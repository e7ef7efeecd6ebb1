import { readFileSync } from "node:fs";
import path from "node:path";
import { and, asc, eq, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { PrnStatus } from "#contract/dedicated-nodes-codes.ts";
import { GB } from "#contract/ipfs-codes.ts";
import { ProjectStatus } from "#contract/public-chain-codes.ts";
import { VerState } from "#contract/service-status.ts";
import { cityNodes, messages, users } from "#backend/db/tables.ts";
import { CHECK_EVERY_MS, checkAlerts, checkAll } from "#backend/domains/alerts/check.ts";
import { flushChecks } from "#backend/domains/alerts/flush.ts";
import { alertFirings } from "#backend/domains/alerts/tables.ts";
import { chinaDay } from "#backend/domains/alerts/usage.ts";
import { bills, wallets } from "#backend/domains/billing/tables.ts";
import { prnProjects } from "#backend/domains/dedicated-nodes/tables.ts";
import { meterOf as ipfsMeterOf } from "#backend/domains/ipfs/meter.ts";
import { ipfsServices, ipfsTrafficDaily } from "#backend/domains/ipfs/tables.ts";
import { flushRequests, takeRequests } from "#backend/domains/public-chain/meter.ts";
import {
  pubChainAccounts,
  pubChainMeter,
  pubChainOrgs,
  pubChainPlans,
  pubChainProjects,
} from "#backend/domains/public-chain/tables.ts";
import { appVersions, apps } from "#backend/domains/services/tables.ts";
import { mailsIn } from "../support/outbox.ts";
import { callVueapi, inProcessVueapi, insertedUser, sessionOf } from "./in-process.ts";

/**
 * Alerts before limits bite (issue 35 §1, docs/decisions/087), in-process with a clock the test moves: a monthly
 * budget told at 50, 80 and 100 % once per month, a balance told once each time it falls below its amount, both also
 * when several checks run at once; saved settings checked at once, the job every few minutes; the message mailed to
 * the roles that handle money (ADR 085); bad amounts refused at their fields.
 */

let clock = new Date("2026-07-10T04:00:00Z");
const service = inProcessVueapi("alerts", { DEMO: "0" }, () => clock);
let userId: number;

const post = async (p: string, body: object = {}, as = userId) =>
  callVueapi(service, p, body, await sessionOf(service, as));
const db = () => service.services.db;

let billCount = 0;
async function bill(cents: number, as = userId) {
  billCount += 1;
  await db()
    .insert(bills)
    .values({
      billNo: `AL${billCount}${clock.getTime()}`,
      userId: as,
      serviceName: "Alert service",
      billType: 1,
      payMode: 1,
      cycle: 2,
      periodStart: clock,
      periodEnd: clock,
      createdAt: clock,
      deadline: new Date(clock.getTime() + 3 * 86_400_000),
      totalCents: cents,
      payCents: cents,
    });
}

async function setBalance(cents: number, as = userId) {
  await db()
    .insert(wallets)
    .values({ userId: as, balanceCents: cents })
    .onConflictDoUpdate({ target: wallets.userId, set: { balanceCents: cents, withdrawableCents: 0 } });
}

const alertMessages = async (as = userId) =>
  db()
    .select()
    .from(messages)
    .where(and(eq(messages.userId, as), like(messages.textKey, "messages.alerts.%")))
    .orderBy(asc(messages.id));

beforeAll(async () => {
  userId = await insertedUser(service, `alerts${Date.now()}`);
});

describe("the monthly budget", () => {
  it("is told at 50, 80 and 100 % once each in a month, and again in the next month", async () => {
    const saved = await post("/sys/alerts/save", { monthlyBudget: "100", balanceFloor: "" });
    expect(saved.code, JSON.stringify(saved)).toBe(0);
    expect((await post("/sys/alerts/settings")).data).toMatchObject({
      monthlyBudgetCents: 10_000,
      balanceFloorCents: null,
      billedThisMonthCents: 0,
    });
    await bill(4_000);
    expect(await checkAlerts(db(), userId, clock)).toBe(0);
    await bill(1_500);
    expect(await checkAlerts(db(), userId, clock)).toBe(1);
    expect(await checkAlerts(db(), userId, clock)).toBe(0);
    await bill(3_000);
    expect(await checkAlerts(db(), userId, clock)).toBe(1);
    await bill(4_500);
    expect(await checkAlerts(db(), userId, clock)).toBe(1);
    const told = await alertMessages();
    expect(told.map((m) => [m.textKey, m.params.percent])).toEqual([
      ["messages.alerts.budget", "50"],
      ["messages.alerts.budget", "80"],
      ["messages.alerts.budgetReached", "100"],
    ]);
    expect(told[2].params).toMatchObject({ billed: "130.00", budget: "100.00", month: "2026-07" });
    expect(told[2].refKind).toBe("alert");

    // A new month starts from nothing: spend that leaps past every threshold at once is told once, at the highest.
    clock = new Date("2026-08-02T04:00:00Z");
    await bill(25_000);
    expect(await checkAlerts(db(), userId, clock)).toBe(1);
    const august = (await alertMessages()).slice(3);
    expect(august.map((m) => m.textKey)).toEqual(["messages.alerts.budgetReached"]);
    const history = await post("/sys/alerts/history", { pageSize: 10 });
    expect(history.data.page.total).toBe(6);
    expect(
      history.data.page.rows.slice(0, 3).map((r: { threshold: number; period: string }) => [r.threshold, r.period]),
    ).toEqual(
      expect.arrayContaining([
        [100, "2026-08"],
        [80, "2026-08"],
        [50, "2026-08"],
      ]),
    );
  });

  it("is told once when several checks run at once", async () => {
    const other = await insertedUser(service, `alertsc${Date.now()}`);
    expect((await post("/sys/alerts/save", { monthlyBudget: "10" }, other)).code).toBe(0);
    await bill(600, other);
    const told = await Promise.all(Array.from({ length: 5 }, () => checkAlerts(db(), other, clock)));
    expect(told.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await alertMessages(other)).toHaveLength(1);
    expect(await db().select().from(alertFirings).where(eq(alertFirings.accountId, other))).toHaveLength(1);
  });

  it("saving checks at once; the job checks every few minutes and the message is mailed", async () => {
    const owner = await insertedUser(service, `alertsj${Date.now()}`);
    await bill(900, owner);
    // Saved above what is billed already: told at once (the save checks).
    expect((await post("/sys/alerts/save", { monthlyBudget: "10" }, owner)).code).toBe(0);
    expect((await alertMessages(owner)).map((m) => m.params.percent)).toEqual(["80"]);
    await bill(200, owner);
    expect(await alertMessages(owner)).toHaveLength(1);
    clock = new Date(clock.getTime() + CHECK_EVERY_MS + 1000);
    await service.runJobs();
    expect((await alertMessages(owner)).map((m) => m.textKey)).toEqual([
      "messages.alerts.budget",
      "messages.alerts.budgetReached",
    ]);
    // Mails by role (ADR 085): the account without members is its own owner.
    await service.runJobs();
    await service.runJobs();
    const mails = mailsIn(service.services.env.dataDir, (await userOf(owner)).email);
    expect(mails.map((m) => m.text).join("\n")).toContain("past your monthly budget of $10.00");
  });
});

async function userOf(id: number) {
  const [row] = await db().select().from(users).where(eq(users.id, id));
  return row;
}

describe("the balance", () => {
  it("is told once each time it falls below the amount", async () => {
    const owner = await insertedUser(service, `alertsb${Date.now()}`);
    await setBalance(5_000, owner);
    expect((await post("/sys/alerts/save", { balanceFloor: "20.00" }, owner)).code).toBe(0);
    await setBalance(1_000, owner);
    expect(await checkAlerts(db(), owner, clock)).toBe(1);
    expect(await checkAlerts(db(), owner, clock)).toBe(0);
    // Back above: the next fall is told again (the next day).
    await setBalance(3_000, owner);
    expect(await checkAlerts(db(), owner, clock)).toBe(0);
    clock = new Date(clock.getTime() + 86_400_000);
    await setBalance(500, owner);
    expect(await checkAlerts(db(), owner, clock)).toBe(1);
    const told = await alertMessages(owner);
    expect(told.map((m) => m.params)).toEqual([
      { balance: "10.00", floor: "20.00" },
      { balance: "5.00", floor: "20.00" },
    ]);
    expect((await post("/sys/alerts/settings", {}, owner)).data).toMatchObject({
      balanceFloorCents: 2_000,
      balanceCents: 500,
    });
  });
});

describe("bad input", () => {
  it("a malformed, zero or too large amount is refused at its field; nothing is saved", async () => {
    const before = (await post("/sys/alerts/settings")).data;
    for (const [field, value] of [
      ["monthlyBudget", "ten"],
      ["monthlyBudget", "0"],
      ["balanceFloor", "-5"],
      ["balanceFloor", "99999999"],
    ]) {
      const res = await post("/sys/alerts/save", { [field]: value });
      expect(res.code, `${field}=${value}`).not.toBe(0);
      expect(JSON.stringify(res)).toContain(field);
    }
    expect((await post("/sys/alerts/settings")).data).toEqual(before);
  });
});

/* ------------------------------ the usage and period-end alerts (docs/decisions/090) ------------------------------ */

const firingsOf = (as: number, kind: string) =>
  db()
    .select()
    .from(alertFirings)
    .where(and(eq(alertFirings.accountId, as), eq(alertFirings.kind, kind)))
    .orderBy(asc(alertFirings.id));
const messagesOf = async (as: number, prefix: string) =>
  (await db().select().from(messages).where(eq(messages.userId, as)).orderBy(asc(messages.id))).filter((m) =>
    m.textKey.startsWith(prefix),
  );

async function project(as: number, dailyRequests: number) {
  const [org] = await db().select().from(pubChainOrgs).limit(1);
  const [plan] = await db()
    .insert(pubChainPlans)
    .values({ userId: as, orgId: org.id, idempotencyKey: `al${as}`, createdAt: clock, expiresAt: clock })
    .onConflictDoNothing()
    .returning();
  const planId = plan?.id ?? (await db().select().from(pubChainPlans).where(eq(pubChainPlans.userId, as)))[0].id;
  const [row] = await db()
    .insert(pubChainProjects)
    .values({
      userId: as,
      planId,
      name: `alerts project ${as}`,
      framework: "evm",
      chain: "open",
      dailyRequests,
      status: ProjectStatus.ENABLED,
      createdAt: clock,
      updatedAt: clock,
    })
    .returning();
  return row;
}

async function ipfsService(as: number, capacityBytes: number, usedBytes = 0) {
  const [row] = await db()
    .insert(ipfsServices)
    .values({
      userId: as,
      name: `alerts ipfs ${as}`,
      storeUnit: 1,
      capacityBytes,
      usedBytes,
      idempotencyKey: `al${as}`,
      createdAt: clock,
      expiresAt: new Date(clock.getTime() + 30 * 86_400_000),
    })
    .returning();
  return row;
}

describe("a public-chain project's daily requests", () => {
  it("are told at 50, 80 and 100 % of its cap once a day (UTC+8), not to another account", async () => {
    clock = new Date("2026-09-01T04:00:00Z");
    const owner = await insertedUser(service, `alertsr${Date.now()}`);
    const other = await insertedUser(service, `alertsro${Date.now()}`);
    const p = await project(owner, 1_000);
    const day = chinaDay(clock);
    const meter = async (requests: number) =>
      db()
        .insert(pubChainMeter)
        .values({ projectId: p.id, day, method: "eth_call", requests, calls: requests, bytes: 0 })
        .onConflictDoUpdate({
          target: [pubChainMeter.projectId, pubChainMeter.day, pubChainMeter.method],
          set: { requests: sql`${pubChainMeter.requests} + ${requests}` },
        });
    await meter(400);
    expect(await checkAlerts(db(), owner, clock)).toBe(0);
    await meter(450);
    // 85 %: 50 and 80 reached at once, told once at 80.
    expect(await checkAlerts(db(), owner, clock)).toBe(1);
    expect(await checkAlerts(db(), owner, clock)).toBe(0);
    expect(await checkAlerts(db(), other, clock)).toBe(0);
    await meter(150);
    expect(await checkAlerts(db(), owner, clock)).toBe(1);
    const told = await messagesOf(owner, "messages.alerts.requests");
    expect(told.map((m) => [m.textKey, m.params.percent])).toEqual([
      ["messages.alerts.requests", "85"],
      ["messages.alerts.requestsReached", "100"],
    ]);
    expect(told[1].params).toMatchObject({ requests: "1000", cap: "1000", day });
    expect((await firingsOf(owner, "requests")).map((f) => [f.threshold, f.subjectId, f.period])).toEqual([
      [50, p.id, day],
      [80, p.id, day],
      [100, p.id, day],
    ]);
    expect(await firingsOf(other, "requests")).toEqual([]);
    // The history names the project, for the link to its page.
    const history = await post("/sys/alerts/history", { pageSize: 10 }, owner);
    expect(history.data.page.rows[0]).toMatchObject({ kind: "requests", subjectId: p.id, subjectName: p.name });
    expect((await post("/sys/alerts/history", { pageSize: 10 }, other)).data.page.total).toBe(0);
  });

  it("is checked after a meter flush that moved the project's counts, and told once by two checks at once", async () => {
    clock = new Date("2026-09-02T04:00:00Z");
    const owner = await insertedUser(service, `alertsf${Date.now()}`);
    const p = await project(owner, 100);
    expect(await takeRequests(db(), p, [{ method: "eth_call", requests: 60, calls: 60 }], 10, clock)).toBe(true);
    await flushRequests(db());
    await flushChecks(db());
    expect((await messagesOf(owner, "messages.alerts.requests")).map((m) => m.params.percent)).toEqual(["60"]);
    // The job and a flush's check at once: the 100 % is told once.
    expect(await takeRequests(db(), p, [{ method: "eth_call", requests: 40, calls: 40 }], 10, clock)).toBe(true);
    await Promise.all([
      flushRequests(db()),
      ...Array.from({ length: 4 }, () => checkAlerts(db(), owner, clock)),
      checkAll(db(), clock),
    ]);
    await flushChecks(db());
    expect((await messagesOf(owner, "messages.alerts.requests")).map((m) => m.textKey)).toEqual([
      "messages.alerts.requests",
      "messages.alerts.requestsReached",
    ]);
    // At the cap the endpoint's quota refuses more: the alert said so before.
    expect(await takeRequests(db(), p, [{ method: "eth_call", requests: 1, calls: 1 }], 10, clock)).toBe(false);
  });
});

describe("an IPFS service", () => {
  it("is told at 50, 80 and 100 % of its capacity once per capacity", async () => {
    const owner = await insertedUser(service, `alertsi${Date.now()}`);
    const s = await ipfsService(owner, 1_000, 500);
    expect(await checkAlerts(db(), owner, clock)).toBe(1);
    expect(await checkAlerts(db(), owner, clock)).toBe(0);
    await db().update(ipfsServices).set({ usedBytes: 1_000 }).where(eq(ipfsServices.id, s.id));
    expect(await checkAlerts(db(), owner, clock)).toBe(1);
    // An upgrade is a new capacity: its thresholds are told anew.
    await db().update(ipfsServices).set({ capacityBytes: 1_200 }).where(eq(ipfsServices.id, s.id));
    expect(await checkAlerts(db(), owner, clock)).toBe(1);
    expect((await messagesOf(owner, "messages.alerts.ipfsCapacity")).map((m) => m.textKey)).toEqual([
      "messages.alerts.ipfsCapacity",
      "messages.alerts.ipfsCapacityReached",
      "messages.alerts.ipfsCapacity",
    ]);
    expect((await firingsOf(owner, "ipfsCapacity")).map((f) => [f.threshold, f.period])).toEqual([
      [50, "1000"],
      [80, "1000"],
      [100, "1000"],
      [50, "1200"],
      [80, "1200"],
    ]);
  });

  it("is told when its traffic this week passes the weekly budget the user set, also after a meter flush", async () => {
    clock = new Date("2026-09-09T04:00:00Z"); // a Wednesday
    const owner = await insertedUser(service, `alertst${Date.now()}`);
    const s = await ipfsService(owner, 10 * GB);
    const [node] = await db().select().from(cityNodes).limit(1);
    // No budget: no traffic alert.
    await db().insert(ipfsTrafficDaily).values({ serviceId: s.id, cityNodeId: node.id, day: "2026-09-07", bytes: GB });
    expect(await checkAlerts(db(), owner, clock)).toBe(0);
    expect((await post("/sys/alerts/save", { ipfsWeeklyTraffic: "1.5" }, owner)).code).toBe(0);
    expect((await post("/sys/alerts/settings", {}, owner)).data.ipfsWeeklyTrafficBytes).toBe(1.5 * GB);
    expect((await firingsOf(owner, "ipfsTraffic")).map((f) => [f.threshold, f.period])).toEqual([[50, "2026-09-07"]]);
    // Served through the one meter: the flush's check tells the 100 %.
    const meter = ipfsMeterOf(service.services);
    meter.add(s.id, node.id, chinaDay(clock), "bafkreialertsfile", GB);
    await meter.flush();
    await flushChecks(db());
    const told = await messagesOf(owner, "messages.alerts.ipfsTraffic");
    expect(told.map((m) => m.textKey)).toEqual(["messages.alerts.ipfsTraffic", "messages.alerts.ipfsTrafficReached"]);
    expect(told[1].params).toMatchObject({ traffic: "2.00", trafficBudget: "1.50", week: "2026-09-07" });
    // Last week's traffic does not count in the next one.
    clock = new Date("2026-09-14T04:00:00Z");
    expect(await checkAlerts(db(), owner, clock)).toBe(0);
    // A bad traffic budget is refused at its field.
    const bad = await post("/sys/alerts/save", { ipfsWeeklyTraffic: "lots" }, owner);
    expect(bad.code).not.toBe(0);
    expect(JSON.stringify(bad)).toContain("ipfsWeeklyTraffic");
  });
});

describe("a paid period's end", () => {
  it("is told 7 days and 1 day before a dedicated-node project's and a service's period ends", async () => {
    clock = new Date("2026-10-01T04:00:00Z");
    const owner = await insertedUser(service, `alertsp${Date.now()}`);
    const [node] = await db().select().from(cityNodes).limit(1);
    const end = new Date("2026-10-07T00:00:00Z");
    const [prn] = await db()
      .insert(prnProjects)
      .values({
        userId: owner,
        name: `alertsprn${owner}`,
        framework: "fabric",
        consensus: "raft",
        cloud: "embedded",
        cityNodeId: node.id,
        nodeCount: 1,
        hostConfig: "1c2g",
        dataCapacityGb: 10,
        cycle: 2,
        authUser: "admin",
        status: PrnStatus.RUNNING,
        priceCents: 100,
        periodStart: new Date("2026-09-07T00:00:00Z"),
        periodEnd: end,
        idempotencyKey: `alp${owner}`,
        createdAt: clock,
        updatedAt: clock,
      })
      .returning();
    const [app] = await db()
      .insert(apps)
      .values({ appCode: `ALP${owner}`, userId: owner, name: `alerts service ${owner}`, cycleEnd: end })
      .returning();
    const [ver] = await db()
      .insert(appVersions)
      .values({ appId: app.id, version: "1.0", verState: VerState.RUNNING })
      .returning();
    await db().update(apps).set({ currentVerId: ver.id }).where(eq(apps.id, app.id));
    // Not yet within 7 days of the end (another account's is never told here).
    expect(await checkAlerts(db(), owner, new Date("2026-09-29T00:00:00Z"))).toBe(0);
    expect(await checkAlerts(db(), owner, clock)).toBe(2);
    expect(await checkAlerts(db(), owner, clock)).toBe(0);
    clock = new Date("2026-10-06T04:00:00Z");
    expect(await checkAll(db(), clock)).toBeGreaterThanOrEqual(2);
    expect(await checkAlerts(db(), owner, clock)).toBe(0);
    const told = await messagesOf(owner, "messages.alerts.");
    expect(told.map((m) => m.textKey).sort()).toEqual([
      "messages.alerts.nodeEndDay",
      "messages.alerts.nodeEndWeek",
      "messages.alerts.serviceEndDay",
      "messages.alerts.serviceEndWeek",
    ]);
    expect(told[0].params).toMatchObject({ end: end.toISOString() });
    expect((await firingsOf(owner, "nodeEnd")).map((f) => [f.subjectId, f.threshold, f.period])).toEqual([
      [prn.id, 7, "2026-10-07"],
      [prn.id, 1, "2026-10-07"],
    ]);
    expect((await firingsOf(owner, "serviceEnd")).map((f) => f.subjectId)).toEqual([app.id, app.id]);
  });
});

describe("the low-gas messages told before (ADR 032)", () => {
  it("become the gas alert's history through migration 0048's backfill, each message linked to its alert", async () => {
    const owner = await insertedUser(service, `alertsg${Date.now()}`);
    const p = await project(owner, 1_000);
    const at = new Date("2026-08-20T02:00:00.123Z");
    const [account] = await db()
      .insert(pubChainAccounts)
      .values({
        userId: owner,
        projectId: p.id,
        name: "old wallet",
        address: `0x${String(owner).padStart(40, "0")}`,
        keyType: 1,
        gasWarningWei: (5n * 10n ** 16n).toString(),
        gasLowSince: at,
        createdAt: at,
      })
      .returning();
    await db()
      .insert(messages)
      .values({
        userId: owner,
        textKey: "messages.gasLow",
        params: { account: "old wallet", project: p.name, gas: "0.01", warning: "0.05" },
        createdAt: at,
      });
    // The migration's data statements, run again on rows written as ADR 032 wrote them (they are idempotent).
    const migration = readFileSync(path.resolve("backend/db/migrations/0048_alerts_more.sql"), "utf8");
    const backfill = migration.split("--> statement-breakpoint").filter((s) => /INSERT INTO|UPDATE "messages"/.test(s));
    expect(backfill).toHaveLength(2);
    for (const statement of [...backfill, ...backfill]) await db().execute(sql.raw(statement));
    const firings = await firingsOf(owner, "gas");
    expect(firings.map((f) => [f.subjectId, f.period, f.valueCents, f.limitCents, f.firedAt.getTime()])).toEqual([
      [account.id, at.toISOString(), 1e7, 5e7, at.getTime()],
    ]);
    const [told] = await messagesOf(owner, "messages.gasLow");
    expect([told.refKind, told.refId]).toEqual(["alert", firings[0].id]);
  });
});
