import type { APIRequestContext } from "@playwright/test";
import { expect, ready, test } from "./fixtures.ts";
import { CAPTCHA, createActiveUser, PASSWORD, signInOverHttp, uniqueUser, waitForMail } from "./support.ts";

// Alerts before limits bite (issue 35 §1, docs/decisions/087, 090), with JavaScript on and off: a refused amount or
// traffic budget comes back at its field with what was typed; a budget saved below what is billed already is told at once, in the
// Message center (whose link opens the Alerts page), in the page's history with the page that acts on it, and by mail.

async function vueapi(request: APIRequestContext, path: string, data: unknown, token?: string) {
  const res = await request.post(`/vueapi${path}`, {
    data,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const body = await res.json();
  expect(body.code, `${path}: ${JSON.stringify(body)}`).toBe(0);
  return body.data;
}

test("a monthly budget passed is told at once: Message center, history and mail", async ({
  page,
  request,
}, testInfo) => {
  const js = testInfo.project.use.javaScriptEnabled !== false;
  const { userName, email } = await createActiveUser(request, uniqueUser(testInfo, "alr"));
  const { captchaKey } = await vueapi(request, "/anon/captcha/create", {});
  const { token } = await vueapi(request, "/main/user/login", {
    username: userName,
    password: PASSWORD,
    captchaKey,
    captcha: CAPTCHA,
  });
  await vueapi(request, "/test/fixtures", { bills: [{ serviceName: "Alerted ledger", totalCents: 1_250 }] }, token);

  await signInOverHttp(page, userName, PASSWORD);
  await page.getByRole("link", { name: "Alerts", exact: true }).click();
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/Alerts$/);
  if (js) await ready(page);
  await expect(page.getByTestId("alerts-billed")).toHaveText("$12.50 (no budget set)");
  await expect(page.getByTestId("alerts-empty")).toBeVisible();

  await expect(page.getByTestId("alerts-ipfs-traffic")).toHaveText("No weekly traffic budget set");
  const budget = page.getByLabel("Monthly budget (USD)");
  const traffic = page.getByLabel("Weekly traffic budget of each IPFS service (GB)");
  await budget.fill("twenty");
  await traffic.fill("lots");
  await page.getByRole("button", { name: "Save alerts" }).click();
  const errorOfBudget = page.locator(`[id="${await budget.getAttribute("id")}-error"]`);
  await expect(errorOfBudget).toHaveText("Enter an amount in USD with at most 2 decimals, such as 100 or 25.50.");
  await expect(budget).toHaveValue("twenty");
  await expect(page.locator(`[id="${await traffic.getAttribute("id")}-error"]`)).toHaveText(
    "Enter a number of GB with at most 2 decimals, such as 50 or 2.5.",
  );
  await expect(traffic).toHaveValue("lots");

  await budget.fill("20");
  await traffic.fill("2.5");
  await page.getByLabel("Alert when the balance falls below (USD)").fill("5");
  await page.getByRole("button", { name: "Save alerts" }).click();
  await expect(page.getByTestId("flash")).toHaveText("The alerts were saved.");
  await expect(page.getByTestId("alerts-billed")).toHaveText("$12.50 of $20.00 (62 %)");
  await expect(page.getByTestId("alerts-balance")).toHaveText("$0.00 (alert below $5.00)");
  await expect(page.getByTestId("alerts-ipfs-traffic")).toHaveText("2.50 GB a week for each IPFS service");
  await expect(traffic).toHaveValue("2.5");
  const rows = page.getByTestId("alert-row");
  // Newest first: both were told by the one save, the balance's after the budget's.
  await expect(rows.getByTestId("alert-kind")).toHaveText([
    "Balance below the alert amount",
    /^Budget 50 % \(\d{4}-\d{2}\)$/,
  ]);
  await expect(rows.filter({ hasText: "Budget 50 %" }).getByRole("link", { name: "Open My bills" })).toHaveAttribute(
    "href",
    "/g/home/userCenter/MyBills",
  );
  await expect(rows.filter({ hasText: "Balance below" }).getByRole("link", { name: "Recharge" })).toHaveAttribute(
    "href",
    "/g/home/userCenter/MyAccount/Recharge",
  );

  await page.goto("/g/home/userCenter/MessageCenter");
  await expect(
    page.getByText(
      /Budget alert: this month's bills \(\d{4}-\d{2}\) come to \$12\.50, 50 % of your monthly budget of \$20\.00\./,
    ),
  ).toBeVisible();
  // The budget's message opens the Alerts page with its alert marked.
  await page
    .getByTestId("message")
    .filter({ hasText: "Budget alert" })
    .getByRole("link", { name: "Open Alerts" })
    .click();
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/Alerts\?alertId=\d+$/);
  await expect(page.getByTestId("alert-row").filter({ hasText: "Budget 50 %" })).toHaveAttribute(
    "aria-selected",
    "true",
  );

  // The account has no members: its own login is its owner, and money alerts are mailed to the owner (ADR 085).
  const mail = await waitForMail(email, /Budget alert/);
  expect(mail.subject).toBe(`${userName}: a billing notice from the BSN Portal`);
});
