import { beforeAll, describe, expect, inject, it } from "vitest";
import { activeUser, call, login, PASSWORD, portalLogin } from "./client.ts";

/**
 * Bills, payments from the balance, the account summary and the unpaid-bill guard, over HTTP against
 * the built server (PGlite, or PostgreSQL with DATABASE_URL). Bills come from /test/fixtures.
 */
type Bill = {
  billType?: number;
  serviceName?: string;
  totalCents: number;
  payState?: 1 | 10 | 15;
  cycle?: 1 | 2 | 99;
  notYetDue?: boolean;
};

let operator: string;
beforeAll(async () => {
  const res = await login("demooperator", "Demo12!@pass");
  expect(res.code, JSON.stringify(res)).toBe(0);
  operator = res.data.token;
});

async function fixtures(
  token: string,
  body: { grantCents?: number; bills?: Bill[]; usage?: { days: number; mbPerDay: number } },
) {
  const res = await call<{ billIds: number[] }>("/test/fixtures", body, token);
  expect(res.code, JSON.stringify(res)).toBe(0);
  return res.data.billIds;
}

async function userId(token: string): Promise<number> {
  return (await call("/main/getClientInfo", {}, token)).data.userId;
}

/** The reconciliation path: wallet totals equal the ledger's sums and its running totals. */
async function expectConsistent(token: string) {
  const res = await call("/ops/ledger/verify", { userId: await userId(token) }, operator);
  expect(res.code, JSON.stringify(res)).toBe(0);
  expect(res.data.consistent, JSON.stringify(res.data)).toBe(true);
  expect(res.data.wallet).toEqual(res.data.derived);
  return res.data.wallet as { balanceCents: number; withdrawableCents: number; invoiceableCents: number };
}

const key = (label: string) =>
  `${label}-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`.padEnd(16, "x");
const pay = (token: string, billId: number, idempotencyKey = key("pay")) =>
  call("/sys/system/clientInfo/h5billPay", { billId, idempotencyKey }, token);
const list = (token: string, condition: object = {}, page: object = {}) =>
  call("/sys/system/clientInfo/h5billList", { page: { pageSize: 10, pageIndex: 1, condition, ...page } }, token);
