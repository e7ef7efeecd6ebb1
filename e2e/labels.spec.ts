import { expect, ready, test } from "./fixtures.ts";
import { api, apiToken } from "./services-support.ts";
import { createActiveUser, PASSWORD, signInOverHttp, uniqueUser } from "./support.ts";

// Issue 30 item 8: labels say what things are, in both languages: a one-off bill is not "Monthly", a table
// names UTC+8 once in its header, and money in messages is in the page language's currency format.
test("one-off bills are one-off, times name their zone once, and a message's amount is money", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "lbl"));
  const token = await apiToken(request, user.userName);
  await api(
    request,
    "/test/fixtures",
    {
      grantCents: 1_000,
      bills: [
        { billType: 91, serviceName: "Lbl DDC", totalCents: 125 },
        { billType: 1, serviceName: "Lbl service", totalCents: 300 },
      ],
    },
    token,
  );
  await signInOverHttp(page, user.userName, PASSWORD);
  await expect(page).toHaveURL(/\/g\/home\/index$/);

  await page.goto("/g/home/userCenter/MyBills");
  const mint = page.getByTestId("bill-row").filter({ hasText: "Lbl DDC" });
  await expect(mint).toContainText("Mint DDC · One-off");
  await expect(page.getByTestId("bill-row").filter({ hasText: "Lbl service" })).toContainText("Monthly");
  await expect(page.getByRole("columnheader", { name: "Created (UTC+8)" })).toBeVisible();
  await expect(mint).not.toContainText("UTC+8");

  await page.locator('a[hreflang="zh-CN"]').first().click();
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  if (javaScriptEnabled) await ready(page);
  await expect(page.getByTestId("bill-row").filter({ hasText: "Lbl DDC" })).toContainText("一次性");
});
