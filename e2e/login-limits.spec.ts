import type { APIRequestContext, Browser, Page, TestInfo } from "@playwright/test";
import { expect, ready, test } from "./fixtures.ts";
import { CAPTCHA, createActiveUser, fillLogin, logIn, passCaptcha, uniqueUser } from "./support.ts";

/**
 * Hardening 10, 11 and 16a in the browser, with JavaScript on and off (docs/decisions/021). The e2e server
 * has the real limits but leaves its own address 127.0.0.1 alone; these specs speak from addresses of their
 * own, named in X-Forwarded-For (which the server believes from loopback only).
 */

/** A private address no other spec uses (random, so that a retry starts afresh). */
function freshAddress(): string {
  const octet = () => 1 + Math.floor(Math.random() * 254);
  return `10.${octet()}.${octet()}.${octet()}`;
}

async function vueapi(request: APIRequestContext, from: string | null, path: string, data: object) {
  const res = await request.post(`/vueapi${path}`, { data, headers: from ? { "X-Forwarded-For": from } : {} });
  return { status: res.status(), body: (await res.json()) as { code: number; message: string; data: any } };
}

/** Spends the 10 login attempts a minute of `from`, on names of no account (each its own, so none locks). */
async function spendLogins(request: APIRequestContext, from: string) {
  for (let i = 0; i < 10; i++) {
    const { captchaKey } = (await vueapi(request, null, "/anon/captcha/create", {})).body.data;
    const res = await vueapi(request, from, "/main/user/login", {
      username: `nobody${i}x${from.replaceAll(".", "")}`,
      password: "Wrong12!@x",
      captchaKey,
      captcha: CAPTCHA,
    });
    expect(res.body.message).toBe("MSG_20006");
  }
}

test("too many logins from one address: the login form says so, in English and in Chinese", async ({
  page,
  request,
}) => {
  const from = freshAddress();
  await spendLogins(request, from);
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": from });
  await logIn(page, "demoperson", "Demo12!@pass");
  await expect(
    page.getByText("Too many attempts from your address in a short time. Please wait a few minutes and try again."),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins$/);
  await expect(page.getByLabel("Username or email")).toHaveValue("demoperson");

  await page.goto("/g/lang?lng=zh-CN&redirectTo=/g/main/Login/Logins");
  await page.getByLabel("用户名或邮箱").fill("demoperson");
  await page.getByLabel("密码", { exact: true }).fill("Demo12!@pass");
  await passCaptcha(page, CAPTCHA, "验证码");
  await page.getByRole("button", { name: "登录" }).click();
  await expect(page.getByText("您的地址在短时间内尝试次数过多，请等待几分钟后再试。")).toBeVisible();
});

test("too many captchas for one address: the login page shows the message where the image would be", async ({
  page,
  request,
}) => {
  const from = freshAddress();
  for (let i = 0; i < 30; i++) expect((await vueapi(request, from, "/anon/captcha/create", {})).status).toBe(200);
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": from });
  await page.goto("/g/main/Login/Logins");
  await expect(page.getByTestId("captcha-unavailable")).toHaveText(
    "Too many attempts from your address in a short time. Please wait a few minutes and try again.",
  );
  await expect(page.getByRole("img", { name: /Captcha image/ })).toHaveCount(0);
  // Another visitor gets a captcha: the image, or with JavaScript the proof-of-work, which may already be solved.
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": freshAddress() });
  await page.goto("/g/main/Login/Logins");
  await expect(page.getByTestId("captcha-unavailable")).toHaveCount(0);
  await expect(
    page
      .getByRole("img", { name: /Captcha image/ })
      .or(page.locator('[data-captcha-state="verified"]'))
      .first(),
  ).toBeVisible();
});

/** A second browser (its own cookies) at `from`, with the test's JavaScript setting. */
async function secondBrowser(browser: Browser, testInfo: TestInfo, from?: string): Promise<Page> {
  const javaScriptEnabled = testInfo.project.use.javaScriptEnabled !== false;
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    javaScriptEnabled,
    locale: "en-US",
    extraHTTPHeaders: from ? { "X-Forwarded-For": from } : {},
  });
  const page = await context.newPage();
  await page.goto("/g/main/Login/Logins");
  if (javaScriptEnabled) await ready(page);
  return page;
}

test("an attacker's failures lock only the attacker's address: the owner logs in from another", async ({
  page,
  request,
  browser,
}, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "own"));
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": freshAddress() });
  await page.goto("/g/main/Login/Logins");
  for (let attempt = 1; attempt <= 4; attempt++) {
    await fillLogin(page, user.userName, "Wrong12!@x");
    await expect(page.getByText("Wrong username or password.")).toBeVisible();
  }
  await fillLogin(page, user.userName, "Wrong12!@x");
  await expect(
    page.getByText(
      "Too many failed logins to this account from your address: logins from here are blocked for 15 minutes. Try again later or reset your password.",
    ),
  ).toBeVisible();

  const owner = await secondBrowser(browser, testInfo, freshAddress());
  await fillLogin(owner, user.userName, user.password);
  await expect(owner).toHaveURL(/\/g\/home\/index$/);
  await owner.context().close();
});

test("log out everywhere ends this session and the one in another browser", async ({
  page,
  request,
  browser,
}, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "lge"));
  const other = await secondBrowser(browser, testInfo);
  await fillLogin(other, user.userName, user.password);
  await expect(other).toHaveURL(/\/g\/home\/index$/);

  await logIn(page, user.userName, user.password);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await page.getByRole("link", { name: "Profile", exact: true }).click();
  await page.getByRole("link", { name: "Log out everywhere" }).click();
  await expect(
    page.getByText(
      "Do you want to end every session of this account, on all devices and browsers, including this one?",
    ),
  ).toBeVisible();
  await page.getByRole("button", { name: "Log out everywhere" }).click();
  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins$/);
  await expect(page.getByTestId("flash")).toContainText("You have logged out everywhere. Sessions ended: 2.");
  await page.goto("/g/home/index");
  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins$/);

  // The other browser's session has ended too: its next page says so and leaves the console.
  await other.goto("/g/home/index");
  await expect(other).toHaveURL(/\/g\/main\/index$/);
  await expect(other.getByTestId("flash")).toContainText("Your session has ended. Please log in again.");
  await other.context().close();
});
