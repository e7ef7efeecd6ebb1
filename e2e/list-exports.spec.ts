import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { enabledProject, userWithBalance } from "./public-chain-support.ts";
import { api, logInAs } from "./services-support.ts";
import { PASSWORD } from "./support.ts";

/**
 * The CSV exports of the lists that show money or usage (issue 35 §3, docs/decisions/093 "List exports"), with
 * JavaScript on and off: each page's "Export CSV" is a plain link carrying the page's filters; the file has a BOM,
 * headers in the viewer's language, an ASCII and a UTF-8 file name, no-store, the count of matching rows, and a
 * user-typed text that looks like a formula written with a leading quote.
 */

type Csv = { rows: string[][]; headers: Record<string, string> };

/** The CSV behind the page's link `testId` (fetched with the page's session), checked as every export is. */
async function csvOf(page: Page, testId: string, href: RegExp): Promise<Csv> {
  const link = page.getByTestId(testId);
  await expect(link).toHaveAttribute("href", href);
  const res = await page.request.get((await link.getAttribute("href"))!);
  expect(res.status()).toBe(200);
  const headers = res.headers();
  expect(headers["content-type"]).toBe("text/csv; charset=utf-8");
  expect(headers["cache-control"]).toBe("no-store");
  expect(headers["content-disposition"]).toMatch(/^attachment; filename="[A-Za-z0-9._-]+\.csv"; filename\*=UTF-8''/);
  expect(headers["x-truncated"]).toBe("0");
  const bytes = await res.body();
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = bytes
    .subarray(3)
    .toString("utf8")
    .trim()
    .split("\r\n")
    .map((line) => line.split(","));
  expect(String(rows.length - 1)).toBe(headers["x-total-count"]);
  return { rows, headers };
}

async function inChinese(page: Page, to: string) {
  await page.goto(`/g/lang?lng=zh-CN&redirectTo=${encodeURIComponent(to)}`);
}

test("transactions: the inquiry's type filter carried to the CSV, which has the rows the page lists", async ({
  page,
  request,
}, testInfo) => {
  const user = await userWithBalance(request, "lxt", testInfo, 5_000);
  await api(
    request,
    "/test/fixtures",
    {
      bills: [
        { totalCents: 1_234, payState: 15 },
        { totalCents: 500, payState: 15 },
      ],
    },
    user.token,
  );
  await logInAs(page, user.userName, PASSWORD);
  await page.goto("/g/home/userCenter/MyAccount?kind=bill_payment#transactions");
  await expect(page.getByTestId("transaction")).toHaveCount(2);
  const { rows, headers } = await csvOf(
    page,
    "transactions-csv",
    /^\/g\/home\/userCenter\/MyAccount\/transactions\.csv\?kind=bill_payment$/,
  );
  expect(headers["content-disposition"]).toContain('filename="transactions-');
  expect(rows[0]).toEqual([
    "Time (UTC+8)",
    "Type",
    "Reference",
    "Balance change (USD)",
    "Invoiceable change (USD)",
    "Balance after (USD)",
  ]);
  expect(rows.slice(1).map((r) => r[1])).toEqual(["Bill payment", "Bill payment"]);
  expect(rows.slice(1).map((r) => r[3])).toEqual(["-5.00", "-12.34"]);
  expect(rows.slice(1).map((r) => r[5])).toEqual(["32.66", "37.66"]);
  const references = await page.getByTestId("transaction").locator("td:nth-child(3)").allInnerTexts();
  expect(rows.slice(1).map((r) => r[2])).toEqual(references.map((r) => r.trim()));
  // The time as the page shows it (UTC+8, the header names the zone).
  const times = await page.getByTestId("transaction").locator("td:nth-child(1)").allInnerTexts();
  expect(rows.slice(1).map((r) => r[0])).toEqual(times.map((r) => r.trim()));

  // The link itself downloads the file (a plain link: with JavaScript or without).
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("transactions-csv").click()]);
  expect(download.suggestedFilename()).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
});

async function applied(request: APIRequestContext, token: string, email: string, title: string) {
  const { titleId } = await api(request, "/sys/invoicetitles/h5insertInvoiceTitle", { titleType: "1", title }, token);
  const bills = await api(request, "/sys/system/invoiceAccountTrade/h5queryInvoiceableBills", {}, token);
  return api(
    request,
    "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade",
    {
      idempotencyKey: `lx${Date.now()}${Math.random().toString(36).slice(2, 10)}`,
      billIds: bills.bills.map((b: { billId: number }) => String(b.billId)),
      titleId: String(titleId),
      invoiceType: "1",
      issuance: "2",
      email,
    },
    token,
  );
}

test("invoices in Chinese: headers, the status filter, and a title that looks like a formula", async ({
  page,
  request,
}, testInfo) => {
  const user = await userWithBalance(request, "lxi", testInfo, 1_999);
  await api(request, "/test/fixtures", { bills: [{ totalCents: 1_999, payState: 15 }] }, user.token);
  const { applicationNo } = await applied(request, user.token, user.email, "=HYPERLINK(1)");
  await logInAs(page, user.userName, PASSWORD);
  await inChinese(page, "/g/home/userCenter/Invoices?status=1");
  await expect(page.getByTestId("invoice-row")).toHaveCount(1);
  const { rows, headers } = await csvOf(
    page,
    "invoices-csv",
    /^\/g\/home\/userCenter\/Invoices\/export\.csv\?status=1$/,
  );
  expect(headers["content-disposition"]).toContain(`filename*=UTF-8''${encodeURIComponent("开票申请")}-`);
  expect(rows[0]).toEqual(["编号", "抬头", "发票类型", "开具方式", "金额（USD）", "状态", "申请时间（UTC+8）"]);
  expect(rows[1].slice(0, 6)).toEqual([applicationNo, "'=HYPERLINK(1)", "增值税普通发票", "电子", "19.99", "待审核"]);
  expect(rows[1][6]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);

  // Another status: the page and its CSV list nothing.
  await page.goto("/g/home/userCenter/Invoices?status=10");
  const none = await csvOf(page, "invoices-csv", /\?status=10$/);
  expect(none.rows).toHaveLength(1);
});

