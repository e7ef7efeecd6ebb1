import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { activeUser, call, login } from "./client.ts";

// Issue "Account centre and finance": invoice titles, receiving addresses, applications and their review.
const key = () => randomBytes(16).toString("hex");

const enterpriseTitle = {
  titleType: "2",
  title: "Example Chain Ltd.",
  taxNo: "91110108MA01ABCD1X",
  bank: "Example Bank",
  bankAccount: "6222020200112233445",
  registeredAddress: "1 Example Road, Beijing",
  registeredPhone: "010-12345678",
};
const address = {
  name: "Li Lei",
  mobile: "13800000000",
  location: "Beijing, China",
  address: "2 Example Street",
  postalCode: "100080",
  email: "lilei@example.com",
};

async function paidBills(token: string, amounts: number[]) {
  const total = amounts.reduce((a, b) => a + b, 0);
  const res = await call(
    "/test/fixtures",
    { grantCents: total, bills: amounts.map((totalCents) => ({ totalCents, payState: 15 })) },
    token,
  );
  expect(res.code, JSON.stringify(res)).toBe(0);
  return (res.data.billIds as number[]).map(String);
}

async function setUp(amounts = [1000, 2500]) {
  const user = await activeUser("inv");
  const billIds = await paidBills(user.token, amounts);
  const title = await call("/sys/invoicetitles/h5insertInvoiceTitle", enterpriseTitle, user.token);
  expect(title.code, JSON.stringify(title)).toBe(0);
  const addressee = await call("/sys/system/clientInfo/addOrUpdateClientAddressee", address, user.token);
  expect(addressee.code, JSON.stringify(addressee)).toBe(0);
  return { ...user, billIds, titleId: String(title.data.titleId), addresseeId: String(addressee.data.addresseeId) };
}

function application(
  u: { billIds: string[]; titleId: string; addresseeId: string },
  extra: Record<string, unknown> = {},
) {
  return {
    idempotencyKey: key(),
    billIds: u.billIds,
    titleId: u.titleId,
    invoiceType: "1",
    issuance: "1",
    addresseeId: u.addresseeId,
    ...extra,
  };
}

async function invoiceable(token: string) {
  const res = await call("/sys/system/invoiceAccountTrade/h5queryInvoiceableBills", {}, token);
  expect(res.code).toBe(0);
  return res.data as { invoiceableCents: number; bills: { billId: number; amountCents: number }[] };
}

let operator: string;
beforeAll(async () => {
  const res = await login("demooperator", "Demo12!@pass");
  expect(res.code, JSON.stringify(res)).toBe(0);
  operator = res.data.token;
});

