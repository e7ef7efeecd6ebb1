import type { APIRequestContext, Browser, Page, TestInfo } from "@playwright/test";
import { expect, ready, test } from "./fixtures.ts";
import { logInAs, OPERATOR } from "./services-support.ts";
import { CAPTCHA, createActiveUser, decideInQueue, signInOverHttp, uniqueUser } from "./support.ts";

// Issue "Account centre and finance" §Invoices: titles, addresses, an application on two bills, operator
// approval and delivery, a rejection with comments, and bad input kept. Runs with JavaScript on and off.
// Nobody here signs in through the login page (e2e/login-*.spec.ts and e2e/operator-auth.spec.ts test it): the
// user by the form posted over HTTP, the operator with the run's saved session (e2e/services-support.ts).

async function vueapi(request: APIRequestContext, p: string, data: unknown, token?: string) {
  const res = await request.post(`/vueapi${p}`, { data, headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const body = (await res.json()) as { code: number; message: string; data: any };
  expect(body.code, `${p}: ${JSON.stringify(body)}`).toBe(0);
  return body.data;
}

/** A fresh user with paid bills (through /test/fixtures) and their API token. */
async function userWithBills(request: APIRequestContext, testInfo: TestInfo, prefix: string, amounts: number[]) {
  const user = await createActiveUser(request, uniqueUser(testInfo, prefix));
  const captcha = await vueapi(request, "/anon/captcha/create", {});
  const login = await vueapi(request, "/main/user/login", {
    username: user.userName,
    password: user.password,
    captchaKey: captcha.captchaKey,
    captcha: CAPTCHA,
  });
  const total = amounts.reduce((a, b) => a + b, 0);
  await vueapi(
    request,
    "/test/fixtures",
    {
      grantCents: total,
      bills: amounts.map((totalCents) => ({ totalCents, payState: 15, serviceName: "Fixture service" })),
    },
    login.token,
  );
  return { ...user, token: login.token as string };
}

/** The operator, in a browser context of its own with the same JavaScript setting as the test. */
async function operatorPage(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const javaScriptEnabled = testInfo.project.use.javaScriptEnabled !== false;
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    javaScriptEnabled,
    locale: "en-US",
  });
  const page = await context.newPage();
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  return page;
}

async function openInQueue(op: Page, applicationNo: string, javaScriptEnabled: boolean) {
  await op.goto("/g/home/operations/Invoices?status=all");
  if (javaScriptEnabled) await ready(op);
  await op.getByRole("link", { name: applicationNo }).click();
  await expect(op.getByRole("heading", { name: `Invoice application ${applicationNo}` })).toBeVisible();
}

