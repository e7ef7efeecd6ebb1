import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, ready, test } from "./fixtures.ts";
import { logInAs, OPERATOR } from "./services-support.ts";
import { createActiveUser, signInOverHttp, uniqueUser } from "./support.ts";

// Issue "Hardening" (docs/decisions/019): a provider's signed word whose amount differs from the checkout
// holds the payment: the user sees it in review, an operator credits the checkout's amount. The sandbox's
// callback is signed here with the secret the server generated into its DATA_DIR, as the sandbox signs it.
// Runs with JavaScript on and off.

const RECHARGE = "/g/home/userCenter/MyAccount/Recharge";

async function signedCallback(page: Page, reference: string, amountCents: number) {
  const secret = readFileSync(path.join(process.env.E2E_DATA_DIR!, "payment-webhook-secret"), "utf8").trim();
  const timestamp = Math.floor(Date.now() / 1000);
  const event = JSON.stringify({
    id: `evt_${reference}`,
    type: "checkout.succeeded",
    created: timestamp,
    data: {
      reference,
      mode: "payment",
      merchantRef: "e2e",
      amountCents,
      currency: "USD",
      card: { brand: "Visa", last4: "4242", expMonth: 12, expYear: 2034 },
      reason: null,
    },
  });
  const signature = createHmac("sha256", secret).update(`${timestamp}.${event}`).digest("hex");
  const res = await page.request.post("/vueapi/pay/callback", { data: { event, timestamp, signature } });
  expect(res.status()).toBe(200);
  expect(await res.json()).toMatchObject({ code: 0 });
}

test("a payment whose provider amount differs is in review until an operator credits the checkout's amount", async ({
  page,
  browser,
  javaScriptEnabled,
  baseURL,
}, testInfo) => {
  const user = await createActiveUser(page.request, uniqueUser(testInfo, "rev"));
  await signInOverHttp(page, user.userName, user.password);
  await expect(page).toHaveURL(/\/g\/home\//);
  await page.goto(RECHARGE);
  await page.getByLabel("Bank card (UnionPay accepted)").check();
  await page.getByLabel("Amount (USD)").fill("5");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/sandbox-pay\/checkout\/cs_/);
  const reference = new URL(page.url()).pathname.split("/").pop()!;
  await signedCallback(page, reference, 50_000);

  await page.goto(RECHARGE);
  const row = page.getByTestId("recharge-row").first();
  await expect(row.getByTestId("status")).toHaveText("In review");
  await expect(page.getByTestId("balance")).toHaveText("$0.00");
  const paymentNo = (await row.locator("td").first().innerText()).trim();
  await page.goto(`${RECHARGE}/Return?paymentNo=${paymentNo}`);
  await expect(page.getByTestId("recharge-result")).toContainText("Our finance team reviews it");

  const context = await browser.newContext({ javaScriptEnabled, baseURL, locale: "en-US" });
  const operator = await context.newPage();
  try {
    await logInAs(operator, OPERATOR.userName, OPERATOR.password);
    await expect(operator).toHaveURL(/\/g\/home\//);
    await operator.goto("/g/home/operations/PaymentReviews");
    if (javaScriptEnabled) await ready(operator);
    const item = operator.locator(`[data-payment-no="${paymentNo}"]`);
    await expect(item).toContainText(user.userName);
    await expect(item).toContainText("Another amount");
    await expect(item.getByTestId("reported")).toHaveText("$500.00 (USD)");
    await item.getByRole("button", { name: "Credit the checkout's amount" }).click();
    await operator.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(operator.getByTestId("flash")).toContainText(`Payment ${paymentNo} credited.`);
    await expect(operator.locator(`[data-payment-no="${paymentNo}"]`)).toHaveCount(0);
  } finally {
    await context.close();
  }

  await page.goto(RECHARGE);
  await expect(page.getByTestId("balance")).toHaveText("$5.00");
  await expect(page.getByTestId("recharge-row").first().getByTestId("status")).toHaveText("Paid");
});