describe("invoice titles and receiving addresses", () => {
  it("checks required fields and formats; enterprise and organisation titles need a tax number", async () => {
    const { token } = await activeUser("invt");
    const empty = await call("/sys/invoicetitles/h5insertInvoiceTitle", {}, token);
    expect(empty.message).toBe("MSG_10001");
    expect(Object.keys(empty.data.fieldErrors)).toEqual(expect.arrayContaining(["titleType", "title"]));
    const noTax = await call("/sys/invoicetitles/h5insertInvoiceTitle", { titleType: "3", title: "Org" }, token);
    expect(noTax.data.fieldErrors.taxNo).toEqual(["invoices:validation.taxNoRequired"]);
    const badTax = await call(
      "/sys/invoicetitles/h5insertInvoiceTitle",
      { titleType: "2", title: "Co", taxNo: "abc" },
      token,
    );
    expect(badTax.data.fieldErrors.taxNo).toEqual(["invoices:validation.taxNo"]);
    expect(
      (await call("/sys/invoicetitles/h5insertInvoiceTitle", { titleType: "1", title: "Han Meimei" }, token)).code,
    ).toBe(0);

    const noAddress = await call("/sys/system/clientInfo/addOrUpdateClientAddressee", { name: "A" }, token);
    expect(Object.keys(noAddress.data.fieldErrors)).toEqual(expect.arrayContaining(["mobile", "location", "address"]));
    const badMail = await call(
      "/sys/system/clientInfo/addOrUpdateClientAddressee",
      { ...address, email: "nope", mobile: "12" },
      token,
    );
    expect(Object.keys(badMail.data.fieldErrors)).toEqual(expect.arrayContaining(["email", "mobile"]));
  });

  it("keeps one default: the first is the default, a new default replaces the old one", async () => {
    const { token } = await activeUser("invd");
    const a = await call("/sys/invoicetitles/h5insertInvoiceTitle", { titleType: "1", title: "First" }, token);
    const b = await call("/sys/invoicetitles/h5insertInvoiceTitle", { titleType: "1", title: "Second" }, token);
    let list = (await call("/sys/invoicetitles/h5queryInvoiceTitleList", {}, token)).data.page.rows;
    expect(list.find((r: any) => r.titleId === a.data.titleId).isDefault).toBe(true);
    expect(list.find((r: any) => r.titleId === b.data.titleId).isDefault).toBe(false);
    await call(
      "/sys/invoicetitles/h5updateInvoiceTitle",
      { titleId: String(b.data.titleId), titleType: "1", title: "Second!", isDefault: "on" },
      token,
    );
    list = (await call("/sys/invoicetitles/h5queryInvoiceTitleList", {}, token)).data.page.rows;
    expect(list.filter((r: any) => r.isDefault).map((r: any) => r.title)).toEqual(["Second!"]);
    // Concurrent saves that all want the default still leave exactly one.
    await Promise.all(
      [1, 2, 3].map((i) =>
        call(
          "/sys/system/clientInfo/addOrUpdateClientAddressee",
          { ...address, name: `N${i}`, isDefault: "on" },
          token,
        ),
      ),
    );
    const addresses = (await call("/sys/system/clientInfo/queryClientAddresseeList", {}, token)).data.page.rows;
    expect(addresses).toHaveLength(3);
    expect(addresses.filter((r: any) => r.isDefault)).toHaveLength(1);
    // Deleting the default makes the newest remaining one the default.
    const def = addresses.find((r: any) => r.isDefault);
    expect(
      (await call("/sys/system/clientInfo/deleteClientAddressee", { addresseeId: def.addresseeId }, token)).code,
    ).toBe(0);
    const left = (await call("/sys/system/clientInfo/queryClientAddresseeList", {}, token)).data.page.rows;
    expect(left).toHaveLength(2);
    expect(left.filter((r: any) => r.isDefault)).toHaveLength(1);
  });

  it("another user's title or address by id gives nothing and changes nothing", async () => {
    const owner = await setUp([500]);
    const other = await activeUser("invo");
    expect(
      (
        await call(
          "/sys/invoicetitles/h5updateInvoiceTitle",
          { ...enterpriseTitle, titleId: owner.titleId, title: "Hijack" },
          other.token,
        )
      ).message,
    ).toBe("MSG_10002");
    expect(
      (await call("/sys/invoicetitles/h5deleteInvoiceTitle", { titleId: Number(owner.titleId) }, other.token)).message,
    ).toBe("MSG_10002");
    expect(
      (
        await call(
          "/sys/system/clientInfo/addOrUpdateClientAddressee",
          { ...address, addresseeId: owner.addresseeId, name: "Hijack" },
          other.token,
        )
      ).message,
    ).toBe("MSG_10002");
    expect(
      (
        await call(
          "/sys/system/clientInfo/deleteClientAddressee",
          { addresseeId: Number(owner.addresseeId) },
          other.token,
        )
      ).message,
    ).toBe("MSG_10002");
    expect((await call("/sys/invoicetitles/h5queryInvoiceTitleList", {}, other.token)).data.page.total).toBe(0);
    const titles = (await call("/sys/invoicetitles/h5queryInvoiceTitleList", {}, owner.token)).data.page.rows;
    expect(titles.map((r: any) => r.title)).toEqual([enterpriseTitle.title]);
    const addresses = (await call("/sys/system/clientInfo/queryClientAddresseeList", {}, owner.token)).data.page.rows;
    expect(addresses.map((r: any) => r.name)).toEqual([address.name]);
    // Nor can the other user apply with the owner's title, address or bills.
    await paidBills(other.token, [300]);
    const otherTitle = await call(
      "/sys/invoicetitles/h5insertInvoiceTitle",
      { titleType: "1", title: "Other" },
      other.token,
    );
    const withOwnersTitle = await call(
      "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade",
      application({ ...owner, billIds: (await invoiceable(other.token)).bills.map((b) => String(b.billId)) }),
      other.token,
    );
    expect(withOwnersTitle.data.fieldErrors.titleId).toBeDefined();
    const withOwnersBills = await call(
      "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade",
      application({ ...owner, titleId: String(otherTitle.data.titleId) }, { issuance: "2", email: "x@example.com" }),
      other.token,
    );
    expect(withOwnersBills.message).toBe("MSG_30015");
    expect((await invoiceable(owner.token)).bills).toHaveLength(1);
  });
});

