import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { activeUser, call, captcha, mailsTo, PASSWORD, uniqueName } from "./client.ts";
import { buildTeam, type Team } from "./security/team.ts";
import { waitFor } from "../support/wait.ts";

/**
 * Mails by role (issue 33, docs/decisions/085) over HTTP, on the suite's server and its job runner: a message about
 * the account's money is mailed to its owner and finance members, one about its services to the owner, admins and
 * developers, each in the language they last signed in with, with the message's text and a link to the account's
 * Message center; the other members and messages get no mail.
 */

let team: Team;

const ok = async (path: string, body: unknown, token: string) => {
  const res = await call(path, body, token);
  expect(res.code, `${path}: ${JSON.stringify(res)}`).toBe(0);
  return res.data;
};

/** Signs `userName` in again with `language` (the language their mails take from then on); the new session is dropped. */
async function signInWith(userName: string, language: "en" | "zh-CN") {
  const res = await call("/main/user/login", {
    username: userName,
    password: PASSWORD,
    captchaKey: await captcha(),
    captcha: inject("testCaptcha"),
    userLanguage: language,
  });
  expect(res.code, JSON.stringify(res)).toBe(0);
}

const noticeMails = (email: string, subject: RegExp) => mailsTo(email).filter((m) => subject.test(m.subject));

beforeAll(async () => {
  team = await buildTeam("nm");
  await signInWith(team.members.finance.userName, "zh-CN");
}, 180_000);

describe("mails by role", () => {
  it("a bill paid by finance is mailed to the owner and the finance member, each in their language", async () => {
    const { owner, members } = team;
    const [billId] = (
      await ok(
        "/test/fixtures",
        { grantCents: 5_000, bills: [{ totalCents: 1_234, serviceName: "Mail svc" }] },
        owner.token,
      )
    ).billIds;
    const paid = await ok(
      "/sys/system/clientInfo/h5billPay",
      { billId, idempotencyKey: randomUUID() },
      members.finance.token,
    );
    const en = await waitFor(
      "the owner's billing mail",
      async () => noticeMails(owner.email, /billing notice/),
      (m) => m.some((x) => x.text.includes(paid.billNo)),
    );
    const mail = en.find((x) => x.text.includes(paid.billNo))!;
    expect(mail.subject).toBe(`${owner.userName} Ltd: a billing notice from the BSN Portal`);
    expect(mail.text).toContain(`Bill ${paid.billNo} was paid from your balance: $12.34.`);
    expect(mail.text).toContain("as Owner of");
    // The owner's own account: the Message center itself.
    expect(mail.text).toMatch(/https?:\/\/\S+\/g\/home\/userCenter\/MessageCenter\n/);

    const zh = await waitFor(
      "the finance member's mail",
      async () => noticeMails(members.finance.email, /账务通知/),
      (m) => m.some((x) => x.text.includes(paid.billNo)),
    );
    const zhMail = zh.find((x) => x.text.includes(paid.billNo))!;
    expect(zhMail.subject).toBe(`${owner.userName} Ltd：BSN 门户账务通知`);
    expect(zhMail.text).toContain(`账单 ${paid.billNo}`);
    expect(zhMail.text).toContain("“财务”身份");
    // A member opens the account's Message center through the switcher.
    const link = zhMail.text.match(/https?:\/\/\S+\/g\/home\/team\/switch\?\S+/)![0];
    const url = new URL(link);
    expect(url.searchParams.get("accountId")).toBe(String(team.accountId));
    expect(url.searchParams.get("returnTo")).toBe("/g/home/userCenter/MessageCenter");

    // Money is not the developers', admins' or viewers' business.
    for (const role of ["admin", "developer", "viewer"] as const)
      expect(
        mailsTo(members[role].email).filter((m) => m.text.includes(paid.billNo)),
        role,
      ).toEqual([]);
  });

  it("a request to join a service, sent by the developer, is mailed to the owner, admins and developers", async () => {
    const { owner, members } = team;
    const publisher = await activeUser("nmp");
    const name = `Mail service ${uniqueName("s")}`;
    const svc = await ok("/test/services", { verState: 25, framework: "fisco", nodeCount: 2, name }, publisher.token);
    await ok("/test/participation/service", { appId: svc.appId, certificateMode: 1 }, publisher.token);
    const link = await ok("/sys/chainAppInfo/invite", { appVerId: svc.appVerId, language: "en" }, publisher.token);
    const invite = new URL(`http://x${link.path}`).searchParams;
    const developer = members.developer.token;
    const info = await ok(
      "/sys/chainAppInfo/applyJoinApp",
      { appId: svc.appId, token: invite.get("c"), expiry: invite.get("d"), language: invite.get("e") },
      developer,
    );
    const page = { pageSize: 50, pageIndex: 1, condition: { appId: svc.appId, ticket: info.ticket } };
    const roles = await ok("/sys/chainAppInfo/queryRolesForAppList", { page }, developer);
    const cities = await ok("/sys/chainAppInfo/queryReleaseCitysForAppList", { page }, developer);
    await ok(
      "/sys/chainAppInfo/joinApp",
      {
        appId: svc.appId,
        ticket: info.ticket,
        roleId: roles.page.rows[0].roleId,
        cityNodeIds: [cities.page.rows.find((c: { released: boolean }) => c.released).cityNodeId],
        certificateMode: 1,
      },
      developer,
    );
    const sent = `Your request to join ${name} was sent to its publisher for review.`;
    for (const [who, email] of [
      ["owner", owner.email],
      ["admin", members.admin.email],
      ["developer", members.developer.email],
    ] as const) {
      const mails = await waitFor(
        `the ${who}'s service mail`,
        async () => noticeMails(email, /service notice/),
        (m) => m.some((x) => x.text.includes(sent)),
      );
      expect(mails.find((x) => x.text.includes(sent))!.subject).toBe(
        `${owner.userName} Ltd: a service notice from the BSN Portal`,
      );
    }
    // The publisher (an individual, its own account's owner) is told of the request in its own mail.
    await waitFor(
      "the publisher's mail",
      async () => noticeMails(publisher.email, /service notice/),
      (m) => m.some((x) => x.text.includes(`applied to join your service ${name}`)),
    );
    for (const role of ["finance", "viewer"] as const)
      expect(
        mailsTo(members[role].email).filter((m) => m.text.includes(sent)),
        role,
      ).toEqual([]);
  });

  it("a message that is not about money or services is not mailed", async () => {
    const u = await activeUser("nmw");
    // Activation's welcome message is in the Message center only.
    const list = await ok("/sys/system/message/list", { page: { pageSize: 10, pageIndex: 1, condition: {} } }, u.token);
    expect(list.page.rows.map((r: { textKey: string }) => r.textKey)).toContain("messages.welcome");
    expect(mailsTo(u.email).filter((m) => /notice from the BSN Portal/.test(m.subject))).toEqual([]);
  });
});
