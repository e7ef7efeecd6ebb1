import { and, count, eq, gte, sql, sum } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { appJoins } from "#backend/domains/participation/tables.ts";
import { appRoles, apps, appVersions } from "#backend/domains/services/tables.ts";
import { bills, usageDaily, wallets } from "#backend/domains/billing/tables.ts";
import { tinyPng } from "../fixtures/files.ts";
import { callVueapi, inProcessVueapi, insertedUser, sessionOf, uploadVueapi } from "./in-process.ts";
import { wizardBasic } from "./wizard-basic.ts";

// The console home's one call (/main/home/dashboard), the operators' queue counts, wizard drafts listed and
// discarded, and the typed confirmation of destructive actions (docs/decisions/029).
const service = inProcessVueapi("dashboard", { TEST_FIXTURES: "1" });
const call = (p: string, body: object = {}, token?: string) => callVueapi(service, p, body, token);
let seq = 0;

async function user(role = "user") {
  seq += 1;
  const id = await insertedUser(service, `dash${Date.now().toString(36)}${seq}`, role);
  return { id, token: await sessionOf(service, id) };
}

/** A new service's draft saved at step 1 (with its cover), so it waits at step 2. */
async function saveDraft(token: string, name: string) {
  const cover = await uploadVueapi(service, "cover", "cover.png", tinyPng(), token);
  expect(cover.code, JSON.stringify(cover)).toBe(0);
  return call(
    "/sys/chainAppInfo/wizard/saveBasic",
    { appState: "add", basic: wizardBasic(name), cover: { uploadId: cover.data.uploadId } },
    token,
  );
}

