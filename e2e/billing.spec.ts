import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { CAPTCHA, createActiveUser, PASSWORD, signInOverHttp, uniqueUser } from "./support.ts";

/** My account, My bills and bill payment (SPEC §2 userCenter), with JavaScript on and off. */

async function vueapi(request: APIRequestContext, path: string, data: unknown, token?: string) {
  const res = await request.post(`/vueapi${path}`, {
    data,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const body = await res.json();
  expect(body.code, `${path}: ${JSON.stringify(body)}`).toBe(0);
  return body.data;
}

type Fixtures = {
  grantCents?: number;
  bills?: { billType?: number; serviceName?: string; totalCents: number; payState?: 1 | 10 | 15; cycle?: 1 | 2 | 99 }[];
  usage?: { days: number; mbPerDay: number };
};

/** A fresh activated user with bills, a balance and usage made by the tests-only fixtures path. */
async function userWith(request: APIRequestContext, userName: string, fixtures: Fixtures) {
  await createActiveUser(request, userName);
  const { captchaKey } = await vueapi(request, "/anon/captcha/create", {});
  const { token } = await vueapi(request, "/main/user/login", {
    username: userName,
    password: PASSWORD,
    captchaKey,
    captcha: CAPTCHA,
  });
  await vueapi(request, "/test/fixtures", fixtures, token);
}

/** Logs in through the form and waits for the console, so the next navigation has the session. */
async function signIn(page: Page, userName: string) {
  await signInOverHttp(page, userName, PASSWORD);
  await expect(page).toHaveURL(/\/g\/home\/index/);
}

test("filters My bills, opens a bill, pays it and sees the balance drop", async ({ page, request }, testInfo) => {
  const userName = uniqueUser(testInfo, "bill");
  await userWith(request, userName, {
    grantCents: 5_000,
    bills: [
      { billType: 1, serviceName: "Alpha ledger", totalCents: 1_250 },
      { billType: 4, serviceName: "Archive storage", totalCents: 700, payState: 15 },
      { billType: 3, cycle: 99, serviceName: "", totalCents: 320 },
    ],
  });
  await signIn(page, userName);
  await page.goto("/g/home/userCenter/MyAccount");
  await expect(page.getByTestId("balance")).toHaveText("$43.00");
  await expect(page.getByTestId("unpaid-bills")).toContainText("2");

  await page.goto("/g/home/userCenter/MyBills");
  await expect(page.getByTestId("bill-row")).toHaveCount(3);
  await page.getByLabel("Payment status").selectOption({ label: "Unpaid" });
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/payState=1/);
  await expect(page.getByTestId("bill-row")).toHaveCount(2);
  await page.getByLabel("Bill type").selectOption({ label: "Service publish" });
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/billType=1/);
  await expect(page.getByTestId("bill-row")).toHaveCount(1);
  await expect(page.getByTestId("bill-row")).toContainText("Alpha ledger");

  await page.getByTestId("bill-row").getByRole("link", { name: "Details", exact: true }).click();
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/BillDetail\?appId=&billId=\d+&billType=1/);
  await expect(page.getByTestId("bill-total")).toHaveText("$12.50");
  await expect(page.getByTestId("pay-state")).toHaveText("Unpaid");
  await page.getByRole("link", { name: "Pay $12.50" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Pay $12.50 for bill");
  await expect(page.getByTestId("pay-balance")).toHaveText("Your balance: $43.00");
  await page.getByRole("button", { name: "Pay now" }).click();
  await expect(page.getByTestId("flash")).toContainText("was paid: $12.50");
  await expect(page.getByTestId("pay-state")).toHaveText("Paid");
  await expect(page.getByTestId("pay-section")).toHaveCount(0);

  await page.goto("/g/home/userCenter/MyAccount");
  await expect(page.getByTestId("balance")).toHaveText("$30.50");
  await expect(page.getByTestId("invoiceable")).toHaveText("$19.50");
  await expect(page.getByTestId("transaction").first()).toContainText("Bill payment");
});

test("an insufficient balance shows the message and a Recharge link", async ({ page, request }, testInfo) => {
  const userName = uniqueUser(testInfo, "poor");
  await userWith(request, userName, {
    grantCents: 100,
    bills: [{ billType: 2, serviceName: "Upgrade of Beta", totalCents: 5_000 }],
  });
  await signIn(page, userName);
  await page.goto("/g/home/userCenter/MyBills?payState=1");
  await page.getByTestId("bill-row").getByRole("link", { name: "Pay", exact: true }).click();
  await page.getByRole("button", { name: "Pay now" }).click();
  const error = page.getByTestId("pay-error");
  await expect(error).toContainText("Insufficient account balance");
  await expect(error.getByRole("link", { name: "Recharge", exact: true })).toHaveAttribute(
    "href",
    "/g/home/userCenter/MyAccount/Recharge",
  );
  await page.goto("/g/home/userCenter/MyAccount");
  await expect(page.getByTestId("balance")).toHaveText("$1.00");
});

test("My account shows the figures, the records and the 30-day usage (chart with JavaScript, table without)", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  const userName = uniqueUser(testInfo, "acct");
  await userWith(request, userName, {
    grantCents: 2_000,
    bills: [{ totalCents: 500, payState: 15 }, { totalCents: 80 }],
    usage: { days: 10, mbPerDay: 3_072 },
  });
  await signIn(page, userName);
  await page.goto("/g/home/userCenter");
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/MyAccount$/);
  await expect(page.getByRole("heading", { name: "My account" })).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$15.00");
  await expect(page.getByTestId("withdrawable")).toHaveText("$0.00");
  await expect(page.getByTestId("invoiceable")).toHaveText("$5.00");
  await expect(page.getByTestId("card")).toHaveText("No card saved.");
  await expect(page.getByRole("link", { name: "Recharge", exact: true })).toHaveAttribute(
    "href",
    "/g/home/userCenter/MyAccount/Recharge",
  );
  await expect(page.getByRole("link", { name: "Withdraw", exact: true })).toHaveAttribute(
    "href",
    "/g/home/userCenter/MyAccount/Withdraw",
  );
  await expect(page.getByRole("link", { name: "Invoice", exact: true })).toHaveAttribute(
    "href",
    "/g/home/userCenter/Invoices",
  );
  await expect(page.getByTestId("usage-total")).toHaveText("Total: 90.00 GB");
  if (javaScriptEnabled) {
    await expect(page.getByTestId("usage-chart").locator(".apexcharts-canvas")).toBeVisible();
    await expect(page.getByTestId("usage-table")).toBeHidden();
  } else {
    const table = page.getByTestId("usage-table");
    await expect(table).toBeVisible();
    await expect(table.locator("tbody tr")).toHaveCount(30);
    await expect(table.getByRole("columnheader", { name: "Beijing" })).toBeVisible();
  }
  // Transaction inquiry: a GET form over the ledger.
  await expect(page.getByTestId("transaction")).toHaveCount(2);
  await page.getByLabel("Type", { exact: true }).selectOption({ label: "Credit grant" });
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/kind=grant/);
  await expect(page.getByTestId("transaction")).toHaveCount(1);
  await expect(page.getByTestId("transaction")).toContainText("+$20.00");
});

