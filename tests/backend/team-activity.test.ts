import { beforeAll, describe, expect, it } from "vitest";
import { ACTIVITY_EXPORT_LIMIT } from "#contract/activity.ts";
import { Msg } from "#contract/messages.ts";
import { activeUser, call } from "./client.ts";
import { addMember, enterpriseUser, type Identity } from "./security/team.ts";
import { waitFor } from "../support/wait.ts";

/**
 * Team activity (issue 33 "who did what", docs/decisions/079) over HTTP, on PGlite or the suite's PostgreSQL:
 * a member's change is recorded with the member and the account, a refused or failed call and a read are not,
 * details keep only the path's allow-list, the filters and the export read the acting account's entries only.
 */

let owner: Identity;
let developer: Identity;
let finance: Identity;
let viewer: Identity;

const ok = async (path: string, body: unknown, token: string) => {
  const res = await call(path, body, token);
  expect(res.code, `${path}: ${JSON.stringify(res)}`).toBe(0);
  return res.data;
};
const list = async (token: string, filter: Record<string, unknown> = {}) =>
  ok("/sys/team/activity", { pageSize: 100, ...filter }, token);

const contact = { name: "Li Lei", mobile: "+8613912345678", email: "li@example.com", department: "Ops" };

beforeAll(async () => {
  owner = await enterpriseUser("tao");
  developer = await addMember(owner, owner.userId, "developer", "tad");
  finance = await addMember(owner, owner.userId, "finance", "taf");
  viewer = await addMember(owner, owner.userId, "viewer", "tav");
}, 120_000);

describe("recording", () => {
  it("a member's change is the account's entry, named, with the member, its target and its allowed details", async () => {
    const ws = await ok("/sys/ide/workspace/create", { name: "audit ws", templateId: "storage" }, developer.token);
    const saved = await ok("/sys/system/clientInfo/insertContactList", contact, finance.token);
    const { page, actors } = await list(viewer.token);
    const [newest, before] = page.rows;
    expect(newest).toMatchObject({
      memberId: finance.userId,
      memberName: finance.userName,
      action: "contact.save",
      kind: "money",
      details: {},
    });
    // The contact's fields are not on the allow-list: nothing of them is kept.
    expect(JSON.stringify(newest)).not.toContain(contact.mobile);
    expect(saved).toBeTruthy();
    expect(before).toMatchObject({
      memberId: developer.userId,
      memberName: developer.userName,
      action: "ide.createWorkspace",
      kind: "services",
      details: { name: "audit ws" },
    });
    expect(ws).toBeTruthy();
    // The members' invitations by the owner came first (the team's own changes).
    expect(page.rows.filter((r: any) => r.action === "team.invite")).toHaveLength(3);
    expect(page.rows.find((r: any) => r.action === "team.invite").details).toMatchObject({ role: "viewer" });
    expect(actors.map((a: any) => a.memberId).sort((a: number, b: number) => a - b)).toEqual(
      [owner.userId, developer.userId, finance.userId].sort((a, b) => a - b),
    );
  });

  it("a refused, a failed and a reading call record nothing", async () => {
    const before = (await list(owner.token)).page.total;
    // Refused by role (a viewer changes nothing), refused by the payload, failed in the handler, and a read.
    expect((await call("/sys/system/clientInfo/insertContactList", contact, viewer.token)).code).not.toBe(0);
    expect((await call("/sys/system/clientInfo/insertContactList", { name: "" }, finance.token)).code).not.toBe(0);
    const key = await call(
      "/sys/opc/account/keystore",
      { accountId: 2147480000, password: "secret-pass-1" },
      owner.token,
    );
    expect(key.code).not.toBe(0);
    await ok("/sys/system/clientInfo/contactList", {}, finance.token);
    expect((await list(owner.token)).page.total).toBe(before);
  });

  it("a key shown or regenerated is recorded as keys with the member, never the key itself", async () => {
    await ok("/test/fixtures", { grantCents: 10_000 }, owner.token);
    // The developer's plan is charged to the account within their monthly spending limit (docs/decisions/080).
    await ok("/sys/team/spendLimit", { memberId: developer.userId, spendLimit: "100" }, owner.token);
    const orgs = await ok(
      "/sys/pubChainOrg/queryPubOrgList",
      { page: { pageSize: 10, pageIndex: 1, condition: { orgName: "Shang", appType: 1 } } },
      developer.token,
    );
    const plan = await ok(
      "/sys/opc/plan/buy",
      { orgId: orgs.page.rows[0].orgId, idempotencyKey: `ta-plan-${Date.now()}` },
      developer.token,
    );
    const project = await ok(
      "/sys/opc/project/create",
      { planId: plan.planId, name: "activity project", framework: "evm", dailyRequests: "10000" },
      developer.token,
    );
    await waitFor(
      "deployed",
      () => ok("/sys/opc/project/detail", { projectId: project.projectId }, developer.token),
      (d: any) => d.status === 11,
    );
    const { apiKey } = await ok(
      "/sys/opc/project/key",
      { projectId: project.projectId, action: "show" },
      developer.token,
    );
    await ok("/sys/opc/project/key", { projectId: project.projectId, action: "regenerate" }, developer.token);
    const keys = await list(owner.token, { kind: "keys" });
    expect(keys.page.rows.map((r: any) => [r.memberName, r.action, r.targetId, r.details])).toEqual([
      [developer.userName, "publicChain.projectKey", String(project.projectId), { action: "regenerate" }],
      [developer.userName, "publicChain.projectKey", String(project.projectId), { action: "show" }],
    ]);
    expect(JSON.stringify(await list(owner.token))).not.toContain(apiKey);

    // What the Members page offers to change when the developer is removed (issue 33): the key, once, for the owner.
    const seen = await ok("/sys/team/keysSeen", { memberId: developer.userId }, owner.token);
    expect(seen.memberName).toBe(developer.userName);
    expect(seen.keys.map((k: any) => [k.action, k.targetId])).toEqual([
      ["publicChain.projectKey", String(project.projectId)],
    ]);
    expect(Date.parse(seen.keys[0].lastAt)).not.toBeNaN();
    expect((await ok("/sys/team/keysSeen", { memberId: viewer.userId }, owner.token)).keys).toEqual([]);
    // Another account cannot ask about the same login: not its member, never acted in it.
    const stranger = await enterpriseUser("tas");
    expect((await call("/sys/team/keysSeen", { memberId: developer.userId }, stranger.token)).message).toBe(
      Msg.NOT_A_MEMBER,
    );
    // Only the owner (permission `members`) may ask.
    expect((await call("/sys/team/keysSeen", { memberId: developer.userId }, finance.token)).message).toBe("MSG_33005");
  }, 120_000);
});

