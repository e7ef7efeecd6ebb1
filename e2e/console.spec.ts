import { expect, test } from "./fixtures.ts";
import { api, apiToken, logInAs } from "./services-support.ts";
import { createActiveUser, PASSWORD, uniqueUser } from "./support.ts";

/*
 * The console's shared patterns (issue 16, docs/decisions/027), with JavaScript on and off: a blocked action
 * explained before and after the click and "Pay and continue" back into it; pagination; Pay all.
 */

const PUBLISHED = "/g/home/PermissionedServices/PublishedServices";

async function userWithBills(
  request: Parameters<typeof apiToken>[0],
  testInfo: Parameters<typeof uniqueUser>[0],
  prefix: string,
  fixtures: unknown,
) {
  const user = await createActiveUser(request, uniqueUser(testInfo, prefix));
  const token = await apiToken(request, user.userName);
  await api(request, "/test/fixtures", fixtures, token);
  return user;
}

test("a blocked 'Create a new service' says why before the click; Pay and continue pays the bill and opens the wizard", async ({
  page,
  request,
}, testInfo) => {
  const user = await userWithBills(request, testInfo, "blk", {
    grantCents: 1_000,
    bills: [{ billType: 3, cycle: 99, totalCents: 300 }],
  });
  await logInAs(page, user.userName, PASSWORD);
  await page.goto(PUBLISHED);
  const entry = page.getByTestId("blocked-entry").first();
  await expect(entry).toContainText("Create a new service");
  await expect(entry).toContainText("Blocked by 1 unpaid bill ($3.00).");
  await entry.getByRole("link", { name: "See and pay" }).click();

  await expect(page).toHaveURL(/\/g\/home\/index\?blocked=newService/);
  const panel = page.getByTestId("blocked-panel");
  await expect(panel.getByRole("heading")).toHaveText("“Create a new service” is blocked by unpaid bills");
  const bill = panel.getByTestId("due-bills").locator("tbody tr");
  await expect(bill).toHaveCount(1);
  await expect(bill).toContainText(/^FX/);
  await expect(bill).toContainText("Data traffic");
  await expect(bill).toContainText("$3.00");
  await expect(panel.getByRole("columnheader", { name: "Deadline (UTC+8)" })).toBeVisible();
  await expect(bill).not.toContainText("UTC+8");
  await expect(panel.getByTestId("blocked-balance")).toHaveText("Your balance: $10.00.");
  await panel.getByRole("button", { name: "Pay $3.00 and continue" }).click();

  await expect(page).toHaveURL(/NewServices\?appState=add/);
  await expect(page.getByTestId("wizard-step")).toHaveText("Basic information");
  // The flash says what was paid, with JavaScript and without.
  await expect(page.getByTestId("flash")).toHaveText("$3.00 paid from your balance.");
  await page.goto(PUBLISHED);
  await expect(page.getByTestId("blocked-entry")).toHaveCount(0);
});

test("the wizard's guard sends home to the panel naming the bill; a forged way back is dropped", async ({
  page,
  request,
}, testInfo) => {
  const user = await userWithBills(request, testInfo, "blw", {
    grantCents: 100,
    bills: [{ billType: 3, cycle: 99, totalCents: 300 }],
  });
  await logInAs(page, user.userName, PASSWORD);
  await page.goto(`${PUBLISHED}/NewServices?appState=add`);
  await expect(page).toHaveURL(/\/g\/home\/index\?blocked=newService&returnTo=/);
  await expect(page.getByTestId("flash")).toHaveText("You have unpaid bills. Please pay them before you continue.");
  const panel = page.getByTestId("blocked-panel");
  await expect(panel).toContainText("$3.00");
  // The balance ($1.00) does not cover it: the payment is refused, nothing is paid, Recharge is offered.
  await panel.getByRole("button", { name: "Pay $3.00 and continue" }).click();
  await expect(page.getByTestId("pay-error")).toContainText("Recharge your balance");
  await expect(page.getByTestId("blocked-panel").getByTestId("due-bills").locator("tbody tr")).toHaveCount(1);

  await page.goto("/g/home/index?blocked=newService&returnTo=https%3A%2F%2Fevil.example%2F");
  await expect(page.getByTestId("blocked-panel")).toBeVisible();
  await expect(page.locator('input[name="returnTo"]')).toHaveCount(0);
});

