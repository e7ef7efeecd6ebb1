import { expect, test } from "./fixtures.ts";
import { createActiveUser, fillLogin, imageCaptchaOnly, logIn, uniqueUser } from "./support.ts";

test("a wrong captcha is refused and the username is kept", async ({ page, request }, testInfo) => {
  // The image captcha, also with JavaScript: as when the proof-of-work's worker cannot run (docs/decisions/061).
  await imageCaptchaOnly(page);
  const user = await createActiveUser(request, uniqueUser(testInfo, "cap"));
  await logIn(page, user.userName, user.password, "WRONG");
  await expect(page.getByText("The captcha is wrong. Please enter the new one.")).toBeVisible();
  await expect(page.getByLabel("Username or email")).toHaveValue(user.userName);
  await expect(page.getByLabel("Captcha", { exact: true })).toHaveValue("");
  // The next attempt with a fresh captcha works.
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Captcha", { exact: true }).fill("E2E1");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/g\/home\/index$/);
});

test("five wrong passwords lock this address out of the account for 15 minutes", async ({
  page,
  request,
}, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "lock"));
  await page.goto("/g/main/Login/Logins");
  for (let attempt = 1; attempt <= 4; attempt++) {
    await fillLogin(page, user.userName, "Wrong12!@x");
    await expect(page.getByText("Wrong username or password.")).toBeVisible();
  }
  await fillLogin(page, user.userName, "Wrong12!@x");
  await expect(page.getByText(/Too many failed logins to this account from your address/)).toBeVisible();
  // Even the right password is refused from this address while it is locked (another address: login-limits.spec.ts).
  await fillLogin(page, user.userName, user.password);
  await expect(page.getByText(/Too many failed logins to this account from your address/)).toBeVisible();
  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins$/);
});

test("an unknown login name gets the same message as a wrong password; the email works as login name", async ({
  page,
  request,
}, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "mail"));
  await logIn(page, "nobodyhere99", user.password);
  await expect(page.getByText("Wrong username or password.")).toBeVisible();
  await fillLogin(page, user.email, user.password);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
});
