import { beforeAll, describe, expect, it } from "vitest";
import { ResponseCode } from "#contract/envelope.ts";
import { Msg } from "#contract/messages.ts";
import { activeUser, call, login, mailsTo } from "./client.ts";
import { addMember, enterpriseUser, invitationToken, type Identity } from "./security/team.ts";
import { waitFor } from "../support/wait.ts";

/**
 * Teams (issue 33, docs/decisions/075) over HTTP, on PGlite or the suite's PostgreSQL: invitations and every
 * refusal of a link, acting for an account and switching back, roles by path, a role change and a removal
 * ending what the member may do, and the transfer of ownership. The role × path matrix is in
 * security-matrix.test.ts.
 */

let owner: Identity;

beforeAll(async () => {
  owner = await enterpriseUser("tmo");
}, 120_000);

const ok = async (path: string, body: unknown, token: string) => {
  const res = await call(path, body, token);
  expect(res.code, `${path}: ${JSON.stringify(res)}`).toBe(0);
  return res.data;
};

describe("invitations", () => {
  it("an owner invites by email; the invitee accepts once, signed in with the invited address", async () => {
    const invitee = await activeUser("tmi");
    const sent = await ok("/sys/team/invite", { email: invitee.email, role: "developer" }, owner.token);
    expect(sent).toMatchObject({ email: invitee.email, role: "developer" });
    expect(Date.parse(sent.expiresAt) - Date.parse(sent.sentAt)).toBe(7 * 24 * 3600 * 1000);
    const token = invitationToken(invitee.email);
    expect(mailsTo(invitee.email).at(-1)!.text).toContain(`${owner.userName} Ltd`);

    // Another login (another address) may not use it; nothing is created.
    const stranger = await activeUser("tms");
    expect((await call("/main/team/accept", { token }, stranger.token)).message).toBe(Msg.INVITATION_OTHER_EMAIL);
    expect(await ok("/main/team/accounts", {}, stranger.token)).toHaveLength(1);

    expect(await ok("/main/team/invitation", { token }, invitee.token)).toMatchObject({ role: "developer" });
    expect(await ok("/main/team/accept", { token }, invitee.token)).toMatchObject({ teamAccountId: owner.userId });
    // Used twice: refused.
    expect((await call("/main/team/accept", { token }, invitee.token)).message).toBe(Msg.INVITATION_USED);
    expect((await call("/main/team/accept", { token: "nope" }, invitee.token)).message).toBe(Msg.INVITATION_INVALID);

    const accounts = await ok("/main/team/accounts", {}, invitee.token);
    expect(accounts.map((a: any) => [a.role, a.current])).toEqual([
      ["owner", true],
      ["developer", false],
    ]);
    const team = await ok("/sys/team/members", {}, owner.token);
    expect(team.members.map((m: any) => [m.userName, m.role])).toEqual([
      [owner.userName, "owner"],
      [invitee.userName, "developer"],
    ]);
  });

  it("a resend waits a minute, and the old link dies with it; a withdrawn invitation is refused; another account's is unknown", async () => {
    const invitee = await activeUser("tmr");
    const sent = await ok("/sys/team/invite", { email: invitee.email, role: "viewer" }, owner.token);
    const first = invitationToken(invitee.email);
    const early = await call("/sys/team/resend", { invitationId: sent.invitationId }, owner.token);
    expect(early.message).toBe(Msg.INVITATION_RESEND_WAIT);
    const other = await enterpriseUser("tmx");
    expect((await call("/sys/team/resend", { invitationId: sent.invitationId }, other.token)).message).toBe(
      Msg.NOT_A_MEMBER,
    );
    expect((await call("/sys/team/cancelInvitation", { invitationId: sent.invitationId }, other.token)).message).toBe(
      Msg.NOT_A_MEMBER,
    );
    await ok("/sys/team/cancelInvitation", { invitationId: sent.invitationId }, owner.token);
    expect((await call("/main/team/accept", { token: first }, invitee.token)).message).toBe(Msg.INVITATION_USED);
    expect(await ok("/main/team/accounts", {}, invitee.token)).toHaveLength(1);
  });

  it("an individual account has no members; a member already is refused", async () => {
    const individual = await activeUser("tmn");
    const res = await call("/sys/team/invite", { email: "x@example.com", role: "viewer" }, individual.token);
    expect(res.message).toBe(Msg.TEAM_ENTERPRISE_ONLY);
    const again = await call("/sys/team/invite", { email: owner.email, role: "viewer" }, owner.token);
    expect(again.message).toBe(Msg.ALREADY_MEMBER);
  });
});