test("My account turns auto-pay of usage bills off and on, saying what it does (docs/decisions/059)", async ({
  page,
  request,
}, testInfo) => {
  const userName = uniqueUser(testInfo, "apay");
  await userWith(request, userName, {});
  await signIn(page, userName);
  await page.goto("/g/home/userCenter/MyAccount");
  const section = page.getByRole("region", { name: "Auto-pay usage bills" });
  // On for an account made after the change.
  await expect(section.getByTestId("auto-pay-state")).toHaveText("On");
  await section.getByRole("button", { name: "Turn auto-pay off" }).click();
  await expect(page.getByTestId("flash")).toHaveText(
    "Auto-pay is off: pay your usage bills yourself within 7 days of their issue, or they block new services, products, IPFS and nodes.",
  );
  await expect(section.getByTestId("auto-pay-state")).toHaveText("Off");
  await section.getByRole("button", { name: "Turn auto-pay on" }).click();
  await expect(page.getByTestId("flash")).toHaveText(
    "Auto-pay is on: your usage bills are paid from your balance as soon as they are issued.",
  );
  await expect(section.getByTestId("auto-pay-state")).toHaveText("On");
});

test("My bills has a translated empty state and is in the menu", async ({ page, request }, testInfo) => {
  const userName = uniqueUser(testInfo, "none");
  await userWith(request, userName, {});
  await signIn(page, userName);
  await page.getByRole("navigation", { name: "Console menu" }).getByRole("link", { name: "My bills" }).click();
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/MyBills$/);
  await expect(page.getByTestId("bills-empty")).toHaveText("No bills match these filters.");
  await page.goto("/g/lang?lng=zh-CN&redirectTo=/g/home/userCenter/MyBills");
  await expect(page.getByTestId("bills-empty")).toHaveText("没有符合条件的账单。");
  await page.goto("/g/lang?lng=en&redirectTo=/g/home/userCenter/MyAccount");
});
