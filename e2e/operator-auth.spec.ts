import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures.ts";
import { api, apiToken, logInAs, OPERATOR, publisherWithService } from "./services-support.ts";
import { createActiveUser, giveSecondFactor, logIn, PASSWORD, settled, uniqueUser } from "./support.ts";
import { stepOf, totpAt } from "../tests/support/second-factor.ts";

// docs/decisions/022: operators enrol a TOTP authenticator before any operations page works, then log in
// with the password and a code (or a recovery code); every decision lands in the audit log, which
// operators filter and export as CSV. Runs with JavaScript on and off.

test("a new operator enrols, saves the recovery codes, then logs in with a code and with a recovery code", async ({
  page,
  request,
}, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "op"));
  await api(request, "/test/accounts/operator", {}, await apiToken(request, user.userName));

  await logIn(page, user.userName, PASSWORD);
  await expect(page).toHaveURL(/\/g\/main\/Login\/TwoFactorSetup$/);
  await expect(page.getByRole("heading", { name: "Set up two-step verification" })).toBeVisible();
  // Nothing of the console works before the second factor: back to the enrolment.
  await page.goto("/g/home/operations/AuditLog");
  await expect(page).toHaveURL(/\/g\/main\/Login\/TwoFactorSetup$/);
  await expect(
    page.getByRole("img", { name: `QR code of the two-step verification key of ${user.userName}` }),
  ).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").getAttribute("data-secret"))!;
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.getByTestId("totp-secret")).toHaveText(secret.match(/.{4}/g)!.join(" "));

  await page.getByLabel("Code from the app").fill(totpAt(secret, stepOf(Date.now()) + 5));
  await page.getByRole("button", { name: "Turn on two-step verification" }).click();
  await expect(page.getByText("That code is not right.")).toBeVisible();
  await settled(page);
  await page.getByLabel("Code from the app").fill(totpAt(secret, stepOf(Date.now())));
  await page.getByRole("button", { name: "Turn on two-step verification" }).click();
  await expect(page.getByRole("heading", { name: "Save your recovery codes" })).toBeVisible();
  const codes = await page.getByTestId("recovery-codes").locator("li").allInnerTexts();
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
  await page.getByRole("link", { name: "I have saved them: continue" }).click();
  await expect(page).toHaveURL(/\/g\/home\/operations\/AuditLog$/);
  // Other operators' decisions land in the same log meanwhile: this operator's newest entry is the enrolment.
  await expect(page.getByTestId("audit-entry").filter({ hasText: user.userName }).first()).toContainText(
    "Two-step verification setup",
  );

  // Next login: password, then a code of the app.
  await page.context().clearCookies();
  await logIn(page, user.userName, PASSWORD);
  await expect(
    page.getByText(`Enter the 6-digit code that your authenticator app shows for ${user.userName}`),
  ).toBeVisible();
  await giveSecondFactor(page, secret);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await expect(page.getByTestId("flash")).toHaveText("Two-step verification passed. Welcome back.");

  // And with a recovery code instead, which then is spent.
  await page.context().clearCookies();
  await logIn(page, user.userName, PASSWORD);
  await settled(page);
  await page.getByLabel("Authentication code").fill(codes[0].toUpperCase());
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await expect(page.getByTestId("flash")).toHaveText(
    "You logged in with a recovery code. It cannot be used again; 9 recovery codes are left.",
  );
  await page.context().clearCookies();
  await logIn(page, user.userName, PASSWORD);
  await settled(page);
  await page.getByLabel("Authentication code").fill(codes[0]);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("That code is not right.")).toBeVisible();
  await expect(page.getByLabel("Authentication code")).toHaveValue(codes[0]);
  // Giving up ends the half-open login.
  await page.getByRole("button", { name: "Cancel and log out" }).click();
  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins$/);
  await page.goto("/g/home/index");
  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins$/);
});

test("operators filter the audit log and download it as CSV, formulas neutralised", async ({
  page,
  request,
}, testInfo) => {
  const pub = await publisherWithService(request, "aud", testInfo, { verState: 25, tps: 10, nodeCount: 1 });
  const comments = '=HYPERLINK("http://evil.example","spam") reported';
  await api(
    request,
    "/sys/ops/services/decide",
    { appVerId: pub.appVerId, decision: "suspend", comments },
    await apiToken(request, OPERATOR.userName, OPERATOR.password),
  );

  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/operations");
  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page).toHaveURL(/\/g\/home\/operations\/AuditLog$/);
  await page.getByLabel("Operator (username)").fill(OPERATOR.userName);
  await page.getByLabel("Action").selectOption({ label: "Suspend or enable a service" });
  await page.getByLabel("Target ID or number").fill(String(pub.appVerId));
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(
    new RegExp(`actor=demooperator&action=service.suspension&targetType=&targetId=${pub.appVerId}`),
  );
  const rows = page.getByTestId("audit-entry");
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId("audit-decision")).toHaveText("Suspended");
  await expect(rows.first().getByTestId("audit-target")).toHaveText(`Service version ${pub.appVerId}`);
  await expect(rows.first()).toContainText(comments);
  await expect(rows.first()).toContainText('outcome: {"verState":40}');

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("audit-export").click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, "utf8").replace(/^\uFEFF/, "");
  const lines = csv.trim().split("\r\n");
  expect(lines[0]).toBe(
    'Entry,"Time (UTC, ISO 8601)",Operator,Action,Target,Target ID,Decision,Comments,Details,Client IP,Path',
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(
    `,demooperator,Suspend or enable a service,Service version,${pub.appVerId},Suspended,"'=HYPERLINK(""http://evil.example"",""spam"") reported",`,
  );
  expect(lines[1]).toMatch(/,127\.0\.0\.1,\/sys\/ops\/services\/decide$/);

  // A day range with nothing in it.
  const tomorrow = new Date(Date.now() + 8 * 3600_000 + 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("From (UTC+8)").fill(tomorrow);
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page.getByTestId("audit-empty")).toHaveText("No entries match these filters.");
  // The export itself is in the log.
  await page.goto("/g/home/operations/AuditLog?action=audit.export&actor=demooperator");
  await expect(page.getByTestId("audit-entry").first().getByTestId("audit-action")).toHaveText("Audit log export");
});
