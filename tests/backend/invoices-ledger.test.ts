import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { derivedTotals, post, totalsOf } from "#backend/domains/billing/ledger.ts";
import { users } from "#backend/db/tables.ts";
import { callVueapi, inProcessVueapi } from "./in-process.ts";

// The invoiceable amount can be lower than the bills' sum (a refund took part of it): the ledger is the
// authority, so such an application is refused with MSG_30009 and nothing changes. In-process, so the
// test can post a refund through the ledger directly, as the billing area does.
const service = inProcessVueapi("invoices", { TEST_CAPTCHA: "INV1", TEST_FIXTURES: "1", DEMO: "1" });
const call = (p: string, body: object = {}, token?: string) => callVueapi(service, p, body, token);

describe("the invoiceable amount of the ledger", () => {
  it("is never exceeded: MSG_30009, and a refusal holds nothing", async () => {
    const captchaKey = (await call("/anon/captcha/create")).data.captchaKey;
    const login = await call("/main/user/login", {
      username: "demoperson",
      password: "Demo12!@pass",
      captchaKey,
      captcha: "INV1",
    });
    expect(login.code).toBe(0);
    const token = login.data.token as string;
    const fixtures = await call(
      "/test/fixtures",
      { grantCents: 1000, bills: [{ totalCents: 1000, payState: 15 }] },
      token,
    );
    expect(fixtures.code, JSON.stringify(fixtures)).toBe(0);
    const [me] = await service.services.db.select().from(users).where(eq(users.userName, "demoperson"));
    // A refund elsewhere lowers the invoiceable amount (the demo data's and the fixture bill's) to 600.
    const before = (await totalsOf(service.services.db, me.id)).invoiceableCents;
    await service.services.db.transaction((tx) =>
      post(tx, { userId: me.id, kind: "refund", amountCents: before - 600, refType: "payment", refId: 1 }, new Date()),
    );
    expect((await totalsOf(service.services.db, me.id)).invoiceableCents).toBe(600);

    const titles = (await call("/sys/invoicetitles/h5queryInvoiceTitleList", {}, token)).data.page.rows;
    const body = {
      idempotencyKey: randomBytes(16).toString("hex"),
      billIds: fixtures.data.billIds.map(String),
      titleId: String(titles[0].titleId),
      invoiceType: "1",
      issuance: "2",
      email: "demoperson@example.com",
    };
    const res = await call("/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade", body, token);
    expect(res).toMatchObject({ code: 1, message: "MSG_30009", data: { invoiceableCents: 600, amountCents: 1000 } });
    const after = await call("/sys/system/invoiceAccountTrade/h5queryInvoiceableBills", {}, token);
    expect(after.data.invoiceableCents).toBe(600);
    expect(after.data.bills.map((b: { billId: number }) => b.billId)).toEqual(
      expect.arrayContaining(fixtures.data.billIds),
    );
    // The wallet still equals the ledger's sums.
    expect(await totalsOf(service.services.db, me.id)).toEqual(await derivedTotals(service.services.db, me.id));
  });
});
