import { expect, ready, test } from "./fixtures.ts";
import { createActiveUser, PASSWORD, signInOverHttp, uniqueUser } from "./support.ts";

// Issue 30 item 10 (docs/decisions/066): inside the console a not-found keeps the shell and its menu, says
// what was not found and links to its list; unknown paths outside the console still go to the landing page.
test("an unknown id on a known console page is not found inside the shell, with a link to its list", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "nf"));
  await signInOverHttp(page, user.userName, PASSWORD);
  await expect(page).toHaveURL(/\/g\/home\/index$/);

  const res = await page.goto("/g/home/DDC/Detail?ddcId=987654321");
  expect(res?.status()).toBe(404);
  await expect(page.locator("aside nav")).toBeVisible();
  await expect(page.getByTestId("error-view")).toHaveCount(0);
  await expect(page.getByTestId("not-found-what")).toHaveText("DDC: not found.");
  await expect(page.getByText("Try again")).toHaveCount(0);
  await page.getByTestId("not-found-list").click();
  await expect(page).toHaveURL(/\/g\/home\/DDC$/);

  // An unknown console path: the same shell, a way back to the overview.
  const unknown = await page.goto("/g/home/NoSuchPage");
  expect(unknown?.status()).toBe(404);
  await expect(page).toHaveURL(/\/g\/home\/NoSuchPage$/);
  await expect(page.locator("aside nav")).toBeVisible();
  await expect(page.getByTestId("not-found-what")).toHaveText("There is no console page at this address.");
  await page.getByTestId("not-found-list").click();
  await expect(page).toHaveURL(/\/g\/home\/index$/);

  // In Chinese, in words.
  await page.goto("/g/home/DDC/Detail?ddcId=987654321");
  await page.locator('a[hreflang="zh-CN"]').first().click();
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  if (javaScriptEnabled) await ready(page);
  await expect(page.getByTestId("not-found-what")).toContainText("未找到");
  await expect(page.getByTestId("not-found-list")).toContainText("前往");

  // Outside the console an unknown path still goes to the landing page (SPEC §2).
  await page.goto("/g/no/such/page");
  await expect(page).toHaveURL(/\/g\/main\/index$/);
});
