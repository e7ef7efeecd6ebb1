import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ledgerEntries } from "#backend/domains/billing/tables.ts";
import { callVueapi, inProcessVueapi, insertedUser, sessionOf } from "./in-process.ts";

// The console home's getting-started checklist (issue 30 item 13): each step read from the account's records,
// hidden for good by the account (/main/home/checklist/dismiss), none for an operator.
const service = inProcessVueapi("checklist", { TEST_FIXTURES: "1" });
const call = (p: string, body: object = {}, token?: string) => callVueapi(service, p, body, token);

async function user(role = "user") {
  const id = await insertedUser(service, `chk${randomBytes(5).toString("hex")}`, role);
  return { id, token: await sessionOf(service, id) };
}

async function checklist(token: string) {
  const res = await call("/main/home/dashboard", {}, token);
  expect(res.code, JSON.stringify(res)).toBe(0);
  return res.data.checklist as { steps: { key: string; done: boolean }[]; dismissed: boolean } | null;
}
const doneSteps = (c: Awaited<ReturnType<typeof checklist>>) => c!.steps.filter((s) => s.done).map((s) => s.key);

describe("the getting-started checklist", () => {
  it("ticks each step from the account's own records", async () => {
    const me = await user();
    const fresh = await checklist(me.token);
    expect(fresh).toEqual({
      steps: [
        { key: "profile", done: false },
        { key: "recharge", done: false },
        { key: "service", done: false },
        { key: "project", done: false },
      ],
      dismissed: false,
    });

    const profile = await call(
      "/sys/system/clientInfo/updateProfile",
      { country: "Singapore", selfIntroduction: "I build traceability services." },
      me.token,
    );
    expect(profile.code, JSON.stringify(profile)).toBe(0);
    expect(doneSteps(await checklist(me.token))).toEqual(["profile"]);

    // A grant (the demo's or an operator's) is not a recharge; a paid recharge's ledger entry is.
    const fx = await call("/test/fixtures", { grantCents: 100_000 }, me.token);
    expect(fx.code, JSON.stringify(fx)).toBe(0);
    expect(doneSteps(await checklist(me.token))).toEqual(["profile"]);
    await service.services.db.insert(ledgerEntries).values({
      userId: me.id,
      kind: "recharge",
      balanceDelta: 0,
      withdrawableDelta: 0,
      invoiceableDelta: 0,
      balanceAfter: 100_000,
      withdrawableAfter: 0,
      invoiceableAfter: 0,
      refType: "payment",
      refId: me.id,
    });
    expect(doneSteps(await checklist(me.token))).toEqual(["profile", "recharge"]);

    const published = await call("/test/services", { verState: 25 }, me.token);
    expect(published.code, JSON.stringify(published)).toBe(0);
    expect(doneSteps(await checklist(me.token))).toEqual(["profile", "recharge", "service"]);

    const orgs = await call(
      "/sys/pubChainOrg/queryPubOrgList",
      { page: { pageSize: 50, pageIndex: 1, condition: {} } },
      me.token,
    );
    const org = orgs.data.page.rows[0];
    const plan = await call(
      "/sys/opc/plan/buy",
      { orgId: org.orgId, idempotencyKey: randomBytes(8).toString("hex") },
      me.token,
    );
    expect(plan.code, JSON.stringify(plan)).toBe(0);
    // A plan alone is not a project.
    expect(doneSteps(await checklist(me.token))).toEqual(["profile", "recharge", "service"]);
    const project = await call(
      "/sys/opc/project/create",
      { planId: plan.data.planId, name: "first", framework: "evm", dailyRequests: "1000" },
      me.token,
    );
    expect(project.code, JSON.stringify(project)).toBe(0);
    const all = await checklist(me.token);
    expect(all!.steps.every((s) => s.done)).toBe(true);
    expect(all!.dismissed).toBe(false);
  });

  it("is dismissed for the account only, and dismissing again changes nothing", async () => {
    const me = await user();
    const other = await user();
    expect((await call("/main/home/checklist/dismiss", {}, me.token)).code).toBe(0);
    expect((await checklist(me.token))!.dismissed).toBe(true);
    expect((await call("/main/home/checklist/dismiss", {}, me.token)).code).toBe(0);
    expect((await checklist(me.token))!.dismissed).toBe(true);
    expect((await checklist(other.token))!.dismissed).toBe(false);
    // Without a session: refused, nothing written.
    expect((await call("/main/home/checklist/dismiss", {})).code).not.toBe(0);
  });

  it("is not an operator's", async () => {
    const op = await user("operator");
    const res = await call("/main/home/dashboard", {}, op.token);
    expect(res.code, JSON.stringify(res)).toBe(0);
    expect(res.data.checklist).toBeNull();
  });
});
