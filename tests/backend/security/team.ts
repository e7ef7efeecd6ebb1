import { expect } from "vitest";
import { activationToken, activeUser, call, login, mailsTo, register, uniqueName, upload } from "../client.ts";

/**
 * One enterprise account with a member per role (issue 33, docs/decisions/075): its owner (the enterprise's
 * own login) and an admin, a developer, a finance member and a viewer, each an individual login invited by
 * email, accepting, and switched to act for the account.
 */

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

export const MEMBER_ROLES = ["admin", "developer", "finance", "viewer"] as const;
export type Identity = { userName: string; email: string; userId: number; token: string };
export type Team = {
  accountId: number;
  owner: Identity;
  members: Record<(typeof MEMBER_ROLES)[number], Identity>;
};

async function expectOk<T = any>(path: string, body: unknown, token?: string): Promise<T> {
  const res = await call<T>(path, body, token);
  expect(res.code, `${path}: ${JSON.stringify(res)}`).toBe(0);
  return res.data;
}

/** A registered, activated and signed-in enterprise login (its own account's owner). */
export async function enterpriseUser(prefix = "ent"): Promise<Identity> {
  const userName = uniqueName(prefix);
  const licence = await upload("licence", "licence.png", PNG);
  expect(licence.code, JSON.stringify(licence)).toBe(0);
  const registered = await register(
    userName,
    {
      userType: "2",
      companyName: `${userName} Ltd`,
      companyAddress: "1 Road",
      contactName: "Zhang",
      country: "Germany",
      creditCode: "DE12345678",
    },
    { uploadId: licence.data.uploadId },
  );
  expect(registered.code, JSON.stringify(registered)).toBe(0);
  const email = `${userName}@example.com`;
  await expectOk("/anon/user/activate", { token: activationToken(email) });
  const res = await login(userName);
  expect(res.code, JSON.stringify(res)).toBe(0);
  const me = await expectOk<{ userId: number }>("/main/getClientInfo", {}, res.data.token);
  return { userName, email, userId: me.userId, token: res.data.token };
}

/** The token of the newest invitation mail to `email`. */
export function invitationToken(email: string): string {
  const mail = mailsTo(email)
    .reverse()
    .find((m) => /team\/accept\?token=/.test(m.text));
  if (!mail) throw new Error(`no invitation mail for ${email}`);
  return mail.text.match(/team\/accept\?token=([A-Za-z0-9_-]+)/)![1];
}

/** Invites a new individual login with `role`, which accepts and switches to the account. */
export async function addMember(owner: Identity, accountId: number, role: string, prefix = "mem"): Promise<Identity> {
  const u = await activeUser(prefix);
  await expectOk("/sys/team/invite", { email: u.email, role }, owner.token);
  await expectOk("/main/team/accept", { token: invitationToken(u.email) }, u.token);
  await expectOk("/main/team/switch", { teamAccountId: accountId }, u.token);
  const me = await expectOk<{ userId: number; member: { memberId: number } }>("/main/getClientInfo", {}, u.token);
  expect(me.userId).toBe(accountId);
  return { userName: u.userName, email: u.email, userId: me.member.memberId, token: u.token };
}

export async function buildTeam(prefix = "team"): Promise<Team> {
  const owner = await enterpriseUser(`${prefix}o`);
  const members = {} as Team["members"];
  for (const role of MEMBER_ROLES) members[role] = await addMember(owner, owner.userId, role, `${prefix}${role[0]}`);
  return { accountId: owner.userId, owner, members };
}
