import { expect, test } from "./fixtures.ts";
import { createActiveUser, mailsTo, PASSWORD, signInOverHttp, uniqueUser, waitForMail } from "./support.ts";

/*
 * SPEC §2 on a phone (issue 16): the public header collapses behind a menu button; the landing page's
 * "Create a free account" explains the desktop requirement; the desktop-only page has the logo, the language
 * switch, Log in or Log out and "Mail me a link for my desktop" (a POST that mails the page's link).
 */
test.use({
  viewport: { width: 390, height: 844 },
  userAgent:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
});

test("on a phone the header's links are behind the menu button; registering is explained and mailed for a desktop", async ({
  page,
}, testInfo) => {
  await page.goto("/g/main/index");
  const menu = page.getByTestId("mobile-menu");
  await expect(page.getByRole("link", { name: "Documentation", exact: true })).toBeHidden();
  await menu.getByText("Menu").click();
  await expect(menu.getByRole("link", { name: "Documentation", exact: true })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Log in" })).toBeVisible();
  await expect(menu.getByRole("navigation", { name: "Language" })).toBeVisible();
  await menu.getByText("Menu").click();

  const register = page.getByTestId("mobile-register");
  await expect(register).toContainText("The console is made for desktop computers");
  const address = `${uniqueUser(testInfo, "mob")}@example.com`;
  await register.getByLabel("Your email address").fill(address);
  await register.getByRole("button", { name: "Mail me a link for my desktop" }).click();
  await expect(page.getByTestId("flash")).toHaveText(
    `We sent a link to this page to ${address}. Open it on a desktop computer.`,
  );
  const mail = await waitForMail(address, /\/g\/main\/register/);
  expect(mail.text).toMatch(/https?:\/\/[^\s]+\/g\/main\/register\b/);
});

test("a console page on a phone is the desktop-only page: language, log in, a mailed link; bad addresses are refused", async ({
  page,
}, testInfo) => {
  await page.goto("/g/main/register");
  const only = page.getByTestId("desktop-only");
  await expect(only.getByRole("heading", { name: "Please use a desktop browser" })).toBeVisible();
  await expect(only.getByRole("link", { name: "BSN Portal" })).toBeVisible();
  await expect(only.getByRole("navigation", { name: "Language" })).toBeVisible();
  await expect(only.getByRole("link", { name: "Log in" })).toBeVisible();

  await only.getByLabel("Your email address").fill("not-an-address");
  // The browser's own check stops an obvious typo with JavaScript and without; the server checks again.
  await only
    .getByLabel("Your email address")
    .evaluate((el) => el.removeAttribute("type"))
    .catch(() => undefined);
  if (testInfo.project.use.javaScriptEnabled !== false) {
    await only.getByRole("button", { name: "Mail me a link for my desktop" }).click();
    await expect(page.getByTestId("flash")).toHaveText("Enter a valid email address.");
  }
  const address = `${uniqueUser(testInfo, "mdl")}@example.com`;
  const before = mailsTo(address).length;
  await only.getByLabel("Your email address").fill(address);
  await only.getByRole("button", { name: "Mail me a link for my desktop" }).click();
  await expect(page).toHaveURL(/\/g\/main\/register$/);
  await expect(page.getByTestId("flash")).toContainText(address);
  await waitForMail(address, /\/g\/main\/register/, before);

  await only.getByRole("link", { name: "中文" }).click();
  await expect(
    page.getByTestId("desktop-only").getByRole("button", { name: "把电脑端链接发到我的邮箱" }),
  ).toBeVisible();
});

test("signed in on a phone, the desktop-only page offers Log out", async ({ page, request }, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "mlo"));
  await signInOverHttp(page, user.userName, PASSWORD);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  const only = page.getByTestId("desktop-only");
  await expect(only).toBeVisible();
  await only.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins$/);
  await page.goto("/g/home/index");
  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins/);
});