test("a user adds a title and an address, applies on two bills; the operator approves and delivers", async ({
  page,
  request,
  browser,
}, testInfo) => {
  // Two people's whole journey (titles, an address, an application on two bills, review, delivery): it reached its
  // last step at 60 s in the fresh-clone run of 68c8a92 (JS, twice), so it gets 2 minutes.
  test.setTimeout(120_000);
  const js = testInfo.project.use.javaScriptEnabled !== false;
  const user = await userWithBills(request, testInfo, "inv", [1250, 2000, 500]);
  await signInOverHttp(page, user.userName, user.password);
  await expect(page).toHaveURL(/\/g\/home\/index$/);

  await page.getByRole("link", { name: "Invoices", exact: true }).first().click();
  await expect(page.getByRole("heading", { name: "Invoices", exact: true })).toBeVisible();
  await expect(page.getByTestId("invoiceable-amount")).toHaveText("$37.50");
  await expect(page.getByTestId("empty")).toContainText("You have not applied for an invoice yet.");

  // An invoice title.
  await page.getByRole("link", { name: "Invoice titles" }).click();
  await expect(page.getByTestId("empty")).toBeVisible();
  await page.getByRole("link", { name: "Add a title" }).click();
  await page.getByLabel("Enterprise").check();
  await page.getByLabel("Title", { exact: true }).fill("Example Chain Ltd.");
  await page.getByLabel("Tax number").fill("91110108MA01ABCD1X");
  await page.getByLabel("Bank", { exact: true }).fill("Example Bank");
  await page.getByLabel("Bank account").fill("6222020200112233445");
  await page.getByLabel("Registered address").fill("1 Example Road, Beijing");
  await page.getByLabel("Registered phone").fill("010-12345678");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("flash")).toContainText("The invoice title was added.");
  await expect(page.getByTestId("title-row")).toContainText("Example Chain Ltd.");
  await expect(page.getByTestId("title-row")).toContainText("Default");

  // A receiving address.
  await page.getByRole("link", { name: "Back to invoices" }).click();
  await page.getByRole("link", { name: "Receiving addresses" }).click();
  await page.getByRole("link", { name: "Add an address" }).click();
  await page.getByLabel("Name").fill("Li Lei");
  await page.getByLabel("Mobile").fill("13800000000");
  await page.getByLabel("Location (region)").fill("Beijing, China");
  await page.getByLabel("Detailed address").fill("2 Example Street, Haidian");
  await page.getByLabel("Postal code").fill("100080");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("flash")).toContainText("The receiving address was added.");
  await expect(page.getByTestId("address-row")).toContainText("Li Lei");

  // Select billing → confirm information → submit.
  await page.getByRole("link", { name: "Back to invoices" }).click();
  await page.getByRole("link", { name: "Apply for an invoice" }).click();
  await expect(page.getByTestId("invoiceable-bill")).toHaveCount(3);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Select at least one bill.")).toBeVisible();
  const rows = page.getByTestId("invoiceable-bill");
  await rows.filter({ hasText: "$12.50" }).getByRole("checkbox").check();
  await rows.filter({ hasText: "$20.00" }).getByRole("checkbox").check();
  if (js) await expect(page.getByTestId("running-total")).toHaveText("$32.50");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=confirm/);
  await expect(page.getByTestId("selected-bill")).toHaveCount(2);
  await expect(page.getByTestId("invoice-total")).toHaveText("$32.50");
  // The step and the selection survive a reload.
  await page.reload();
  if (js) await ready(page);
  await expect(page.getByTestId("selected-bill")).toHaveCount(2);
  await page.getByLabel("Special VAT invoice").check();
  await page.getByLabel("Paper", { exact: true }).check();
  await page.getByLabel("Remark").fill("Please send to the finance office");
  await page.getByRole("button", { name: "Submit the application" }).click();
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/Invoices\/Detail\?id=\d+/);
  await expect(page.getByTestId("flash")).toContainText("is pending review");
  await expect(page.getByTestId("invoice-status").first()).toHaveText("Pending review");
  await expect(page.getByTestId("detail-amount")).toHaveText("$32.50");
  await expect(page.getByTestId("billed-bill")).toHaveCount(2);
  const heading = await page.getByRole("heading", { name: /^Invoice application / }).textContent();
  const applicationNo = heading!.replace("Invoice application ", "").trim();

  await page.goto("/g/home/userCenter/Invoices");
  await expect(page.getByTestId("invoiceable-amount")).toHaveText("$5.00");
  await expect(page.getByTestId("invoice-row")).toContainText(applicationNo);

  // The operator approves, then marks it delivered with the courier details.
  const op = await operatorPage(browser, testInfo);
  await openInQueue(op, applicationNo, js);
  await decideInQueue(op, op.getByTestId("invoice-review"), "Approve");
  await expect(op.getByTestId("flash")).toContainText("The application was approved.");
  await op.getByRole("button", { name: "Mark as delivered" }).click();
  await expect(op.getByText("Enter the courier name.")).toBeVisible();
  await op.getByLabel("Courier name").fill("SF Express");
  await op.getByLabel("Courier bill number").fill("SF1002003004");
  await op.getByRole("button", { name: "Mark as delivered" }).click();
  await expect(op.getByTestId("flash")).toContainText("The invoice was marked as delivered.");
  await op.context().close();

  await page.getByRole("link", { name: applicationNo }).click();
  await expect(page.getByTestId("invoice-status").first()).toHaveText("Delivered");
  await expect(page.getByTestId("courier-name")).toHaveText("SF Express");
  await expect(page.getByTestId("courier-no")).toHaveText("SF1002003004");
  await page.goto("/g/home/userCenter/MessageCenter");
  await expect(page.getByTestId("message").first()).toContainText(
    `The invoice of your application ${applicationNo} was delivered.`,
  );
});

