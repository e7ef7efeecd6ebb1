import type { Browser, Page, TestInfo } from "@playwright/test";
import { expect, ready, test } from "./fixtures.ts";
import { logInAs, OPERATOR } from "./services-support.ts";
import { createActiveUser, rowMenuItem, signInOverHttp, uniqueUser } from "./support.ts";

// Issue "Account centre and finance", payments (docs/decisions/007): recharge through the sandbox
// provider's hosted checkout, a declined card, a withdrawal approved by an operator, an offline
// remittance confirmed by an operator. Runs with JavaScript on and off.
// Nobody here signs in through the login page (e2e/login-*.spec.ts and e2e/operator-auth.spec.ts test it): the
// user by the form posted over HTTP, the operator with the run's saved session (e2e/services-support.ts).

const RECHARGE = "/g/home/userCenter/MyAccount/Recharge";
const WITHDRAW = "/g/home/userCenter/MyAccount/Withdraw";
const WITHDRAWABLE_MSG = "The amount is more than the withdrawable amount.";

async function freshUser(page: Page, testInfo: TestInfo, prefix: string) {
  const userName = uniqueUser(testInfo, prefix);
  const user = await createActiveUser(page.request, userName);
  await signInOverHttp(page, user.userName, user.password);
  await expect(page).toHaveURL(/\/g\/home\//);
  return user;
}

/** Starts a card recharge and pays at the sandbox checkout; ends on the return page. */
async function rechargeByCard(page: Page, amount: string, card: string) {
  await page.goto(RECHARGE);
  await page.getByLabel("Bank card (UnionPay accepted)").check();
  await page.getByLabel("Amount (USD)").fill(amount);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/sandbox-pay\/checkout\/cs_/);
  await expect(page.getByText("BSN Portal").first()).toBeVisible();
  await expect(page.getByText("4242 4242 4242 4242")).toBeVisible();
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Li Lei");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/MyAccount\/Recharge\/Return\?paymentNo=RC/);
}

async function operatorPage(browser: Browser, javaScriptEnabled: boolean, baseURL: string | undefined) {
  const context = await browser.newContext({ javaScriptEnabled, baseURL, locale: "en-US" });
  const page = await context.newPage();
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  return { page, close: () => context.close() };
}

async function go(page: Page, url: string, javaScriptEnabled: boolean) {
  await page.goto(url);
  if (javaScriptEnabled) await ready(page);
}

test("a fresh user recharges with the 4242 test card and sees the new balance", async ({ page }, testInfo) => {
  await freshUser(page, testInfo, "rch");
  await rechargeByCard(page, "25.50", "4242 4242 4242 4242");
  const result = page.getByTestId("recharge-result");
  await expect(result).toContainText("Payment received. $25.50 was added to your balance.", { timeout: 20_000 });
  await expect(result.getByTestId("balance")).toContainText("$25.50");
  await page.goto(RECHARGE);
  await expect(page.getByTestId("balance")).toHaveText("$25.50");
  await expect(page.getByTestId("withdrawable")).toHaveText("$25.50");
  const row = page.getByTestId("recharge-row").first();
  await expect(row).toContainText("$25.50");
  await expect(row.getByTestId("status")).toHaveText("Paid");
});

test("a declined card fails the recharge with its reason", async ({ page }, testInfo) => {
  await freshUser(page, testInfo, "dcl");
  await rechargeByCard(page, "10", "4000 0000 0000 0002");
  const result = page.getByTestId("recharge-result");
  await expect(result).toContainText("The payment failed. The card was declined.", { timeout: 20_000 });
  await expect(result.getByTestId("status")).toHaveText("Failed");
  await expect(result.getByTestId("balance")).toContainText("$0.00");
});

test("an amount of 0 is refused with the form kept", async ({ page }, testInfo) => {
  await freshUser(page, testInfo, "amt");
  await page.goto(RECHARGE);
  await page.getByLabel("Amount (USD)").fill("0");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("The amount must be greater than 0.")).toBeVisible();
  await expect(page.getByLabel("Amount (USD)")).toHaveValue("0");
});