describe("invoice applications", () => {
  it("applies for two bills: amount is their sum, bills in progress, invoiceable amount held; a replay makes one application", async () => {
    const u = await setUp([1000, 2500]);
    expect((await invoiceable(u.token)).invoiceableCents).toBe(3500);
    const body = application(u, { remark: "Please hurry" });
    const [first, second] = await Promise.all([
      call("/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade", body, u.token),
      call("/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade", body, u.token),
    ]);
    expect(first.code, JSON.stringify(first)).toBe(0);
    expect(second.code, JSON.stringify(second)).toBe(0);
    expect(second.data.invoiceId).toBe(first.data.invoiceId);
    const list = await call("/sys/system/invoiceAccountTrade/h5queryInvoiceAccountTradeList", {}, u.token);
    expect(list.data.page.total).toBe(1);
    expect(list.data.invoiceableCents).toBe(0);
    const detail = (
      await call(
        "/sys/system/invoiceAccountTrade/h5invoiceAccountTradeDetail",
        { invoiceId: first.data.invoiceId },
        u.token,
      )
    ).data;
    expect(detail).toMatchObject({
      amountCents: 3500,
      status: 1,
      issuance: 1,
      invoiceType: 1,
      titleInfo: { title: enterpriseTitle.title, taxNo: enterpriseTitle.taxNo },
      recipient: { name: "Li Lei", address: "2 Example Street", remark: "Please hurry" },
    });
    expect(detail.bills.map((b: any) => b.invoiceState)).toEqual([2, 2]);
    // Later edits of the title do not change the application (it holds a copy).
    await call(
      "/sys/invoicetitles/h5updateInvoiceTitle",
      { ...enterpriseTitle, titleId: u.titleId, title: "Renamed" },
      u.token,
    );
    const again = (
      await call(
        "/sys/system/invoiceAccountTrade/h5invoiceAccountTradeDetail",
        { invoiceId: first.data.invoiceId },
        u.token,
      )
    ).data;
    expect(again.titleInfo.title).toBe(enterpriseTitle.title);
  });

  it("never invoices a bill twice, also under concurrent submissions", async () => {
    const u = await setUp([700, 800]);
    const results = await Promise.all(
      [1, 2, 3].map(() => call("/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade", application(u), u.token)),
    );
    expect(results.filter((r) => r.code === 0)).toHaveLength(1);
    expect(results.filter((r) => r.code !== 0).map((r) => r.message)).toEqual(["MSG_30015", "MSG_30015"]);
    const again = await call(
      "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade",
      application({ ...u, billIds: [u.billIds[0]] }),
      u.token,
    );
    expect(again.message).toBe("MSG_30015");
    expect((await invoiceable(u.token)).invoiceableCents).toBe(0);
    expect(
      (await call("/sys/system/invoiceAccountTrade/h5queryInvoiceAccountTradeList", {}, u.token)).data.page.total,
    ).toBe(1);
  });

  it("refuses unpaid bills; the amount is the paid bills' sum (MSG_30009 itself: invoices-ledger.test.ts)", async () => {
    const u = await setUp([1000]);
    const unpaid = await call("/test/fixtures", { bills: [{ totalCents: 400 }] }, u.token);
    const withUnpaid = await call(
      "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade",
      application({ ...u, billIds: [...u.billIds, String(unpaid.data.billIds[0])] }),
      u.token,
    );
    expect(withUnpaid.message).toBe("MSG_30015");
    expect((await invoiceable(u.token)).invoiceableCents).toBe(1000);
    const ok = await call("/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade", application(u), u.token);
    expect(ok.code).toBe(0);
    expect((await invoiceable(u.token)).invoiceableCents).toBe(0);
  });

  it("special VAT needs a complete enterprise or organisation title; paper needs an address, electronic an email", async () => {
    const u = await setUp([600]);
    const individual = await call(
      "/sys/invoicetitles/h5insertInvoiceTitle",
      { titleType: "1", title: "Li Lei" },
      u.token,
    );
    const partial = await call(
      "/sys/invoicetitles/h5insertInvoiceTitle",
      { titleType: "2", title: "Half Co", taxNo: "91110108MA01ABCD2X" },
      u.token,
    );
    for (const titleId of [individual.data.titleId, partial.data.titleId]) {
      const res = await call(
        "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade",
        application({ ...u, titleId: String(titleId) }, { invoiceType: "5" }),
        u.token,
      );
      expect(res.data.fieldErrors.invoiceType).toEqual(["invoices:validation.specialNeedsTitle"]);
    }
    const paper = await call(
      "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade",
      application(u, { addresseeId: undefined }),
      u.token,
    );
    expect(paper.data.fieldErrors.addresseeId).toEqual(["invoices:validation.addresseeRequired"]);
    const electronic = await call(
      "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade",
      application(u, { issuance: "2", addresseeId: undefined }),
      u.token,
    );
    expect(electronic.data.fieldErrors.email).toEqual(["invoices:validation.emailRequired"]);
    const badType = await call(
      "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade",
      application(u, { invoiceType: "3" }),
      u.token,
    );
    expect(badType.data.fieldErrors.invoiceType).toBeDefined();
    // Nothing was held by the refusals.
    expect((await invoiceable(u.token)).invoiceableCents).toBe(600);
    const special = await call(
      "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade",
      application(u, { invoiceType: "5", issuance: "2", addresseeId: undefined, email: "ap@example.com" }),
      u.token,
    );
    expect(special.code, JSON.stringify(special)).toBe(0);
    const detail = (
      await call(
        "/sys/system/invoiceAccountTrade/h5invoiceAccountTradeDetail",
        { invoiceId: special.data.invoiceId },
        u.token,
      )
    ).data;
    expect(detail).toMatchObject({ invoiceType: 5, issuance: 2, recipient: { email: "ap@example.com" } });
  });

  it("another user's application by id gives nothing", async () => {
    const u = await setUp([200]);
    const res = await call("/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade", application(u), u.token);
    const other = await activeUser("invx");
    expect(
      (
        await call(
          "/sys/system/invoiceAccountTrade/h5invoiceAccountTradeDetail",
          { invoiceId: res.data.invoiceId },
          other.token,
        )
      ).message,
    ).toBe("MSG_10002");
    expect(
      (await call("/sys/system/invoiceAccountTrade/h5queryInvoiceAccountTradeList", {}, other.token)).data.page.total,
    ).toBe(0);
  });
});