test("an operator rejects with comments; the user sees them and the amount is back", async ({
  page,
  request,
  browser,
}, testInfo) => {
  const js = testInfo.project.use.javaScriptEnabled !== false;
  const user = await userWithBills(request, testInfo, "rej", [800]);
  const title = await vueapi(
    request,
    "/sys/invoicetitles/h5insertInvoiceTitle",
    { titleType: "1", title: "Han Meimei" },
    user.token,
  );
  const bills = await vueapi(request, "/sys/system/invoiceAccountTrade/h5queryInvoiceableBills", {}, user.token);
  const applied = await vueapi(
    request,
    "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade",
    {
      idempotencyKey: `e2e${Date.now()}${Math.random().toString(36).slice(2, 10)}`,
      billIds: bills.bills.map((b: { billId: number }) => String(b.billId)),
      titleId: String(title.titleId),
      invoiceType: "1",
      issuance: "2",
      email: user.email,
    },
    user.token,
  );

  const op = await operatorPage(browser, testInfo);
  await openInQueue(op, applied.applicationNo, js);
  // Reject is in the "More" menu (the main action is Approve); it needs comments, then asks to confirm.
  await decideInQueue(op, op.getByTestId("invoice-review"), "Reject", { inMenu: true, refused: true });
  await expect(op.getByText("Please enter review comments.")).toBeVisible();
  await op.getByLabel("Review comments").fill("The title does not match the payer.");
  await decideInQueue(op, op.getByTestId("invoice-review"), "Reject", { inMenu: true });
  await expect(op.getByTestId("flash")).toContainText("The application was rejected");
  await op.context().close();

  await signInOverHttp(page, user.userName, user.password);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await page.goto("/g/home/userCenter/Invoices?status=3");
  await expect(page.getByTestId("invoiceable-amount")).toHaveText("$8.00");
  await page.getByRole("link", { name: applied.applicationNo }).click();
  await expect(page.getByTestId("invoice-status").first()).toHaveText("Not approved");
  await expect(page.getByTestId("review-comments")).toHaveText("The title does not match the payer.");
});

test("bad input is explained and what was typed is kept", async ({ page, request }, testInfo) => {
  const user = await userWithBills(request, testInfo, "bad", [300]);
  await signInOverHttp(page, user.userName, user.password);
  await expect(page).toHaveURL(/\/g\/home\/index$/);

  await page.goto("/g/home/userCenter/Invoices/Titles?form=new");
  await page.getByLabel("Organisation").check();
  await page.getByLabel("Title", { exact: true }).fill("Open Ledger Foundation");
  await page.getByLabel("Tax number").fill("bad-tax");
  await page.getByLabel("Registered phone").fill("12");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("The tax number has 15 to 20 capital letters and digits.")).toBeVisible();
  await expect(page.getByText("Enter a phone number of 6 to 20 digits")).toBeVisible();
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Open Ledger Foundation");
  await expect(page.getByLabel("Tax number")).toHaveValue("bad-tax");
  await expect(page.getByLabel("Organisation")).toBeChecked();
  await page.getByLabel("Tax number").fill("");
  await page.getByLabel("Registered phone").fill("");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Enterprise and organisation titles need a tax number.")).toBeVisible();
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Open Ledger Foundation");

  await page.goto("/g/home/userCenter/Invoices/Addresses?form=new");
  await page.getByLabel("Name").fill("Wang Fang");
  await page.getByLabel("Mobile").fill("abc");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Enter a valid mobile number")).toBeVisible();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Wang Fang");
  await expect(page.getByLabel("Email")).toHaveValue("not-an-email");

  // The confirm step without a title or an address: the application is refused, the choices are kept.
  const bills = await vueapi(request, "/sys/system/invoiceAccountTrade/h5queryInvoiceableBills", {}, user.token);
  await page.goto(`/g/home/userCenter/Invoices/Add?step=confirm&billIds=${bills.bills[0].billId}`);
  await expect(page.getByText("You have no invoice titles yet. Add one first.")).toBeVisible();
  await page.getByLabel("Paper", { exact: true }).check();
  await page.getByLabel("Remark").fill("Keep me");
  await page.getByRole("button", { name: "Submit the application" }).click();
  await expect(page.getByText("Choose an invoice title.")).toBeVisible();
  await expect(page.getByText("A paper invoice needs a receiving address.")).toBeVisible();
  await expect(page.getByLabel("Remark")).toHaveValue("Keep me");
  await expect(page.getByLabel("Paper", { exact: true })).toBeChecked();
});

