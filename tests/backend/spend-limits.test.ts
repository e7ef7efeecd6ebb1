import { beforeAll, describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { monthStart } from "#backend/domains/billing/spend.ts";
import { call } from "./client.ts";
import { addMember, enterpriseUser, type Identity } from "./security/team.ts";

/**
 * A developer's monthly spending limit (issue 33, docs/decisions/080) over HTTP, on PGlite or the suite's
 * PostgreSQL: limit 0 sends the publish bill to finance, who pays it and the service moves on; a limit that
 * covers it pays and counts; two charges at once cannot both pass under the limit.
 */

let owner: Identity;
let developer: Identity;
let finance: Identity;

beforeAll(async () => {
  owner = await enterpriseUser("spo");
  developer = await addMember(owner, owner.userId, "developer", "spd");
  finance = await addMember(owner, owner.userId, "finance", "spf");
  const grant = await call("/test/fixtures", { grantCents: 100_000 }, owner.token);
  expect(grant.code, JSON.stringify(grant)).toBe(0);
}, 180_000);

const ok = async (path: string, body: unknown, token: string) => {
  const res = await call(path, body, token);
  expect(res.code, `${path}: ${JSON.stringify(res)}`).toBe(0);
  return res.data;
};
const key = () => `k${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`.padEnd(20, "x");

/** A service of the account waiting for its publish bill (23), made by the developer. */
async function toBePaid(costCents: number) {
  return (await ok("/test/services", { verState: 23, costCents }, developer.token)) as {
    appId: number;
    appVerId: number;
  };
}
const billOf = async (appId: number, appVerId: number, token: string) =>
  (await ok("/sys/chainAppInfo/publishedDetail", { appId, appVerId }, token)).bill as {
    billId: number;
    payState: number;
  };
const memberRow = async (who: Identity) =>
  (await ok("/sys/team/members", {}, owner.token)).members.find((m: any) => m.memberId === who.userId);

describe("spending limits", () => {
  it("limit 0: the publish bill waits for finance; the developer cannot pay it; finance pays and the service moves on", async () => {
    expect(await memberRow(developer)).toMatchObject({ spendLimitCents: 0, spentCents: 0 });
    const { appId, appVerId } = await toBePaid(1_500);
    const sent = await call("/sys/chainAppInfo/payPublishBill", { appVerId, idempotencyKey: key() }, developer.token);
    expect(sent.message).toBe(Msg.SENT_TO_FINANCE);
    const bill = await billOf(appId, appVerId, owner.token);
    expect(bill.payState).toBe(1);
    const detail = await ok("/sys/system/clientInfo/h5billDetail", { billId: bill.billId }, finance.token);
    expect(detail).toMatchObject({ awaitsFinance: true, memberName: developer.userName });
    expect(sent.data.messageParams.billNo).toBe(detail.billNo);
    const list = await ok("/sys/system/clientInfo/h5billList", { page: { pageSize: 100 } }, developer.token);
    expect(list.page.rows.find((r: any) => r.billId === bill.billId).awaitsFinance).toBe(true);
    // Finance is told (its own login's Message Center).
    await ok("/main/team/switch", { teamAccountId: finance.userId }, finance.token);
    const inbox = await ok("/sys/system/message/list", { page: { pageSize: 50 } }, finance.token);
    await ok("/main/team/switch", { teamAccountId: owner.userId }, finance.token);
    const rows = inbox.page.rows as { textKey: string }[];
    expect(rows.some((m) => m.textKey === "messages.billWaitsForFinance")).toBe(true);
    // The developer may not settle it from My bills (pay is finance's).
    const refused = await call(
      "/sys/system/clientInfo/h5billPay",
      { billId: bill.billId, idempotencyKey: key() },
      developer.token,
    );
    expect(refused.code).toBe(4);
    const paid = await ok(
      "/sys/system/clientInfo/h5billPay",
      { billId: bill.billId, idempotencyKey: key() },
      finance.token,
    );
    expect(paid).toMatchObject({ payState: 15 });
    const after = await ok("/sys/system/clientInfo/h5billDetail", { billId: bill.billId }, owner.token);
    expect(after).toMatchObject({ awaitsFinance: false, payState: 15, memberName: developer.userName });
    expect((await ok("/sys/chainAppInfo/publishedDetail", { appId, appVerId }, owner.token)).verState).toBe(24);
    // Finance's payment is not the developer's spend.
    expect((await memberRow(developer)).spentCents).toBe(0);
  });

  it("a limit that covers it: the developer pays and it counts; above what is left, refused again", async () => {
    await ok("/sys/team/spendLimit", { memberId: developer.userId, spendLimit: "30" }, owner.token);
    expect((await memberRow(developer)).spendLimitCents).toBe(3_000);
    const first = await toBePaid(2_000);
    await ok("/sys/chainAppInfo/payPublishBill", { appVerId: first.appVerId, idempotencyKey: key() }, developer.token);
    expect((await memberRow(developer)).spentCents).toBe(2_000);
    const bill = await billOf(first.appId, first.appVerId, owner.token);
    const detail = await ok("/sys/system/clientInfo/h5billDetail", { billId: bill.billId }, owner.token);
    expect(detail).toMatchObject({ payState: 15, awaitsFinance: false, memberName: developer.userName });
    const second = await toBePaid(1_500);
    const sent = await call(
      "/sys/chainAppInfo/payPublishBill",
      { appVerId: second.appVerId, idempotencyKey: key() },
      developer.token,
    );
    expect(sent.message).toBe(Msg.SENT_TO_FINANCE);
    expect((await memberRow(developer)).spentCents).toBe(2_000);
  });

  it("two charges at once cannot both pass under the limit", async () => {
    const base = (await memberRow(developer)).spentCents as number;
    await ok(
      "/sys/team/spendLimit",
      { memberId: developer.userId, spendLimit: ((base + 6_000) / 100).toFixed(2) },
      owner.token,
    );
    const a = await toBePaid(5_000);
    const b = await toBePaid(5_000);
    const answers = await Promise.all(
      [a, b].map((s) =>
        call("/sys/chainAppInfo/payPublishBill", { appVerId: s.appVerId, idempotencyKey: key() }, developer.token),
      ),
    );
    expect(answers.map((r) => r.message).sort()).toEqual([Msg.SENT_TO_FINANCE, "success"].sort());
    expect((await memberRow(developer)).spentCents).toBe(base + 5_000);
  });

  it("the owner's form: bad amounts are refused at the field; the owner's own row is not limited; others may not set it", async () => {
    for (const spendLimit of ["-1", "abc", "1.234", "1000000.01"]) {
      const res = await call("/sys/team/spendLimit", { memberId: developer.userId, spendLimit }, owner.token);
      expect(res.code, spendLimit).not.toBe(0);
      expect(res.data.fieldErrors.spendLimit, spendLimit).toBeDefined();
    }
    expect((await call("/sys/team/spendLimit", { memberId: owner.userId, spendLimit: "5" }, owner.token)).message).toBe(
      Msg.OWNER_UNCHANGEABLE,
    );
    expect(
      (await call("/sys/team/spendLimit", { memberId: developer.userId, spendLimit: "5" }, finance.token)).code,
    ).toBe(4);
  });

  it("the month is the calendar month in UTC: the spend starts again on the 1st", () => {
    expect(monthStart(new Date("2026-11-30T23:59:59.999Z")).toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(monthStart(new Date("2026-12-01T00:00:00.000Z")).toISOString()).toBe("2026-12-01T00:00:00.000Z");
  });
});