describe("/main/home/dashboard", () => {
  it("answers the account's own figures, read again from its records", async () => {
    const me = await user();
    // The draft first: the overdue traffic bill below blocks new services (SPEC §5, ADR 059).
    const draft = await saveDraft(me.token, `Draft ${Date.now().toString(36)}`);
    expect(draft.code, JSON.stringify(draft)).toBe(0);
    const fx = await call(
      "/test/fixtures",
      {
        grantCents: 50_000,
        bills: [{ totalCents: 1_234, cycle: 99 }, { totalCents: 2_000 }, { totalCents: 700, payState: 15 }],
        usage: { days: 10, mbPerDay: 2048 },
      },
      me.token,
    );
    expect(fx.code, JSON.stringify(fx)).toBe(0);
    const running = await call("/test/services", { verState: 25 }, me.token);
    await call("/test/services", { verState: 5 }, me.token);
    const toPay = await call("/test/services", { verState: 23 }, me.token);
    expect(running.code, JSON.stringify(running)).toBe(0);

    const res = await call("/main/home/dashboard", {}, me.token);
    expect(res.code, JSON.stringify(res)).toBe(0);
    const d = res.data;
    const db = service.services.db;
    // The account, exactly as /main/getClientInfo answers it; the home does not name the acting member (issue 33).
    const { member: _member, ...account } = (await call("/main/getClientInfo", {}, me.token)).data;
    expect(d.account).toEqual(account);
    const [wallet] = await db.select().from(wallets).where(eq(wallets.userId, me.id));
    expect(d.balanceCents).toBe(wallet.balanceCents);
    expect(d.balanceCents).toBe(50_000 - 700);
    // Payable now: the weekly traffic bill, the monthly one before its deadline and the publish bill of the
    // service waiting for payment (23); the paid one is not. The same bills as My bills' "amount due".
    const [publish] = await db
      .select()
      .from(bills)
      .where(and(eq(bills.userId, me.id), eq(bills.appId, toPay.data.appId)));
    expect(d.dueCount).toBe(3);
    expect(d.dueCents).toBe(1_234 + 2_000 + publish.payCents);
    const due = await call("/sys/system/clientInfo/h5billDue", {}, me.token);
    expect([d.dueCount, d.dueCents]).toEqual([due.data.count, due.data.totalCents]);
    // The nearest deadline of those bills: the usage bill's, past already (it blocks, ADR 059).
    const deadlines = due.data.bills.map((b: { deadline: string }) => new Date(b.deadline).getTime());
    expect(new Date(d.nextDeadline).getTime()).toBe(Math.min(...deadlines));
    // Seven UTC+8 days, today last; their sum is what the usage table holds for those days.
    expect(d.usage7).toHaveLength(7);
    const [{ bytes }] = await db
      .select({ bytes: sum(sql`${usageDaily.bytesIn} + ${usageDaily.bytesOut}`) })
      .from(usageDaily)
      .where(and(eq(usageDaily.userId, me.id), gte(usageDaily.day, d.usage7[0].day)));
    expect(d.usage7.reduce((s: number, u: { mb: number }) => s + u.mb, 0)).toBe(Number(bytes) / (1024 * 1024));
    const byState = Object.fromEntries(
      d.services.byState.map((s: { verState: number; count: number }) => [s.verState, s.count]),
    );
    expect(byState).toMatchObject({ 25: 1, 5: 1, 23: 1, 1: 1 });
    expect(d.services.drafts).toBe(1);
    // What blocks a new service: the same bills, counted the same, as h5billDue with payType 1 (SPEC §5).
    const blocking = await call("/sys/system/clientInfo/h5billDue", { payType: 1 }, me.token);
    expect(blocking.data.count).toBeGreaterThan(0);
    expect(d.blockingBills).toEqual({ count: blocking.data.count, totalCents: blocking.data.totalCents });
    expect(d.queues).toBeNull();
  });

  it("counts join requests: those waiting for the publisher's decision, and the user's own under way", async () => {
    const publisher = await user();
    const joiner = await user();
    const db = service.services.db;
    const svc = await call("/test/services", { verState: 25 }, publisher.token);
    expect(svc.code, JSON.stringify(svc)).toBe(0);
    const [role] = await db.insert(appRoles).values({ verId: svc.data.appVerId, name: "member" }).returning();
    const join = (auditState: number) => ({
      appId: svc.data.appId,
      verId: svc.data.appVerId,
      userId: joiner.id,
      roleId: role.id,
      auditState,
      certificateMode: 1,
    });
    // Waiting for the publisher (0), approved and waiting for the operators (1), rejected (2): two under way.
    await db.insert(appJoins).values([join(0), join(1), join(2)]);
    const pub = (await call("/main/home/dashboard", {}, publisher.token)).data;
    const mine = (await call("/main/home/dashboard", {}, joiner.token)).data;
    expect([pub.joinRequestsToDecide, pub.myJoinRequests]).toEqual([1, 0]);
    expect([mine.joinRequestsToDecide, mine.myJoinRequests]).toEqual([0, 2]);
    expect(mine.blockingBills).toBeNull();
  });

  it("gives an operator each queue's waiting items, the same as /sys/ops/queues/waiting", async () => {
    const op = await user("operator");
    const publisher = await user();
    await call("/test/services", { verState: 5 }, publisher.token);
    const home = await call("/main/home/dashboard", {}, op.token);
    const queues = await call("/sys/ops/queues/waiting", {}, op.token);
    expect(queues.code, JSON.stringify(queues)).toBe(0);
    expect(home.data.queues).toEqual(queues.data);
    const [{ n }] = await service.services.db
      .select({ n: count() })
      .from(appVersions)
      .where(eq(appVersions.verState, 5));
    const [{ m }] = await service.services.db
      .select({ m: count() })
      .from(appVersions)
      .where(eq(appVersions.verState, 15));
    expect(queues.data.ServiceReviews).toBe(n + m);
    expect(queues.data.ServiceReviews).toBeGreaterThanOrEqual(1);
    // Not for users.
    expect((await call("/sys/ops/queues/waiting", {}, publisher.token)).code).toBe(4);
  });
});

