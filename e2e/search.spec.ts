import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { api, apiToken, FIXTURE_BOOKING } from "./services-support.ts";
import { createActiveUser, PASSWORD, signInOverHttp, uniqueUser } from "./support.ts";

// Issue 35 §2 (docs/decisions/086): the console top bar's one search box, a GET form to a results page grouped
// by kind, each result leading to its record's page; another account's records are never found. JS on and off.

/** A fresh account with one bill and one service; its bill's number, its service's name and id. */
async function accountWith(request: APIRequestContext, userName: string, serviceName: string) {
  await createActiveUser(request, userName);
  const token = await apiToken(request, userName);
  const { billIds } = await api(request, "/test/fixtures", { bills: [{ serviceName, totalCents: 1_250 }] }, token);
  const bill = await api(request, "/sys/system/clientInfo/h5billDetail", { billId: billIds[0] }, token);
  const billNo = String(JSON.stringify(bill).match(/"billNo":"([^"]+)"/)?.[1]);
  const service = await api(request, "/test/services", { name: serviceName, verState: 5, ...FIXTURE_BOOKING }, token);
  return { billId: billIds[0] as number, billNo, appId: service.appId as number };
}

test("the top bar finds a bill by its number and a service by its name, never another account's", async ({
  page,
  request,
}, testInfo) => {
  const mine = uniqueUser(testInfo, "srch");
  const suffix = mine.slice(-6);
  const own = await accountWith(request, mine, `Ledger ${suffix}`);
  const other = await accountWith(request, uniqueUser(testInfo, "srco"), `Vault ${suffix}`);
  await signInOverHttp(page, mine, PASSWORD);
  await expect(page).toHaveURL(/\/g\/home\/index/);

  // A bill by its number, from the top bar: one exact result, leading to the bill's page.
  const box = page.getByRole("search").getByLabel("Search this account");
  await box.fill(own.billNo);
  await box.press("Enter");
  await expect(page).toHaveURL(/\/g\/home\/search\?q=/);
  await expect(page.getByRole("heading", { level: 1, name: "Search" })).toBeVisible();
  const bills = page.getByTestId("search-bill");
  await expect(bills.getByTestId("search-hit")).toHaveCount(1);
  await expect(bills).toContainText(own.billNo);
  await bills.getByRole("link", { name: own.billNo }).click();
  await expect(page).toHaveURL(new RegExp(`/g/home/userCenter/BillDetail\\?billId=${own.billId}$`));

  // A service by a word of its name: found with its APPCode, leading to its detail.
  await page.getByRole("search").getByLabel("Search this account").fill(`ledger ${suffix}`);
  await page.getByRole("search").getByRole("button", { name: "Find" }).click();
  const services = page.getByTestId("search-service");
  await expect(services.getByRole("link", { name: `Ledger ${suffix}` })).toBeVisible();
  await expect(page.getByTestId("search-bill")).toHaveCount(0);
  await services.getByRole("link", { name: `Ledger ${suffix}` }).click();
  await expect(page).toHaveURL(new RegExp(`ServicesDetail\\?appId=${own.appId}`));

  // The other account's bill number and service name find nothing here.
  await page.goto(`/g/home/search?q=${encodeURIComponent(other.billNo)}`);
  await expect(page.getByTestId("search-empty")).toBeVisible();
  await expect(page.getByRole("search").getByLabel("Search this account")).toHaveValue(other.billNo);
  await page.goto(`/g/home/search?q=${encodeURIComponent(`Vault ${suffix}`)}`);
  await expect(page.getByTestId("search-service")).toHaveCount(0);
  await expect(page.locator("main")).not.toContainText(other.billNo);
});

test("the results page asks for a query, and finds the manual in Chinese", async ({ page, request }, testInfo) => {
  const userName = uniqueUser(testInfo, "srcz");
  await createActiveUser(request, userName);
  await signInOverHttp(page, userName, PASSWORD);
  await page.goto("/g/home/search");
  await expect(page.getByTestId("search-ask")).toBeVisible();
  await page.goto(
    `/g/lang?lng=zh-CN&redirectTo=${encodeURIComponent(`/g/home/search?q=${encodeURIComponent("区块链")}`)}`,
  );
  await expect(page.getByRole("heading", { level: 1, name: "搜索" })).toBeVisible();
  const manual = page.getByTestId("search-manual");
  await expect(manual.getByRole("heading", { name: /用户手册/ })).toBeVisible();
  await expect(manual.getByTestId("search-hit").first()).toBeVisible();
});