const utc8Day = (offsetDays = 0) =>
  new Date(Date.now() + 8 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe("bill list and export (SPEC §3 Bill, §4)", () => {
  it("filters by type, payment status and created date, pages, and shows only the caller's bills", async () => {
    const { token } = await activeUser("bl");
    await fixtures(token, {
      grantCents: 5_000,
      bills: [
        { billType: 1, totalCents: 1_000 },
        { billType: 3, cycle: 99, totalCents: 500, serviceName: "" },
        { billType: 4, totalCents: 700, payState: 15 },
        { billType: 1, totalCents: 300, payState: 10 },
      ],
    });
    const all = await list(token);
    expect(all.data.page.total).toBe(4);
    expect(all.data.page.rows[0]).toMatchObject({
      billNo: expect.any(String),
      payCents: expect.any(Number),
      invoiceState: 1,
    });
    expect((await list(token, { billType: 3 })).data.page.rows.map((r: any) => r.totalCents)).toEqual([500]);
    expect((await list(token, { payState: 15 })).data.page.rows.map((r: any) => r.billType)).toEqual([4]);
    expect((await list(token, { payState: 10 })).data.page.total).toBe(1);
    expect((await list(token, { payState: 1, billType: 1 })).data.page.total).toBe(1);
    expect((await list(token, { dateFrom: utc8Day(), dateTo: utc8Day() })).data.page.total).toBe(4);
    expect((await list(token, { dateTo: utc8Day(-1) })).data.page.total).toBe(0);
    expect((await list(token, { dateFrom: utc8Day(1) })).data.page.total).toBe(0);
    const second = await list(token, {}, { pageSize: 3, pageIndex: 2 });
    expect(second.data.page).toMatchObject({ total: 4, pageIndex: 2, pageSize: 3 });
    expect(second.data.page.rows).toHaveLength(1);
    expect((await list(token, { payState: 7 })).message).toBe("MSG_10001");
    expect((await list(token, { dateFrom: "2026-02-30" })).message).toBe("MSG_10001");

    const exported = await call("/sys/system/clientInfo/h5billExport", { condition: { payState: 1 } }, token);
    expect(exported.data).toMatchObject({ total: 2, truncated: false });
    expect(exported.data.rows).toHaveLength(2);

    const other = await activeUser("bl");
    expect((await list(other.token)).data.page.total).toBe(0);
    expect((await call("/sys/system/clientInfo/h5billExport", {}, other.token)).data.total).toBe(0);
  });
});

describe("bill detail and payment (SPEC §8 Payments)", () => {
  it("shows every field; another user's bill is not found and cannot be paid", async () => {
    const a = await activeUser("bd");
    const b = await activeUser("bd");
    const [billId] = await fixtures(a.token, { bills: [{ billType: 2, totalCents: 1_234, serviceName: "Ledger A" }] });
    await fixtures(b.token, { grantCents: 10_000 });
    const detail = await call("/sys/system/clientInfo/h5billDetail", { billId }, a.token);
    expect(detail.data).toMatchObject({
      billId,
      serviceName: "Ledger A",
      billType: 2,
      payState: 1,
      totalCents: 1_234,
      payable: true,
      overdue: false,
      dataUsage: [],
      resources: [],
      refundNo: null,
    });
    expect(detail.data.periodStart).toMatch(/Z$/);
    expect(await call("/sys/system/clientInfo/h5billDetail", { billId }, b.token)).toMatchObject({
      code: 1,
      message: "MSG_10002",
      data: null,
    });
    expect((await call("/sys/system/clientInfo/h5billDetail", { billId: 999_999_999 }, a.token)).message).toBe(
      "MSG_10002",
    );
    expect((await pay(b.token, billId)).message).toBe("MSG_10002");
    expect((await call("/sys/system/clientInfo/h5billDetail", { billId }, a.token)).data.payState).toBe(1);
    expect((await expectConsistent(b.token)).balanceCents).toBe(10_000);
  });

  it("pays from the balance once per key, answers success again for the same key, refuses a second payment", async () => {
    const { token } = await activeUser("pay");
    const [billId, otherBill] = await fixtures(token, {
      grantCents: 2_000,
      bills: [{ totalCents: 1_500 }, { totalCents: 100 }],
    });
    const k = key("same");
    const first = await pay(token, billId, k);
    expect(first, JSON.stringify(first)).toMatchObject({
      code: 0,
      data: { billId, payState: 15, paidCents: 1_500, balanceCents: 500, replayed: false },
    });
    const again = await pay(token, billId, k);
    expect(again).toMatchObject({
      code: 0,
      data: { billId, payState: 15, paidCents: 1_500, balanceCents: 500, replayed: true },
    });
    expect((await pay(token, billId)).message).toBe("MSG_30010");
    expect((await pay(token, otherBill, k)).message).toBe("MSG_31001");
    const detail = (await call("/sys/system/clientInfo/h5billDetail", { billId }, token)).data;
    expect(detail).toMatchObject({ payState: 15, payType: "BALANCE", payable: false });
    expect(detail.paidAt).not.toBeNull();
    expect(await expectConsistent(token)).toEqual({ balanceCents: 500, withdrawableCents: 0, invoiceableCents: 1_500 });
    const messages = await call(
      "/sys/system/message/list",
      { page: { pageSize: 10, pageIndex: 1, condition: {} } },
      token,
    );
    expect(messages.data.page.rows.filter((m: any) => m.textKey === "messages.billPaid")).toHaveLength(1);
  });

  it("the same key sent ten times at once pays once", async () => {
    const { token } = await activeUser("dbl");
    const [billId] = await fixtures(token, { grantCents: 1_000, bills: [{ totalCents: 400 }] });
    const k = key("burst");
    const answers = await Promise.all(Array.from({ length: 10 }, () => pay(token, billId, k)));
    expect(answers.every((a) => a.code === 0)).toBe(true);
    expect(answers.filter((a) => !a.data.replayed)).toHaveLength(1);
    expect((await expectConsistent(token)).balanceCents).toBe(600);
  });

  it("refuses an insufficient balance (MSG_30001) and expired bills (MSG_30010), changing nothing", async () => {
    const { token } = await activeUser("ins");
    const [big, expired] = await fixtures(token, {
      grantCents: 300,
      bills: [{ totalCents: 9_999 }, { totalCents: 100, payState: 10 }],
    });
    expect(await pay(token, big)).toMatchObject({ code: 1, message: "MSG_30001" });
    expect(await pay(token, expired)).toMatchObject({ code: 1, message: "MSG_30010" });
    expect((await call("/sys/system/clientInfo/h5billDetail", { billId: big }, token)).data.payState).toBe(1);
    expect((await expectConsistent(token)).balanceCents).toBe(300);
    expect(
      (await call("/sys/system/clientInfo/h5billPay", { billId: big, idempotencyKey: "short" }, token)).message,
    ).toBe("MSG_10001");
  });

  it("200 concurrent payments on one account never overdraw and leave ledger = wallet", async () => {
    const { token } = await activeUser("conc");
    const billIds: number[] = [];
    for (let i = 0; i < 4; i++) {
      billIds.push(
        ...(await fixtures(token, {
          grantCents: i === 0 ? 12_345 : 0,
          bills: Array.from({ length: 50 }, () => ({ totalCents: 100 })),
        })),
      );
    }
    expect(billIds).toHaveLength(200);
    const answers = await Promise.all(billIds.map((id) => pay(token, id)));
    const paid = answers.filter((a) => a.code === 0).length;
    const refused = answers.filter((a) => a.message === "MSG_30001").length;
    expect({ paid, refused }).toEqual({ paid: 123, refused: 77 });
    const wallet = await expectConsistent(token);
    expect(wallet).toEqual({ balanceCents: 45, withdrawableCents: 0, invoiceableCents: 12_300 });
    const summary = await call("/sys/account/summary", {}, token);
    expect(summary.data.unpaidBills).toBe(77);
    expect((await list(token, { payState: 15 })).data.page.total).toBe(123);
  }, 120_000);
});

describe("unpaid-bill guard /sys/product/h5isHasNoPayBillV2 (SPEC §5, §7)", () => {
  const guard = async (token: string, payType: number) => call("/sys/product/h5isHasNoPayBillV2", { payType }, token);

  it("answers true or false per payType, as ADR 006 decides", async () => {
    const { token } = await activeUser("grd");
    expect(await guard(token, 1)).toMatchObject({ code: 0, data: true });
    expect(await guard(token, 2)).toMatchObject({ code: 0, data: true });
    // An unpaid publish application does not block: it expires at its deadline instead.
    await fixtures(token, { grantCents: 10_000, bills: [{ billType: 1, totalCents: 500 }] });
    expect((await guard(token, 1)).data).toBe(true);
    expect((await guard(token, 2)).data).toBe(true);
    // A dedicated-node bill waiting for payment blocks only dedicated nodes.
    const [node] = await fixtures(token, { bills: [{ billType: 10, totalCents: 800 }] });
    expect((await guard(token, 1)).data).toBe(true);
    expect((await guard(token, 2)).data).toBe(false);
    expect((await pay(token, node)).code).toBe(0);
    expect((await guard(token, 2)).data).toBe(true);
    // An unpaid usage bill within its 7 days blocks nothing yet (docs/decisions/059).
    const [notDue] = await fixtures(token, { bills: [{ billType: 3, cycle: 99, totalCents: 90, notYetDue: true }] });
    expect((await guard(token, 1)).data).toBe(true);
    expect((await guard(token, 2)).data).toBe(true);
    expect((await pay(token, notDue)).code).toBe(0);
    // Unpaid usage bills (weekly traffic, cross-chain calls) past their deadline block everything until paid.
    const [traffic] = await fixtures(token, { bills: [{ billType: 3, cycle: 99, totalCents: 250, serviceName: "" }] });
    expect((await guard(token, 1)).data).toBe(false);
    expect((await guard(token, 2)).data).toBe(false);
    expect((await pay(token, traffic)).code).toBe(0);
    expect((await guard(token, 1)).data).toBe(true);
    const [calls] = await fixtures(token, { bills: [{ billType: 5, cycle: 99, totalCents: 120 }] });
    expect((await guard(token, 1)).data).toBe(false);
    expect((await pay(token, calls)).code).toBe(0);
    expect((await guard(token, 1)).data).toBe(true);
    await expectConsistent(token);
  });

  it("validates payType and needs a login; auto-pay is on for a new account and its owner turns it off and on", async () => {
    const { token } = await activeUser("grd");
    expect((await guard(token, 3)).message).toBe("MSG_10001");
    // Auto-pay of usage bills (docs/decisions/059): on for a new account, turned off and on by its owner.
    expect((await call("/sys/account/summary", {}, token)).data.autoPay).toBe(true);
    expect((await call("/sys/account/autoPay", { enabled: false }, token)).data).toEqual({ autoPay: false });
    expect((await call("/sys/account/summary", {}, token)).data.autoPay).toBe(false);
    expect((await call("/sys/account/autoPay", { enabled: "yes" }, token)).message).toBe("MSG_10001");
    expect((await call("/sys/account/autoPay", { enabled: true }, token)).data).toEqual({ autoPay: true });
    expect((await call("/sys/product/h5isHasNoPayBillV2", { payType: 1 })).code).toBe(3);
  });
});

describe("account summary, transactions and usage (SPEC §2 My account)", () => {
  it("summarises the wallet, recent records and unpaid bills", async () => {
    const { token } = await activeUser("sum");
    expect((await call("/sys/account/summary", {}, token)).data).toEqual({
      balanceCents: 0,
      withdrawableCents: 0,
      invoiceableCents: 0,
      card: null,
      recharges: [],
      withdrawals: [],
      unpaidBills: 0,
      autoPay: true,
    });
    await fixtures(token, {
      grantCents: 3_000,
      bills: [{ totalCents: 1_000, payState: 15 }, { totalCents: 50 }, { totalCents: 60, payState: 10 }],
    });
    expect((await call("/sys/account/summary", {}, token)).data).toMatchObject({
      balanceCents: 2_000,
      invoiceableCents: 1_000,
      unpaidBills: 1,
    });
  });

  it("lists ledger entries with their references, filtered by kind and date", async () => {
    const { token } = await activeUser("trx");
    const [billId] = await fixtures(token, { grantCents: 3_000, bills: [{ totalCents: 1_000, payState: 15 }] });
    const billNo = (await call("/sys/system/clientInfo/h5billDetail", { billId }, token)).data.billNo;
    const all = await call("/sys/account/transactions", { page: { pageSize: 10, pageIndex: 1, condition: {} } }, token);
    expect(all.data.page.total).toBe(2);
    expect(all.data.page.rows[0]).toMatchObject({
      kind: "bill_payment",
      balanceDelta: -1_000,
      invoiceableDelta: 1_000,
      balanceAfter: 2_000,
      reference: billNo,
      billId,
    });
    expect(all.data.page.rows[1]).toMatchObject({ kind: "grant", balanceDelta: 3_000, reference: null, billId: null });
    const grants = await call(
      "/sys/account/transactions",
      { page: { pageSize: 10, pageIndex: 1, condition: { kind: "grant" } } },
      token,
    );
    expect(grants.data.page.rows.map((r: any) => r.kind)).toEqual(["grant"]);
    const future = await call(
      "/sys/account/transactions",
      { page: { pageSize: 10, pageIndex: 1, condition: { dateFrom: utc8Day(1) } } },
      token,
    );
    expect(future.data.page.total).toBe(0);
    expect((await call("/sys/account/transactions", { page: { condition: { kind: "theft" } } }, token)).message).toBe(
      "MSG_10001",
    );
    const other = await activeUser("trx");
    expect((await call("/sys/account/transactions", {}, other.token)).data.page.total).toBe(0);
  });

  it("gives 30 UTC+8 days of traffic per city node in GB", async () => {
    const { token } = await activeUser("use");
    const empty = await call("/sys/account/usage30", {}, token);
    expect(empty.data.days).toHaveLength(30);
    expect(empty.data.days[29]).toBe(utc8Day());
    expect(empty.data).toMatchObject({ nodes: [], totalGb: 0 });
    await fixtures(token, { usage: { days: 5, mbPerDay: 2_048 } });
    const usage = (await call("/sys/account/usage30", {}, token)).data;
    expect(usage.nodes).toHaveLength(3);
    expect(usage.totalGb).toBe(30);
    for (const node of usage.nodes) {
      expect(node.totalGb).toBe(10);
      expect(node.gb).toHaveLength(30);
      expect(node.gb.filter((g: number) => g === 2)).toHaveLength(5);
    }
    const zh = (await call("/sys/account/usage30", { userLanguage: "zh-CN" }, token)).data;
    expect(zh.nodes[0].nodeName).toBe("北京");
  });
});

describe("operator reconciliation /ops/ledger/verify", () => {
  it("is for operators only (code 4)", async () => {
    const { token } = await activeUser("ver");
    expect(await call("/ops/ledger/verify", { userId: await userId(token) }, token)).toMatchObject({
      code: 4,
      message: "MSG_10403",
    });
  });
});

describe("My bills CSV export (resource route)", () => {
  it("exports the filtered list with translated headers, USD amounts and UTC+8 dates", async () => {
    const { userName, token } = await activeUser("csv");
    await fixtures(token, {
      grantCents: 5_000,
      bills: [
        { totalCents: 1_050, serviceName: 'Traceability, "v2"' },
        { totalCents: 2_000, payState: 15 },
        { billType: 3, cycle: 99, totalCents: 75, serviceName: "" },
      ],
    });
    const cookie = await portalLogin(userName, PASSWORD);
    const base = inject("baseUrl");
    const res = await fetch(`${base}/g/home/userCenter/MyBills/export.csv?payState=1`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="bills-\d{4}-\d{2}-\d{2}\.csv"/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    // A UTF-8 byte order mark first, for spreadsheet programs (TextDecoder drops it).
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).trim().split("\r\n");
    expect(lines[0]).toBe(
      "Bill number,Service name,Bill type,Payment status,Pay mode,Payment cycle,Created,Deadline,Payment time,Total (USD),Payment amount (USD),Refund (USD),Invoicing status",
    );
    expect(lines).toHaveLength(3);
    expect(
      lines.some(
        (l) =>
          l.includes('"Traceability, ""v2""",Service publish,Unpaid,Prepaid,Monthly,UTC+8 ') &&
          l.includes(",10.50,10.50,0.00,Not invoiced"),
      ),
    ).toBe(true);
    expect(
      lines.some(
        (l) =>
          l.includes(",Data traffic,Data traffic,Unpaid,Postpaid (by actual use),Weekly,") && l.includes(",0.75,0.75,"),
      ),
    ).toBe(true);
    expect(lines[1]).toMatch(/UTC\+8 \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);

    // In Chinese: translated headers and dates as YYYY-MM-DD.
    const lang = await fetch(`${base}/g/lang?lng=zh-CN&redirectTo=/g/home/index`, { redirect: "manual" });
    const lng = lang.headers
      .getSetCookie()
      .find((c) => c.startsWith("lng="))!
      .split(";")[0];
    const zh = await (
      await fetch(`${base}/g/home/userCenter/MyBills/export.csv?payState=15`, {
        headers: { Cookie: `${cookie}; ${lng}` },
      })
    ).text();
    const zhLines = zh.trim().split("\r\n");
    expect(zhLines[0].startsWith("账单编号,服务名称,账单类型,支付状态")).toBe(true);
    expect(zhLines).toHaveLength(2);
    expect(zhLines[1]).toMatch(/已支付.*UTC\+8 \d{4}-\d{2}-\d{2} \d{2}:\d{2}.*,20\.00,20\.00,0\.00,未开票$/);
  });

  it("sends a visitor to the login page", async () => {
    const res = await fetch(`${inject("baseUrl")}/g/home/userCenter/MyBills/export.csv`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/g/main/Login/Logins");
  });
});

describe("bills due and paying several at once (issue 16, docs/decisions/027)", () => {
  const due = (token: string, payType?: 1 | 2) =>
    call<any>("/sys/system/clientInfo/h5billDue", payType ? { payType } : {}, token);
  const payMany = (token: string, billIds: number[], idempotencyKey: string) =>
    call<any>("/sys/system/clientInfo/h5billPayMany", { billIds, idempotencyKey }, token);

  it("names the blocking bills (usage bills only for payType 1) and every payable bill without payType", async () => {
    const { token } = await activeUser("du");
    const billIds = await fixtures(token, {
      grantCents: 100,
      bills: [
        { billType: 3, cycle: 99, totalCents: 300, serviceName: "" },
        { billType: 1, totalCents: 250 },
        { billType: 1, totalCents: 999, payState: 10 },
        { billType: 4, totalCents: 70, payState: 15 },
      ],
    });
    const blocking = (await due(token, 1)).data;
    expect(blocking.bills.map((b: any) => b.billId)).toEqual([billIds[0]]);
    expect(blocking).toMatchObject({ count: 1, totalCents: 300, payableCents: 300 });
    const all = (await due(token)).data;
    expect(all.bills.map((b: any) => b.billId).sort()).toEqual([billIds[0], billIds[1]].sort());
    expect(all).toMatchObject({ count: 2, totalCents: 550, payableCents: 550 });
  });

  it("pays all or none in one transaction; the same key pays once; another user's bill is not found", async () => {
    const { token } = await activeUser("pm");
    const billIds = await fixtures(token, {
      grantCents: 500,
      bills: [
        { billType: 3, cycle: 99, totalCents: 300 },
        { billType: 1, totalCents: 250 },
      ],
    });
    const short = await payMany(token, billIds, key("short"));
    expect(short.message).toBe("MSG_30001");
    expect((await due(token)).data.count).toBe(2);

    await fixtures(token, { grantCents: 100 });
    const k = key("many");
    const paid = await payMany(token, billIds, k);
    expect(paid.code).toBe(0);
    expect(paid.data).toMatchObject({ paidCents: 550, balanceCents: 50, replayed: false });
    const again = await payMany(token, billIds, k);
    expect(again.data).toMatchObject({ paidCents: 550, balanceCents: 50, replayed: true });
    expect((await due(token)).data.count).toBe(0);
    expect((await payMany(token, billIds, key("second"))).message).toBe("MSG_30010");
    await expectConsistent(token);

    const other = await activeUser("pm");
    const theirs = await fixtures(other.token, { grantCents: 1_000, bills: [{ billType: 1, totalCents: 100 }] });
    expect((await payMany(token, theirs, key("foreign"))).message).toBe("MSG_10002");
    expect((await due(other.token)).data.count).toBe(1);
  });
});
