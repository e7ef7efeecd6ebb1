import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { logInAs } from "./services-support.ts";
import { CAPTCHA, createActiveUser, PASSWORD, signInOverHttp, uniqueUser } from "./support.ts";

/** A bill's breakdown and its CSV (issue 35 §3, docs/decisions/093), with JavaScript on and off. */

/** The CSV behind the page's "Download CSV" link, fetched with the page's session: its rows, BOM removed. */
async function csvOf(page: Page) {
  const href = await page.getByTestId("breakdown-csv").getAttribute("href");
  expect(href).toMatch(/\/g\/home\/userCenter\/BillDetail\/breakdown\.csv\?billId=\d+$/);
  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("text/csv");
  const text = await res.text();
  expect(text.startsWith("\uFEFF")).toBe(true);
  return text
    .slice(1)
    .trim()
    .split("\r\n")
    .map((line) => line.split(","));
}

/** "$1,234.56" or "US$1,234.56" as a plain decimal, as the CSV writes it. */
const plain = (money: string) => money.replace(/[^0-9.-]/g, "");

test("a demo traffic bill's breakdown adds up to the bill, and its CSV too", async ({ page }) => {
  await logInAs(page, "democompany", "Demo12!@pass");
  await page.goto("/g/home/userCenter/MyBills?billType=3");
  const first = page.locator('a[href*="/g/home/userCenter/BillDetail?"]').first();
  const href = await first.getAttribute("href");
  await page.goto(href!);
  const total = (await page.getByTestId("bill-total").textContent())!;
  await expect(page.getByRole("heading", { name: "Breakdown" })).toBeVisible();
  await expect(page.getByTestId("breakdown-total")).toHaveText(total);
  expect(await page.getByTestId("breakdown-lines").locator("tbody tr").count()).toBeGreaterThan(0);

  const rows = await csvOf(page);
  expect(rows[0]).toEqual([
    "Item",
    "Day (UTC+8)",
    "City node or chain",
    "Service or record",
    "File",
    "CID",
    "Method",
    "Calls",
    "Traffic (GB)",
    "Unit price (USD)",
    "Period start",
    "Period end",
    "Transaction hash",
    "Amount (USD)",
  ]);
  const last = rows.at(-1)!;
  expect(last[0]).toBe("Total");
  expect(last.at(-1)).toBe(plain(total));
  const sum = rows.slice(1, -1).reduce((s, r) => s + Math.round(Number(r.at(-1)) * 100), 0);
  expect((sum / 100).toFixed(2)).toBe(plain(total));
});

async function vueapi(request: APIRequestContext, path: string, data: unknown, token?: string) {
  const res = await request.post(`/vueapi${path}`, {
    data,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const body = await res.json();
  expect(body.code, `${path}: ${JSON.stringify(body)}`).toBe(0);
  return body.data;
}

test("in Chinese: the breakdown and its CSV headers", async ({ page, request }, testInfo) => {
  const userName = uniqueUser(testInfo, "brk");
  await createActiveUser(request, userName);
  const { captchaKey } = await vueapi(request, "/anon/captcha/create", {});
  const { token } = await vueapi(request, "/main/user/login", {
    username: userName,
    password: PASSWORD,
    captchaKey,
    captcha: CAPTCHA,
  });
  const { billIds } = await vueapi(
    request,
    "/test/fixtures",
    { bills: [{ billType: 1, serviceName: "=HYPERLINK(1)", totalCents: 1_999 }] },
    token,
  );
  await signInOverHttp(page, userName, PASSWORD);
  await page.goto(
    `/g/lang?lng=zh-CN&redirectTo=${encodeURIComponent(`/g/home/userCenter/BillDetail?appId=&billId=${billIds[0]}&billType=1`)}`,
  );
  await expect(page.getByRole("heading", { name: "费用明细" })).toBeVisible();
  await expect(page.getByTestId("breakdown-total")).toHaveText((await page.getByTestId("bill-total").textContent())!);
  await expect(page.getByTestId("breakdown-lines")).toContainText("服务周期");
  const rows = await csvOf(page);
  expect(rows[0][0]).toBe("项目");
  expect(rows[0].at(-1)).toBe("金额（美元）");
  // The service name a user typed is written as text, never as a formula.
  expect(rows[1][3]).toBe("'=HYPERLINK(1)");
  expect(rows[0].slice(3, 6)).toEqual(["服务或记录", "文件", "CID"]);
  expect(rows.at(-1)).toEqual(["合计", "", "", "", "", "", "", "", "", "", "", "", "", "19.99"]);
});
