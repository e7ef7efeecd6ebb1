import { expect, test } from "./fixtures.ts";
import { logIn } from "./support.ts";

test("unknown paths go to the landing page; /home paths need a login", async ({ page }) => {
  await page.goto("/no/such/page");
  await expect(page).toHaveURL(/\/g\/main\/index$/);
  await page.goto("/g/home/no-such-page");
  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins$/);
});

test("the demo operator logs in and changes nothing it should not", async ({ page }) => {
  await logIn(page, "demooperator", "Demo12!@pass");
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  // An operator's landing is their queues (issue 30 item 4), not a customer's summary.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Operations, /);
  await expect(page.getByTestId("ops-group-reviews")).toBeVisible();
});

test("change password checks every rule on the server", async ({ page }) => {
  await logIn(page, "demoperson", "Demo12!@pass");
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await page.goto("/g/home/userCenter/ChangePassword");
  await page.getByLabel("Old password").fill("Demo12!@pass");
  await page.getByLabel("New password", { exact: true }).fill("demoperson12!@");
  await page.getByLabel("Confirm the new password").fill("demoperson12!@");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("The password must not contain your username.")).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("Zx1234!@");
  await page.getByLabel("Confirm the new password").fill("Zx1234!@");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("The password must not contain a keyboard sequence such as 1234 or qwer.")).toBeVisible();
  await page.getByLabel("Old password").fill("Wrong12!@x");
  await page.getByLabel("New password", { exact: true }).fill("Nw93!@pq");
  await page.getByLabel("Confirm the new password").fill("Nw93!@pq");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("The old password is wrong.")).toBeVisible();
});

test.describe("on a phone", () => {
  test.use({ userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148" });
  test("only the mobile pages open; others ask for a desktop", async ({ page }) => {
    await page.goto("/g/main/index");
    await expect(page.getByRole("heading", { name: "City nodes", exact: true })).toBeVisible();
    await page.goto("/g/main/register");
    await expect(page.getByRole("heading", { name: "Please use a desktop browser" })).toBeVisible();
    await page.goto("/g/main/Login/Logins");
    await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  });
});
