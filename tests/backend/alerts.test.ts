import { and, asc, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { messages, users } from "#backend/db/tables.ts";
import { CHECK_EVERY_MS, checkAlerts } from "#backend/domains/alerts/check.ts";
import { alertFirings } from "#backend/domains/alerts/tables.ts";
import { bills, wallets } from "#backend/domains/billing/tables.ts";
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
