import { expect, test } from "./fixtures.ts";
import { logInAs, OPERATOR } from "./services-support.ts";
import { createActiveUser, signInOverHttp, uniqueUser } from "./support.ts";

// Issue "Hardening" (docs/decisions/020): while the sandbox takes the payments (the demo, DEMO=1), every page
// and the sandbox's own checkout say "test mode — no real money". Runs with JavaScript on and off.

const BANNER = "Test mode — no real money.";

test("the test-mode banner is on the portal's pages and on the sandbox checkout", async ({ page }, testInfo) => {
  await page.goto("/g/main/index");
  await expect(page.getByTestId("test-mode-banner")).toContainText(BANNER);
  await expect(page.getByTestId("test-mode-banner")).toContainText("no card is charged");

  const user = await createActiveUser(page.request, uniqueUser(testInfo, "tm"));
  await signInOverHttp(page, user.userName, user.password);
  await expect(page).toHaveURL(/\/g\/home\//);
  await expect(page.getByTestId("test-mode-banner")).toContainText(BANNER);

  await page.goto("/g/home/userCenter/MyAccount/Recharge");
  await page.getByLabel("Bank card (UnionPay accepted)").check();
  await page.getByLabel("Amount (USD)").fill("1");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/sandbox-pay\/checkout\/cs_/);
  await expect(page.getByTestId("test-mode-banner")).toContainText(BANNER);
  await expect(page.getByTestId("test-mode-banner")).toContainText("This is the sandbox provider");
});

test("the banner is translated", async ({ page }) => {
  await page.goto("/g/lang?lng=zh-CN&redirectTo=%2Fg%2Fmain%2Findex");
  await expect(page).toHaveURL(/\/g\/main\/index/);
  await expect(page.getByTestId("test-mode-banner")).toContainText("测试模式——不涉及真实资金。");
});

test("operators have the queue of payments in review", async ({ page }) => {
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await expect(page).toHaveURL(/\/g\/home\//);
  await page.goto("/g/home/operations");
  await page.getByRole("link", { name: "Payments in review" }).click();
  await expect(page).toHaveURL(/\/g\/home\/operations\/PaymentReviews/);
  await expect(page.getByRole("heading", { name: "Payments in review" })).toBeVisible();
  // Other specs may have put payments in review meanwhile (payment-review.spec.ts covers the queue's rows):
  // the page shows either its empty state or the payments in review.
  await expect(
    page
      .getByText("No payments to review.")
      .or(page.getByRole("listitem").filter({ hasText: "Provider reported" }))
      .first(),
  ).toBeVisible();
});