/** Chooses a method and an amount on the recharge page and continues (issue 31 item 2; docs/decisions/072). */
async function rechargeWith(page: Page, method: string, amount: string) {
  await page.goto(RECHARGE);
  const methods = page.getByTestId("pay-methods");
  // Only the methods this server offers, by their real names: the e2e server's sandbox simulates them all.
  for (const name of [
    "WeChat Pay",
    "Bank card (UnionPay accepted)",
    "Enterprise net banking",
    "Offline remittance",
    "Alipay",
  ])
    await expect(methods.getByLabel(name)).toBeVisible();
  await methods.getByLabel(method).check();
  await page.getByLabel("Amount (USD)").fill(amount);
  await page.getByRole("button", { name: "Continue" }).click();
}

test("WeChat Pay opens its QR code page in test mode; paid there, the balance is credited", async ({
  page,
}, testInfo) => {
  await freshUser(page, testInfo, "wcp");
  await rechargeWith(page, "WeChat Pay", "6.60");
  await expect(page).toHaveURL(/\/sandbox-pay\/checkout\/cs_/);
  await expect(page.getByTestId("test-mode-banner")).toBeVisible();
  await expect(page.getByTestId("wechat-qr").locator("svg")).toBeVisible();
  await expect(page.getByLabel("Card number")).toHaveCount(0);
  await page.getByRole("button", { name: "Simulate: scanned and paid" }).click();
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/MyAccount\/Recharge\/Return\?paymentNo=RC/);
  const result = page.getByTestId("recharge-result");
  await expect(result).toContainText("Payment received. $6.60 was added to your balance.", { timeout: 20_000 });
  await expect(result).toContainText("WeChat Pay");
});

test("Alipay redirects to its own (simulated) site in test mode and back", async ({ page }, testInfo) => {
  await freshUser(page, testInfo, "alp");
  await rechargeWith(page, "Alipay", "7.70");
  await expect(page).toHaveURL(/\/sandbox-pay\/alipay\/cs_/);
  await expect(page.getByTestId("test-mode-banner")).toBeVisible();
  await expect(page.getByText("Alipay (simulated site)")).toBeVisible();
  await page.getByRole("button", { name: "Simulate: confirm in Alipay" }).click();
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/MyAccount\/Recharge\/Return\?paymentNo=RC/);
  await expect(page.getByTestId("recharge-result")).toContainText(
    "Payment received. $7.70 was added to your balance.",
    {
      timeout: 20_000,
    },
  );
});

test("enterprise net banking is a bank transfer quoting the reference the portal gives", async ({ page }, testInfo) => {
  await freshUser(page, testInfo, "nbk");
  await rechargeWith(page, "Enterprise net banking", "300");
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/MyAccount\/Recharge\/Return\?paymentNo=RC/);
  const paymentNo = new URL(page.url()).searchParams.get("paymentNo")!;
  const result = page.getByTestId("recharge-result");
  await expect(result.getByTestId("status")).toHaveText("Awaiting confirmation");
  await expect(result.getByTestId("transfer-note")).toContainText(`quoting the reference ${paymentNo}`);
  await expect(page.getByTestId("remittance-instructions")).toContainText(paymentNo);
});

test("a withdrawal approved by the operator shows its expected arrival to the user", async ({
  page,
  browser,
  javaScriptEnabled,
  baseURL,
}, testInfo) => {
  await freshUser(page, testInfo, "wdr");
  await rechargeByCard(page, "40", "5555 5555 5555 4444");
  await expect(page.getByTestId("recharge-result")).toContainText("Payment received", { timeout: 20_000 });

  await page.goto(WITHDRAW);
  await expect(page.getByTestId("withdrawable")).toHaveText("$40.00");
  // The amount is required: marked beside its label, and so for assistive technology.
  await expect(page.getByLabel("Amount (USD)")).toHaveAttribute("required", "");
  await expect(page.getByTestId("required-mark")).toHaveCount(1);
  // Above the withdrawable amount: refused at the field before any confirmation, and the amount stays.
  await page.getByLabel("Amount (USD)").fill("50");
  await page.getByRole("button", { name: "Withdraw", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: WITHDRAWABLE_MSG })).toBeVisible();
  await expect(page.getByRole("button", { name: "Yes, withdraw" })).toHaveCount(0);
  await expect(page.getByLabel("Amount (USD)")).toHaveValue("50");

  await go(page, WITHDRAW, javaScriptEnabled);
  await page.getByLabel("Amount (USD)").fill("15");
  await page.getByRole("button", { name: "Withdraw", exact: true }).click();
  await page.getByRole("button", { name: "Yes, withdraw" }).click();
  await expect(page.getByTestId("flash")).toContainText("Your withdrawal request was submitted for review.");
  await expect(page.getByTestId("balance")).toHaveText("$25.00");
  const row = page.getByTestId("withdrawal-row").first();
  await expect(row.getByTestId("status")).toHaveText("Pending review");
  const withdrawalNo = (await row.locator("td").first().innerText()).trim();

  const operator = await operatorPage(browser, javaScriptEnabled, baseURL);
  try {
    await go(operator.page, "/g/home/operations/Withdrawals", javaScriptEnabled);
    const item = operator.page.locator(`[data-withdrawal-no="${withdrawalNo}"]`);
    await item.getByRole("button", { name: "Approve" }).click();
    await operator.page.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(operator.page.getByTestId("flash")).toContainText(`Withdrawal ${withdrawalNo} approved.`);
  } finally {
    await operator.close();
  }

  await page.goto(WITHDRAW);
  const approved = page.getByTestId("withdrawal-row").first();
  await expect(approved.getByTestId("status")).toHaveText("Approved");
  await expect(approved.getByTestId("arrival")).toHaveText(/^UTC\+8 \d{2}\/\d{2}\/\d{4}$/);
});