describe("wizard drafts", () => {
  it("are listed with their step and discarded with their service, and only by their owner", async () => {
    const me = await user();
    const other = await user();
    const name = `Drafty ${Date.now().toString(36)}`;
    const saved = await saveDraft(me.token, name);
    expect(saved.code, JSON.stringify(saved)).toBe(0);
    const list = await call("/sys/chainAppInfo/wizard/drafts", {}, me.token);
    expect(list.data).toHaveLength(1);
    const [d] = list.data;
    expect(d).toMatchObject({ appId: saved.data.appId, name, appState: "add", wizardStep: "packages" });
    expect((await call("/sys/chainAppInfo/wizard/drafts", {}, other.token)).data).toEqual([]);

    expect(
      (await call("/sys/chainAppInfo/wizard/discard", { appId: d.appId, appVerId: d.appVerId }, other.token)).code,
    ).not.toBe(0);
    const gone = await call("/sys/chainAppInfo/wizard/discard", { appId: d.appId, appVerId: d.appVerId }, me.token);
    expect(gone.code, JSON.stringify(gone)).toBe(0);
    expect(gone.data).toEqual({ name, serviceRemoved: true });
    expect(await service.services.db.select().from(apps).where(eq(apps.id, d.appId))).toEqual([]);
    expect((await call("/sys/chainAppInfo/wizard/drafts", {}, me.token)).data).toEqual([]);
    // The name is free again.
    expect((await saveDraft(me.token, name)).code).toBe(0);
  });

  it("refuses to discard a submitted version", async () => {
    const me = await user();
    const s = await call("/test/services", { verState: 5 }, me.token);
    expect(
      (await call("/sys/chainAppInfo/wizard/discard", { appId: s.data.appId, appVerId: s.data.appVerId }, me.token))
        .code,
    ).not.toBe(0);
    expect(
      await service.services.db.select().from(appVersions).where(eq(appVersions.id, s.data.appVerId)),
    ).toHaveLength(1);
  });
});

describe("typed confirmation of destructive actions", () => {
  it("refuses a wrong name with a field error and changes nothing; the right name deactivates", async () => {
    const me = await user();
    const s = await call("/test/services", { verState: 25 }, me.token);
    const wrong = await call(
      "/sys/chainAppInfo/deactivate",
      { appVerId: s.data.appVerId, confirmName: `${s.data.name}x` },
      me.token,
    );
    expect(wrong.code).not.toBe(0);
    expect(JSON.stringify(wrong)).toContain("confirmName");
    const [still] = await service.services.db.select().from(appVersions).where(eq(appVersions.id, s.data.appVerId));
    expect(still.verState).toBe(25);
    const unsub = await call(
      "/sys/chainAppInfo/unsubscribe",
      { appVerId: s.data.appVerId, confirmName: "nope" },
      me.token,
    );
    expect(JSON.stringify(unsub)).toContain("confirmName");
    const ok = await call(
      "/sys/chainAppInfo/deactivate",
      { appVerId: s.data.appVerId, confirmName: ` ${s.data.name} ` },
      me.token,
    );
    expect(ok.code, JSON.stringify(ok)).toBe(0);
  });

  it("asks an operator's suspension for the name too", async () => {
    const op = await user("operator");
    const publisher = await user();
    const s = await call("/test/services", { verState: 25 }, publisher.token);
    const wrong = await call(
      "/sys/ops/services/decide",
      { appVerId: s.data.appVerId, decision: "suspend", comments: "Abuse", confirmName: "other" },
      op.token,
    );
    expect(JSON.stringify(wrong)).toContain("confirmName");
    const ok = await call(
      "/sys/ops/services/decide",
      { appVerId: s.data.appVerId, decision: "suspend", comments: "Abuse", confirmName: s.data.name },
      op.token,
    );
    expect(ok.code, JSON.stringify(ok)).toBe(0);
    expect(ok.data.verState).toBe(40);
  });
});