describe("acting for an account", () => {
  it("a finance member pays but cannot publish; a developer deploys but cannot recharge; a viewer changes nothing", async () => {
    const finance = await addMember(owner, owner.userId, "finance", "tmf");
    const developer = await addMember(owner, owner.userId, "developer", "tmd");
    const viewer = await addMember(owner, owner.userId, "viewer", "tmv");
    // The account's data: its bills, as every member reads them.
    expect((await call("/sys/system/clientInfo/h5billList", {}, viewer.token)).code).toBe(0);
    const publish = await call("/sys/chainAppInfo/wizard/submit", { appState: "add", appId: 1 }, finance.token);
    expect([publish.code, publish.message]).toEqual([ResponseCode.NO_PERMISSION, "MSG_33002"]);
    const recharge = await call("/sys/account/recharge", { amount: 1000 }, developer.token);
    expect([recharge.code, recharge.message]).toEqual([ResponseCode.NO_PERMISSION, "MSG_33003"]);
    expect(recharge.data.roles).toEqual(["owner", "admin", "finance"]);
    const ws = await call("/sys/ide/workspace/create", { name: "team ws", templateId: "blank" }, developer.token);
    expect(ws.code === ResponseCode.NO_PERMISSION).toBe(false);
    const members = await call("/sys/team/members", {}, viewer.token);
    expect(members.message).toBe("MSG_33005");
    // Switching back to its own account: the member is its own owner there.
    const own = await ok("/main/team/switch", { teamAccountId: finance.userId }, finance.token);
    expect(own).toMatchObject({ role: "owner", current: true });
    expect((await ok("/main/getClientInfo", {}, finance.token)).userId).toBe(finance.userId);
    // A login may not switch to an account it is not a member of.
    const stranger = await enterpriseUser("tmy");
    expect((await call("/main/team/switch", { teamAccountId: stranger.userId }, finance.token)).message).toBe(
      Msg.NOT_A_MEMBER,
    );
  });

  it("a role change applies at once; a removal ends the member's sessions acting for the account", async () => {
    const member = await addMember(owner, owner.userId, "developer", "tmc");
    const second = (await login(member.userName)).data.token as string;
    await ok("/main/team/switch", { teamAccountId: owner.userId }, second);
    await ok("/sys/team/setRole", { memberId: member.userId, role: "viewer" }, owner.token);
    // Read again within the session cache's lifetime in every process (here: at once in this one).
    await waitFor(
      "the member's role",
      async () => (await call("/main/getClientInfo", {}, member.token)).data.member.role,
      (role) => role === "viewer",
    );
    expect((await call("/sys/ide/workspace/create", { name: "w" }, member.token)).message).toBe("MSG_33002");
    expect((await call("/sys/team/setRole", { memberId: owner.userId, role: "viewer" }, owner.token)).message).toBe(
      Msg.OWNER_UNCHANGEABLE,
    );

    await ok("/sys/team/remove", { memberId: member.userId }, owner.token);
    for (const token of [member.token, second]) {
      await waitFor(
        "the removed member's session",
        async () => (await call("/main/getClientInfo", {}, token)).code,
        (code) => code === ResponseCode.SESSION_INVALID,
      );
    }
    // Signed in again, the login acts for its own account and the team's is no longer offered.
    const fresh = (await login(member.userName)).data.token as string;
    const accounts = await ok("/main/team/accounts", {}, fresh);
    expect(accounts.map((a: any) => a.teamAccountId)).toEqual([member.userId]);
    expect((await call("/main/team/switch", { teamAccountId: owner.userId }, fresh)).message).toBe(Msg.NOT_A_MEMBER);
    expect((await call("/sys/team/remove", { memberId: owner.userId }, owner.token)).message).toBe(
      Msg.OWNER_UNCHANGEABLE,
    );
  });

  it("ownership moves only by the owner's typed confirmation; the old owner stays an admin", async () => {
    const company = await enterpriseUser("tmt");
    const heir = await addMember(company, company.userId, "admin", "tmh");
    const wrong = await call("/sys/team/transfer", { memberId: heir.userId, confirmation: "nope" }, company.token);
    expect(wrong.message).toBe(Msg.TRANSFER_CONFIRMATION_WRONG);
    const byAdmin = await call(
      "/sys/team/transfer",
      { memberId: heir.userId, confirmation: company.userName },
      heir.token,
    );
    expect(byAdmin.message).toBe("MSG_33005");
    await ok(
      "/sys/team/transfer",
      { memberId: heir.userId, confirmation: company.userName.toUpperCase() },
      company.token,
    );
    await waitFor(
      "the old owner's role",
      async () => (await call("/main/getClientInfo", {}, company.token)).data.member.role,
      (role) => role === "admin",
    );
    expect((await ok("/main/getClientInfo", {}, heir.token)).member.role).toBe("owner");
    const team = await ok("/sys/team/members", {}, heir.token);
    expect(team.members.filter((m: any) => m.role === "owner").map((m: any) => m.memberId)).toEqual([heir.userId]);
    expect((await call("/sys/team/members", {}, company.token)).message).toBe("MSG_33005");
  });
});
