import { expect, test } from "./fixtures.ts";
import { createActiveUser, fillLogin, mailsTo, passCaptcha, uniqueUser, waitForMail } from "./support.ts";

test("a forgotten password is reset with the mailed code", async ({ page, request }, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "fgt"));
  const newPassword = "Nw93!@pq";
  await page.goto("/g/main/Login/Logins");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  const before = mailsTo(user.email).length;
  await page.getByLabel("Username, email or mobile number").fill(user.userName);
  await passCaptcha(page);
  await page.getByRole("button", { name: "Send the code" }).click();
  await expect(page).toHaveURL(/\/g\/main\/Login\/forgetTwo\?phone=.+&retrieveWay=email/);
  await expect(page.getByTestId("flash")).toContainText("A verification code was sent");

  const mail = await waitForMail(user.email, /\b\d{6}\b/, before);
  const code = mail.text.match(/\b(\d{6})\b/)![1];
  const wrong = code === "000000" ? "111111" : "000000";
  await page.getByLabel("Verification code").fill(wrong);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("The verification code is wrong or has expired.")).toBeVisible();
  await page.getByLabel("Verification code").fill(code);
  await page.getByRole("button", { name: "Continue" }).click();

  await expect(page).toHaveURL(/\/g\/main\/Login\/SetPassWord\?/);
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm the new password").fill("Nw93!@pz");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.getByText("The two passwords do not match.")).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm the new password").fill(newPassword);
  await page.getByRole("button", { name: "Save the new password" }).click();

  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins$/);
  await expect(page.getByTestId("flash")).toContainText("Your password was changed");
  await fillLogin(page, user.userName, user.password);
  await expect(page.getByText("Wrong username or password.")).toBeVisible();
  await fillLogin(page, user.userName, newPassword);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
});
