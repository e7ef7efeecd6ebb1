import { expect, test } from "./fixtures.ts";
import { api } from "./services-support.ts";
import { CAPTCHA, createActiveUser, PASSWORD, signInOverHttp, uniqueUser } from "./support.ts";

// SPEC §2 MessageCenter: read and unread messages, mark one or all read, the unread count in the top bar.
test("messages are marked read one by one or all at once, and the top bar's count follows", async ({
  page,
  request,
}, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "msg"));
  // Two more messages besides the welcome: paying two bills each sends one.
  const { captchaKey } = await api(request, "/anon/captcha/create", {});
  const { token } = await api(request, "/main/user/login", {
    username: user.userName,
    password: PASSWORD,
    captchaKey,
    captcha: CAPTCHA,
  });
  const made = await api(
    request,
    "/test/fixtures",
    { grantCents: 1_000, bills: [{ totalCents: 100 }, { totalCents: 200 }] },
    token,
  );
  for (const [i, billId] of (made.billIds as number[]).entries()) {
    await api(
      request,
      "/sys/system/clientInfo/h5billPay",
      { billId, idempotencyKey: `msg-${i}-${user.userName}`.padEnd(20, "0").slice(0, 60) },
      token,
    );
  }

  await signInOverHttp(page, user.userName, PASSWORD);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await expect(page.getByTestId("unread-count")).toContainText("3");
  await page.goto("/g/home/userCenter/MessageCenter?status=unread");
  await expect(page.getByTestId("message")).toHaveCount(3);
  await page.getByRole("button", { name: "Mark as read" }).first().click();
  await expect(page.getByTestId("message")).toHaveCount(2);
  await expect(page.getByTestId("unread-count")).toContainText("2");
  await page.getByRole("button", { name: "Mark all as read" }).click();
  await expect(page.getByText("No relevant data")).toBeVisible();
  await expect(page.getByTestId("unread-count")).toHaveCount(0);
  await page.goto("/g/home/userCenter/MessageCenter?status=read");
  await expect(page.getByTestId("message")).toHaveCount(3);
});

// Issue 16: each message links to what it is about (a typed reference); one without a reference (the
// welcome) has no link.
test("a message links to the bill it is about; the welcome links to nothing", async ({ page, request }, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "mln"));
  const { captchaKey } = await api(request, "/anon/captcha/create", {});
  const { token } = await api(request, "/main/user/login", {
    username: user.userName,
    password: PASSWORD,
    captchaKey,
    captcha: CAPTCHA,
  });
  const made = await api(request, "/test/fixtures", { grantCents: 1_000, bills: [{ totalCents: 150 }] }, token);
  const billId = (made.billIds as number[])[0];
  await api(
    request,
    "/sys/system/clientInfo/h5billPay",
    { billId, idempotencyKey: `mln-${user.userName}`.padEnd(20, "0").slice(0, 60) },
    token,
  );

  await signInOverHttp(page, user.userName, PASSWORD);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  await page.goto("/g/home/userCenter/MessageCenter");
  const paid = page.getByTestId("message").filter({ hasText: "$1.50" });
  await expect(paid).toHaveCount(1);
  const welcome = page.getByTestId("message").filter({ hasNotText: "$1.50" });
  await expect(welcome).toHaveCount(1);
  await expect(welcome.getByTestId("message-link")).toHaveCount(0);
  await paid.getByRole("link", { name: "Open the bill" }).click();
  await expect(page).toHaveURL(new RegExp(`/g/home/userCenter/BillDetail\\?billId=${billId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/FX/);
});