test("an offline remittance is confirmed by the operator and credits the balance", async ({
  page,
  browser,
  javaScriptEnabled,
  baseURL,
}, testInfo) => {
  const user = await freshUser(page, testInfo, "ofl");
  await page.goto(RECHARGE);
  await page.getByLabel("Offline remittance (bank transfer)").check();
  await page.getByLabel("Amount (USD)").fill("120");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Enter the reference of your bank transfer.")).toBeVisible();
  await page.getByLabel("Your bank transfer reference").fill("BOC 20260601-778");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/Recharge\/Return\?paymentNo=RC/);
  const instructions = page.getByTestId("remittance-instructions");
  await expect(instructions).toContainText("Bank of China");
  await expect(instructions).toContainText("1-3 working days");
  await expect(page.getByTestId("recharge-result").getByTestId("status")).toHaveText("Awaiting confirmation");
  const paymentNo = new URL(page.url()).searchParams.get("paymentNo")!;

  const operator = await operatorPage(browser, javaScriptEnabled, baseURL);
  try {
    await go(operator.page, "/g/home/operations/Remittances", javaScriptEnabled);
    const item = operator.page.locator(`[data-payment-no="${paymentNo}"]`);
    await expect(item).toContainText(user.userName);
    await expect(item).toContainText("BOC 20260601-778");
    // Rejecting needs comments. Reject is in the item's "More" menu (its main action is Confirm receipt).
    await (await rowMenuItem(operator.page, item, "Reject")).click();
    if (javaScriptEnabled) await operator.page.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(operator.page.getByText("Please enter review comments.")).toBeVisible();
    // With comments, the menu's Reject asks first (a dialog, or a confirm step without JavaScript); cancelling leaves the remittance waiting.
    await item.getByLabel("Comments").fill("No transfer with this reference yet.");
    await (await rowMenuItem(operator.page, item, "Reject")).click();
    const question = operator.page.getByRole("alertdialog", { name: "Reject" });
    await expect(question).toContainText(`Reject ${paymentNo} for $120.00?`);
    await question.getByRole(javaScriptEnabled ? "button" : "link", { name: "Cancel" }).click();
    await expect(question).toHaveCount(0);
    await expect(
      operator.page.locator(`[data-payment-no="${paymentNo}"]`).getByRole("button", { name: "Confirm receipt" }),
    ).toBeVisible();
    await go(operator.page, "/g/home/operations/Remittances", javaScriptEnabled);
    await operator.page
      .locator(`[data-payment-no="${paymentNo}"]`)
      .getByRole("button", { name: "Confirm receipt" })
      .click();
    await operator.page.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(operator.page.getByTestId("flash")).toContainText(`Remittance ${paymentNo} confirmed`);
  } finally {
    await operator.close();
  }

  await page.goto(RECHARGE);
  await expect(page.getByTestId("balance")).toHaveText("$120.00");
  await expect(page.getByTestId("recharge-row").first().getByTestId("status")).toHaveText("Paid");
});
