import { expect, test } from "./fixtures.ts";
import { activationLink, fillLogin, passCaptcha, PASSWORD, uniqueUser, waitForMail } from "./support.ts";

// Issue "Foundation" §7: register → read the activation mail → activate → log in → a protected deep link
// restored after login → switch to Chinese → log out with confirmation. Runs with JavaScript on and off.
test("a newcomer registers, activates, logs in, switches language and logs out", async ({ page }, testInfo) => {
  const userName = uniqueUser(testInfo, "new");
  const email = `${userName}@example.com`;

  await page.goto("/");
  await expect(page).toHaveURL(/\/g\/main\/index$/);
  await expect(page.getByRole("heading", { name: "City nodes", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Register", exact: true }).first().click();

  await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();
  await page.getByLabel("Username").fill(userName);
  // A name in Latin letters (docs/decisions/056).
  await page.getByLabel("Real name").fill("Zoë O'Neill-Åberg");
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm the password").fill(PASSWORD);
  await page.getByLabel("Email").fill(email);
  await passCaptcha(page);
  await page.getByLabel(/service agreement/).check();
  await page.getByLabel(/privacy statement/).check();
  await page.getByRole("button", { name: "Register" }).click();

  await expect(page.getByTestId("activation-sent")).toContainText(email);
  const mail = await waitForMail(email, /UserActivation/);
  await page.goto(activationLink(mail));
  await page.getByRole("button", { name: "Activate my account" }).click();
  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins/);
  await expect(page.getByTestId("flash")).toContainText(`The account ${userName} is active`);

  // A protected deep link sends the visitor to login and is restored afterwards.
  await page.goto("/g/home/userCenter/MessageCenter?status=unread");
  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins$/);
  await fillLogin(page, userName, PASSWORD);
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/MessageCenter\?status=unread$/);
  await expect(page.getByTestId("message").first()).toContainText(
    `Welcome to the blockchain service network, ${userName}`,
  );

  // A logged-in user visiting login goes to the console.
  await page.goto("/g/main/Login/Logins");
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await expect(page.getByTestId("summary-username")).toHaveText(userName);

  // Chinese, kept across pages, dates in YYYY-MM-DD.
  await page.getByRole("link", { name: "中文" }).first().click();
  await expect(page.getByRole("heading", { name: "账户概况" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  // The usage table's days (behind the sparkline with JavaScript); its header names the zone once.
  await expect(page.getByTestId("dash-usage-table")).toContainText(/\d{4}-\d{2}-\d{2}/);
  await expect(page.getByTestId("dash-usage-table").locator("thead")).toContainText("UTC+8");
  await page.getByRole("link", { name: "修改密码" }).first().click();
  await expect(page.getByRole("heading", { name: "修改密码" })).toBeVisible();
  await page.getByRole("link", { name: "English", exact: true }).first().click();
  await expect(page.getByRole("heading", { name: "Change password" })).toBeVisible();

  // Log out asks "Do you want to exit the system?".
  await page.getByRole("link", { name: "Profile", exact: true }).click();
  await page.getByRole("link", { name: "Log out", exact: true }).click();
  await expect(page.getByText("Do you want to exit the system?")).toBeVisible();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins$/);
  await expect(page.getByTestId("flash")).toContainText("You have logged out.");

  // The session is gone: the console asks for login again.
  await page.goto("/g/home/index");
  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins$/);
});

test("an enterprise registers with its licence; bad input is explained and nothing typed is lost", async ({
  page,
}, testInfo) => {
  const userName = uniqueUser(testInfo, "ent");
  await page.goto("/g/main/register?type=enterprise");
  await page.getByLabel("Username").fill("1bad");
  await page.getByLabel("Real name").fill("Alice 张");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByLabel("Confirm the password").fill("other");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Company name").fill("Example Chain Ltd");
  await page.getByLabel("Unified credit code").fill("1234567");
  await page.getByRole("button", { name: "Register" }).click();

  await expect(page.getByText("6-25 letters and digits, starting with a letter.").first()).toBeVisible();
  await expect(
    page.getByText(
      "Enter your real name as on your ID: in Chinese characters (at most 6), e.g. 张伟, or in Latin letters",
      {
        exact: false,
      },
    ),
  ).toBeVisible();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  await expect(page.getByText("The unified credit code has 8 to 18 letters and digits.")).toBeVisible();
  await expect(page.getByText("Please accept the service agreement.")).toBeVisible();
  // What was typed is still there.
  await expect(page.getByLabel("Company name")).toHaveValue("Example Chain Ltd");
  await expect(page.getByLabel("Username")).toHaveValue("1bad");

  await page.getByLabel("Username").fill(userName);
  await page.getByLabel("Real name").fill("韩梅梅");
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm the password").fill(PASSWORD);
  await page.getByLabel("Email").fill(`${userName}@example.com`);
  await page.getByLabel("Unified credit code").fill("91110000MA01ABCDEX");
  await page.getByLabel("Company address").fill("1 Chang'an Avenue, Beijing");
  await page.getByLabel("Contact name").fill("Han Meimei");
  await page.getByLabel("Country or region").fill("China");
  // A 1x1 PNG.
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  );
  await page.getByLabel("Business licence").setInputFiles({ name: "licence.png", mimeType: "image/png", buffer: png });
  await passCaptcha(page);
  await page.getByLabel(/service agreement/).check();
  await page.getByLabel(/privacy statement/).check();
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByTestId("activation-sent")).toContainText(`${userName}@example.com`);
});