test("a project's chain accounts with their gas and its RPC usage by method, with the period carried", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const user = await userWithBalance(request, "lxp", testInfo, 10_000);
  const projectId = await enabledProject(request, user.token, `Exports ${testInfo.project.name}`);
  const account = await api(
    request,
    "/sys/opc/account/create",
    { projectId, name: "@wallet", keyType: "1", gasWarning: "0.05" },
    user.token,
  );
  const { apiKey } = await api(request, "/sys/opc/project/key", { projectId, action: "show" }, user.token);
  for (let i = 0; i < 3; i++) {
    const rpc = await request.post(`/chain/rpc/${apiKey}`, {
      data: { jsonrpc: "2.0", id: i, method: "eth_blockNumber", params: [] },
    });
    expect(rpc.status()).toBe(200);
  }
  await logInAs(page, user.userName, PASSWORD);

  await page.goto(`/g/home/PermissionlessServices/Accounts?projectId=${projectId}`);
  await expect(page.getByTestId("account-row")).toHaveCount(1);
  const accounts = await csvOf(
    page,
    "accounts-csv",
    new RegExp(`^/g/home/PermissionlessServices/Accounts/export\\.csv\\?projectId=${projectId}$`),
  );
  expect(accounts.rows[0]).toEqual([
    "Account name",
    "Chain address",
    "Key type",
    "Gas (energy) on the chain",
    "Below the warning value",
    "Gas warning value",
    "Created (UTC+8)",
  ]);
  // A name that starts with @ would be a formula in a spreadsheet: written as text.
  expect(accounts.rows[1].slice(0, 3)).toEqual(["'@wallet", account.address, "Custody"]);
  expect(accounts.rows[1][3]).toMatch(/^[0-9]+(\.[0-9]{1,6})?$/);
  expect(accounts.rows[1][5]).toBe("0.05");

  await page.goto(`/g/home/PermissionlessServices/Project?projectId=${projectId}&range=1m`);
  const usage = await csvOf(
    page,
    "stats-csv",
    new RegExp(`^/g/home/PermissionlessServices/Project/export\\.csv\\?projectId=${projectId}&range=1m$`),
  );
  expect(usage.headers["content-disposition"]).toContain('filename="rpc-usage-1m-');
  expect(usage.rows[0]).toEqual(["Day (UTC+8)", "Method", "Requests", "Calls"]);
  const row = usage.rows.find((r) => r[1] === "eth_blockNumber");
  expect(row?.[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(Number(row?.[2])).toBeGreaterThanOrEqual(3);
  expect(Number(row?.[3])).toBeGreaterThanOrEqual(3);
});

test("IPFS traffic: the bytes a gateway served, per day, in the CSV of the service's traffic page", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const user = await userWithBalance(request, "lxf", testInfo, 5_000);
  const gateways = await api(request, "/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices", {}, user.token);
  const { ipfsServiceId } = await api(
    request,
    "/sys/ipfsBusiness/ipfs/create",
    {
      name: `Exports ${testInfo.project.name}`,
      storeUnit: 1,
      orgIds: [gateways[0].orgId],
      idempotencyKey: `lx${Date.now()}${Math.random().toString(36).slice(2, 10)}`,
    },
    user.token,
  );
  await logInAs(page, user.userName, PASSWORD);
  await page.goto(`/g/home/IPFS/Service?ipfsServiceId=${ipfsServiceId}`);
  const bytes = Buffer.from(`list exports ${testInfo.project.name} ${Date.now()}\n`.repeat(200));
  await page.getByLabel("File to upload").setInputFiles({ name: "usage.txt", mimeType: "text/plain", buffer: bytes });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  const fileRow = page.getByTestId("file-row").filter({ hasText: "usage.txt" });
  await expect(fileRow).toHaveCount(1);
  const served = await page.request.get((await fileRow.getByTestId("file-download").getAttribute("href"))!);
  expect(served.status()).toBe(200);

  await page.goto(`/g/home/IPFS/Traffic?ipfsServiceId=${ipfsServiceId}`);
  const href = new RegExp(`^/g/home/IPFS/Traffic/export\\.csv\\?ipfsServiceId=${ipfsServiceId}$`);
  // The gateway writes what it served at most a second later (a batched meter).
  await expect.poll(async () => (await csvOf(page, "traffic-csv", href)).rows.length, { timeout: 15_000 }).toBe(2);
  const { rows } = await csvOf(page, "traffic-csv", href);
  expect(rows[0]).toEqual(["Day (UTC+8)", "City node gateway", "Traffic price (USD per GB)", "Served (bytes)"]);
  expect(rows[1][0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(rows[1][1]).toBe(gateways[0].orgName);
  expect(rows[1][2]).toBe((gateways[0].flowPriceCents / 100).toFixed(2));
  expect(rows[1][3]).toBe(String(bytes.length));
});