describe("operator review", () => {
  it("refuses users on operator paths (code 4)", async () => {
    const u = await setUp([100]);
    const res = await call("/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade", application(u), u.token);
    for (const [p, body] of [
      ["/sys/operations/invoices/list", {}],
      ["/sys/operations/invoices/detail", { invoiceId: res.data.invoiceId }],
      ["/sys/operations/invoices/approve", { invoiceId: String(res.data.invoiceId) }],
      ["/sys/operations/invoices/reject", { invoiceId: String(res.data.invoiceId), comments: "no" }],
      [
        "/sys/operations/invoices/deliver",
        { invoiceId: String(res.data.invoiceId), courierName: "SF", courierNo: "SF1234" },
      ],
    ] as const) {
      expect((await call(p, body, u.token)).code, p).toBe(4);
    }
    expect(
      (
        await call(
          "/sys/system/invoiceAccountTrade/h5invoiceAccountTradeDetail",
          { invoiceId: res.data.invoiceId },
          u.token,
        )
      ).data.status,
    ).toBe(1);
  });

  it("rejection needs comments, releases the amount and the bills, tells the user; deciding twice is MSG_30013", async () => {
    const u = await setUp([1200, 300]);
    const res = await call("/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade", application(u), u.token);
    const invoiceId = String(res.data.invoiceId);
    const noComments = await call("/sys/operations/invoices/reject", { invoiceId, comments: "  " }, operator);
    expect(noComments.data.fieldErrors.comments).toEqual(["errors:MSG_30014"]);
    expect(
      (await call("/sys/operations/invoices/reject", { invoiceId, comments: "Wrong tax number" }, operator)).code,
    ).toBe(0);
    expect((await call("/sys/operations/invoices/reject", { invoiceId, comments: "Again" }, operator)).message).toBe(
      "MSG_30013",
    );
    expect((await call("/sys/operations/invoices/approve", { invoiceId }, operator)).message).toBe("MSG_30013");
    const detail = (
      await call(
        "/sys/system/invoiceAccountTrade/h5invoiceAccountTradeDetail",
        { invoiceId: Number(invoiceId) },
        u.token,
      )
    ).data;
    expect(detail).toMatchObject({ status: 3, reviewComments: "Wrong tax number" });
    expect(detail.reviewedAt).toBeTruthy();
    const after = await invoiceable(u.token);
    expect(after.invoiceableCents).toBe(1500);
    expect(after.bills).toHaveLength(2);
    const messages = (await call("/sys/system/message/list", {}, u.token)).data.page.rows;
    expect(messages[0]).toMatchObject({
      textKey: "messages.invoiceRejected",
      params: { comments: "Wrong tax number" },
    });
    // The released bills can be invoiced again.
    expect(
      (await call("/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade", application(u), u.token)).code,
    ).toBe(0);
  });

  it("approve then deliver: paper needs courier name and bill number; bills become invoiced; twice is MSG_30013", async () => {
    const u = await setUp([900]);
    const res = await call("/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade", application(u), u.token);
    const invoiceId = String(res.data.invoiceId);
    expect(
      (await call("/sys/operations/invoices/deliver", { invoiceId, courierName: "SF", courierNo: "SF1234" }, operator))
        .message,
    ).toBe("MSG_34002");
    expect((await call("/sys/operations/invoices/approve", { invoiceId, comments: "OK" }, operator)).code).toBe(0);
    expect((await call("/sys/operations/invoices/approve", { invoiceId }, operator)).message).toBe("MSG_30013");
    const queued = (
      await call(
        "/sys/operations/invoices/list",
        { page: { pageSize: 100, pageIndex: 1, condition: { status: 5 } } },
        operator,
      )
    ).data.page.rows;
    expect(queued.some((r: any) => r.invoiceId === Number(invoiceId) && r.userName === u.userName)).toBe(true);
    const missing = await call("/sys/operations/invoices/deliver", { invoiceId }, operator);
    expect(missing.data.fieldErrors.courierName).toBeDefined();
    expect(
      (
        await call(
          "/sys/operations/invoices/deliver",
          { invoiceId, courierName: "SF Express", courierNo: "SF100200300" },
          operator,
        )
      ).code,
    ).toBe(0);
    expect(
      (
        await call(
          "/sys/operations/invoices/deliver",
          { invoiceId, courierName: "SF Express", courierNo: "SF100200300" },
          operator,
        )
      ).message,
    ).toBe("MSG_30013");
    const detail = (
      await call(
        "/sys/system/invoiceAccountTrade/h5invoiceAccountTradeDetail",
        { invoiceId: Number(invoiceId) },
        u.token,
      )
    ).data;
    expect(detail).toMatchObject({
      status: 10,
      courierName: "SF Express",
      courierNo: "SF100200300",
      reviewComments: "OK",
    });
    expect(detail.deliveredAt).toBeTruthy();
    expect(detail.bills.map((b: any) => b.invoiceState)).toEqual([5]);
    const keys = (await call("/sys/system/message/list", {}, u.token)).data.page.rows.map((m: any) => m.textKey);
    expect(keys).toEqual(expect.arrayContaining(["messages.invoiceApproved", "messages.invoiceDelivered"]));
    expect((await invoiceable(u.token)).invoiceableCents).toBe(0);
  });

  it("electronic delivery needs the email it was sent to", async () => {
    const u = await setUp([400]);
    const res = await call(
      "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade",
      application(u, { issuance: "2", email: "ap@example.com" }),
      u.token,
    );
    const invoiceId = String(res.data.invoiceId);
    await call("/sys/operations/invoices/approve", { invoiceId }, operator);
    expect(
      (await call("/sys/operations/invoices/deliver", { invoiceId, courierName: "SF", courierNo: "SF1234" }, operator))
        .data.fieldErrors.deliveryEmail,
    ).toBeDefined();
    expect(
      (await call("/sys/operations/invoices/deliver", { invoiceId, deliveryEmail: "ap@example.com" }, operator)).code,
    ).toBe(0);
    const detail = (
      await call(
        "/sys/system/invoiceAccountTrade/h5invoiceAccountTradeDetail",
        { invoiceId: Number(invoiceId) },
        u.token,
      )
    ).data;
    expect(detail).toMatchObject({ status: 10, deliveryEmail: "ap@example.com", courierName: null });
  });
});