test("deleting a title asks first", async ({ page, request }, testInfo) => {
  const user = await userWithBills(request, testInfo, "del", [100]);
  await vueapi(
    request,
    "/sys/invoicetitles/h5insertInvoiceTitle",
    { titleType: "1", title: "Temporary title" },
    user.token,
  );
  await signInOverHttp(page, user.userName, user.password);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await page.goto("/g/home/userCenter/Invoices/Titles");
  await page.getByRole("link", { name: "Delete", exact: true }).click();
  const question = page.getByRole("alertdialog");
  await expect(question).toContainText('Delete the invoice title "Temporary title"?');
  await question
    .getByRole("link", { name: "Cancel", exact: true })
    .or(question.getByRole("button", { name: "Cancel" }))
    .click();
  await expect(page.getByTestId("title-row")).toHaveCount(1);
  await page.getByRole("link", { name: "Delete", exact: true }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("flash")).toContainText("The invoice title was deleted.");
  await expect(page.getByTestId("empty")).toContainText("You have no invoice titles yet.");

  // The same pages in Chinese.
  await page.getByRole("link", { name: "中文" }).first().click();
  await expect(page.getByRole("heading", { name: "发票抬头" })).toBeVisible();
  await expect(page.getByTestId("empty")).toContainText("您还没有发票抬头。");
  await page.getByRole("link", { name: "返回发票列表" }).click();
  await expect(page.getByRole("heading", { name: "发票", exact: true })).toBeVisible();
  await expect(page.getByTestId("invoiceable-amount")).toHaveText("US$1.00");
});

test("a bill invoiced meanwhile from another tab is refused at the selection, and the choices are kept", async ({
  page,
  request,
}, testInfo) => {
  const user = await userWithBills(request, testInfo, "sel", [300]);
  const title = await vueapi(
    request,
    "/sys/invoicetitles/h5insertInvoiceTitle",
    { titleType: "1", title: "Li Lei" },
    user.token,
  );
  const bills = await vueapi(request, "/sys/system/invoiceAccountTrade/h5queryInvoiceableBills", {}, user.token);
  const billId = String(bills.bills[0].billId);
  await signInOverHttp(page, user.userName, user.password);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await page.goto(`/g/home/userCenter/Invoices/Add?step=confirm&billIds=${billId}`);
  await page.getByLabel("Remark").fill("Keep me too");
  // An optional field carries no required marker.
  await expect(page.getByLabel("Remark")).not.toHaveAttribute("required");

  // The other tab applies for the same bill first.
  await vueapi(
    request,
    "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade",
    {
      idempotencyKey: `e2e${Date.now()}${Math.random().toString(36).slice(2, 10)}`,
      billIds: [billId],
      titleId: String(title.titleId),
      invoiceType: "1",
      issuance: "2",
      email: user.email,
    },
    user.token,
  );

  await page.getByRole("button", { name: "Submit the application" }).click();
  const selection = page
    .getByRole("region", { name: "Selected bills" })
    .or(page.locator("section[aria-labelledby=confirm-bills]"));
  await expect(selection.getByRole("alert")).toHaveText("Only paid bills that are not invoiced yet can be invoiced.");
  await expect(page.getByLabel("Remark")).toHaveValue("Keep me too");
});