test("My bills pages with numbers, ellipses and a page size, keeping the filter", async ({
  page,
  request,
}, testInfo) => {
  const bills = Array.from({ length: 55 }, (_, i) => ({
    billType: 1,
    serviceName: `Paged ${i + 1}`,
    totalCents: 100 + i,
    payState: 10,
  }));
  const user = await userWithBills(request, testInfo, "pag", { bills: bills.slice(0, 50) });
  await api(request, "/test/fixtures", { bills: bills.slice(50) }, await apiToken(request, user.userName));
  await logInAs(page, user.userName, PASSWORD);
  await page.goto("/g/home/userCenter/MyBills?payState=10");
  const rows = page.getByTestId("bill-row");
  await expect(rows).toHaveCount(10);
  const nav = page.getByTestId("pagination");
  await expect(nav).toContainText("Page 1 of 6 · 55 in all");
  await expect(nav).toContainText("…");
  await expect(nav.getByRole("link", { name: "Page 6" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Created (UTC+8)" })).toBeVisible();
  await expect(rows.first()).not.toContainText("UTC+8");

  await nav.getByRole("link", { name: "Page 6" }).click();
  await expect(page).toHaveURL(/payState=10/);
  await expect(rows).toHaveCount(5);
  await expect(page.getByTestId("pagination").locator('[aria-current="page"]')).toHaveText("6");

  await page.getByLabel("Rows per page").selectOption("50");
  await page.getByTestId("page-size").getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/pageSize=50/);
  await expect(page).toHaveURL(/payState=10/);
  await expect(page).not.toHaveURL(/page=6/);
  await expect(rows).toHaveCount(50);
  await expect(page.getByTestId("pagination")).toContainText("Page 1 of 2 · 55 in all");

  // A page size the list does not offer falls back to 10, never an error.
  const odd = await page.goto("/g/home/userCenter/MyBills?pageSize=999999");
  expect(odd?.status()).toBe(200);
  await expect(rows).toHaveCount(10);
});

test("My bills shows the total due; Pay all asks first, pays every bill once", async ({ page, request }, testInfo) => {
  const user = await userWithBills(request, testInfo, "pal", {
    grantCents: 2_000,
    bills: [
      { billType: 3, cycle: 99, totalCents: 300 },
      { billType: 1, totalCents: 250 },
      { billType: 1, totalCents: 999, payState: 10 },
    ],
  });
  await logInAs(page, user.userName, PASSWORD);
  await page.goto("/g/home/userCenter/MyBills");
  const due = page.getByTestId("bills-due");
  await expect(due.getByTestId("bills-due-total")).toHaveText("2 unpaid bills · $5.50 due");
  await due.getByRole("link", { name: "Pay all" }).click();
  await expect(page).toHaveURL(/confirm=payAll/);
  await expect(due).toContainText("2 bills, $5.50 in all, will be paid from your balance.");
  await expect(due.getByTestId("pay-all-balance")).toHaveText("Your balance: $20.00");
  await due.getByRole("button", { name: "Pay all" }).click();

  await expect(page.getByTestId("flash")).toHaveText("$5.50 paid from your balance.");
  await expect(page).not.toHaveURL(/confirm=payAll/);
  await expect(page.getByTestId("bills-due")).toHaveCount(0);
  await page.goto("/g/home/userCenter/MyAccount");
  await expect(page.getByTestId("balance")).toHaveText("$14.50");
});

test("an unpaid bill blocks a new product (SPEC §5): My products says why; Pay and continue opens the product form", async ({
  page,
  request,
}, testInfo) => {
  const user = await userWithBills(request, testInfo, "blp", {
    grantCents: 1_000,
    bills: [{ billType: 3, cycle: 99, totalCents: 300 }],
  });
  await logInAs(page, user.userName, PASSWORD);
  await page.goto("/g/home/AppStore/MyProducts");
  const entry = page.getByTestId("blocked-entry");
  await expect(entry).toContainText("New product");
  await expect(entry).toContainText("Blocked by 1 unpaid bill ($3.00).");
  // The form's own address is guarded too (SPEC §7: a refused h5isHasNoPayBillV2 goes home).
  await page.goto("/g/home/AppStore/ProductEdit");
  await expect(page).toHaveURL(/\/g\/home\/index\?blocked=newProduct&returnTo=/);
  const panel = page.getByTestId("blocked-panel");
  await expect(panel.getByRole("heading")).toHaveText("“Create a product” is blocked by unpaid bills");
  await panel.getByRole("button", { name: "Pay $3.00 and continue" }).click();
  await expect(page).toHaveURL(/\/g\/home\/AppStore\/ProductEdit$/);
  await expect(page.getByRole("heading", { name: "New product" })).toBeVisible();
  await page.goto("/g/home/AppStore/MyProducts");
  await expect(page.getByTestId("blocked-entry")).toHaveCount(0);
});