describe("reading", () => {
  it("filters by member, kind and UTC+8 days; every role reads it; another account sees none of it", async () => {
    const byDeveloper = await list(finance.token, { memberId: developer.userId });
    expect(byDeveloper.page.rows.length).toBeGreaterThan(0);
    expect(byDeveloper.page.rows.every((r: any) => r.memberId === developer.userId)).toBe(true);
    const money = await list(developer.token, { kind: "money" });
    expect(money.page.rows.map((r: any) => r.action)).toEqual(["contact.save"]);
    expect(money.page.rows.every((r: any) => r.kind === "money")).toBe(true);
    const members = await list(owner.token, { kind: "members" });
    expect(members.page.rows.every((r: any) => r.kind === "members")).toBe(true);
    expect((await list(owner.token, { dateTo: "2020-01-01" })).page.total).toBe(0);
    expect((await list(owner.token, { dateFrom: "2020-01-01" })).page.total).toBeGreaterThan(3);
    const bad = await call("/sys/team/activity", { kind: "nope", dateFrom: "2020-13-45" }, owner.token);
    expect(bad.message).toBe("MSG_10001");

    // Another account (and its owner's own account, when a member acts for itself) sees only its own entries.
    const stranger = await enterpriseUser("tax");
    expect((await list(stranger.token)).page.total).toBe(0);
    // Filtering by someone who never acted in the account (another account's member) is refused, not answered empty.
    const foreign = await call("/sys/team/activity", { memberId: developer.userId }, stranger.token);
    expect(foreign.message).toBe("MSG_33017");
    const individual = await activeUser("tai");
    await ok("/sys/system/clientInfo/insertContactList", contact, individual.token);
    const own = await list(individual.token);
    expect(own.page.rows.map((r: any) => [r.memberName, r.action])).toEqual([[individual.userName, "contact.save"]]);
  });

  it("the export has the same filters, the account's entries only, up to its limit", async () => {
    const all = await ok("/sys/team/activityExport", {}, viewer.token);
    expect(all.truncated).toBe(false);
    expect(all.rows.length).toBe(all.total);
    expect(all.total).toBeLessThanOrEqual(ACTIVITY_EXPORT_LIMIT);
    const mine = await ok("/sys/team/activityExport", { memberId: finance.userId }, viewer.token);
    expect(mine.rows.map((r: any) => r.action)).toEqual(["contact.save"]);
  });
});
