import type { Page, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { createActiveUser, signInOverHttp, uniqueUser } from "./support.ts";

// SPEC §2 MyAccount/Update, §3 "card (only last 4 digits kept, handled by a card payment provider)",
// docs/decisions/007 "Saved card": the card is saved at the sandbox provider's hosted page; the portal
// shows only its brand, last 4 digits and expiry. Runs with JavaScript on and off.

const ACCOUNT = "/g/home/userCenter/MyAccount";
const CARD_PAGE = "/g/home/userCenter/MyAccount/Update";

async function freshUser(page: Page, testInfo: TestInfo, prefix: string) {
  const user = await createActiveUser(page.request, uniqueUser(testInfo, prefix));
  await signInOverHttp(page, user.userName, user.password);
  await expect(page).toHaveURL(/\/g\/home\/index/);
  return user;
}

/** From the card page, opens the provider's hosted page with the page's only button (Add / Replace). */
async function openProvider(page: Page, button: "Add a card" | "Replace the card") {
  await page.goto(CARD_PAGE);
  await page.getByRole("button", { name: button, exact: true }).click();
  await expect(page).toHaveURL(/\/sandbox-pay\/checkout\/cs_/);
  await expect(page.getByText("Save a card for BSN Portal. Nothing is charged now.")).toBeVisible();
}

async function fillCard(page: Page, card: { number: string; expiry: string; cvc?: string; name?: string }) {
  await page.getByLabel("Card number").fill(card.number);
  await page.getByLabel("Expiry (MM/YY)").fill(card.expiry);
  await page.getByLabel("CVC").fill(card.cvc ?? "123");
  await page.getByLabel("Name on card").fill(card.name ?? "Han Meimei");
  await page.getByRole("button", { name: "Save card", exact: true }).click();
}

/** Back on the card page after the provider: its answer, once the provider has given it. */
async function expectSetup(page: Page, status: string) {
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/MyAccount\/Update\?setup=cs_/);
  await expect(page.getByTestId("setup-status")).toHaveText(status, { timeout: 20_000 });
}

/**
 * The saved card as both pages show it: the card page (brand, last 4, expiry with the full year) and
 * My account (expiry MM/YY); never another card's digits.
 */
async function expectSavedCard(
  page: Page,
  card: { brand: string; last4: string; month: string; year: string; not: string },
) {
  const current = page.getByTestId("current-card");
  await expect(current).toContainText(`${card.brand} ending in ${card.last4}`);
  await expect(current).toContainText(`Expires ${card.month}/20${card.year}`);
  await expect(current).not.toContainText(card.not);
  await page.goto(ACCOUNT);
  const shown = page.getByTestId("card");
  await expect(shown).toContainText(card.brand);
  await expect(shown).toContainText(card.last4);
  await expect(shown).toContainText(`Expires ${card.month}/${card.year}`);
  await expect(shown).not.toContainText(card.not);
}

test("a card saved through the provider shows its brand, last 4 digits and expiry, never the number", async ({
  page,
}, testInfo) => {
  await freshUser(page, testInfo, "crd");
  await page.goto(ACCOUNT);
  await expect(page.getByTestId("card")).toHaveText("No card saved.");
  await page.getByRole("link", { name: "Add a card", exact: true }).click();
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/MyAccount\/Update$/);
  await expect(page.getByTestId("current-card")).toHaveText("No card saved yet.");

  await openProvider(page, "Add a card");
  await fillCard(page, { number: "4242 4242 4242 4242", expiry: "08/34" });
  await expectSetup(page, "Your card was saved.");
  await expect(page.getByRole("button", { name: "Replace the card", exact: true })).toBeVisible();
  await expectSavedCard(page, { brand: "Visa", last4: "4242", month: "08", year: "34", not: "4242 4242" });
  await expect(page.getByRole("link", { name: "Update card", exact: true })).toBeVisible();
  // Only the last 4 digits reach the portal: the full number is on none of its pages.
  expect(await page.content()).not.toContain("4242424242424242");
});

test("a declined card is not saved and the card saved before stays; a refused form keeps what was typed but the CVC", async ({
  page,
}, testInfo) => {
  await freshUser(page, testInfo, "dcc");
  await openProvider(page, "Add a card");
  await fillCard(page, { number: "5555 5555 5555 4444", expiry: "11/33" });
  await expectSetup(page, "Your card was saved.");
  await expect(page.getByTestId("current-card")).toContainText("Mastercard ending in 4444");

  await openProvider(page, "Replace the card");
  // The provider refuses the form (an expired card) and shows it again with what was typed, except the CVC.
  await fillCard(page, { number: "4000 0000 0000 0002", expiry: "01/20", cvc: "321", name: "Li Lei" });
  await expect(page.getByRole("alert").filter({ hasText: "This card has expired." })).toBeVisible();
  await expect(page.getByLabel("Expiry (MM/YY)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Card number")).toHaveValue("4000 0000 0000 0002");
  await expect(page.getByLabel("Expiry (MM/YY)")).toHaveValue("01/20");
  await expect(page.getByLabel("Name on card")).toHaveValue("Li Lei");
  await expect(page.getByLabel("CVC")).toHaveValue("");

  // With a valid expiry the card itself is declined: the provider sends the user back with the outcome.
  await page.getByLabel("Expiry (MM/YY)").fill("01/35");
  await page.getByLabel("CVC").fill("321");
  await page.getByRole("button", { name: "Save card", exact: true }).click();
  await expectSetup(page, "The card was declined and not saved.");
  await expectSavedCard(page, { brand: "Mastercard", last4: "4444", month: "11", year: "33", not: "0002" });
});

test("replacing the card: cancelling at the provider keeps the old one, saving another replaces it", async ({
  page,
}, testInfo) => {
  await freshUser(page, testInfo, "rpc");
  await openProvider(page, "Add a card");
  await fillCard(page, { number: "4242 4242 4242 4242", expiry: "05/32" });
  await expectSetup(page, "Your card was saved.");

  // The provider's page is where the replacement is confirmed: Cancel goes back without a change.
  await openProvider(page, "Replace the card");
  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  await expectSetup(page, "The card was not saved.");
  await expect(page.getByTestId("current-card")).toContainText("Visa ending in 4242");

  await openProvider(page, "Replace the card");
  await fillCard(page, { number: "5555 5555 5555 4444", expiry: "09/36" });
  await expectSetup(page, "Your card was saved.");
  await expectSavedCard(page, { brand: "Mastercard", last4: "4444", month: "09", year: "36", not: "Visa" });
});
