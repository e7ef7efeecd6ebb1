import { expect, ready, test } from "./fixtures.ts";
import { api, apiToken, FIXTURE_BOOKING, logInAs, OPERATOR } from "./services-support.ts";
import { createActiveUser, PASSWORD, uniqueUser } from "./support.ts";
import { basicInfo, logInAs as logInWith, PNG, wizardApi } from "./wizard-support.ts";

// Issue 16 (docs/decisions/029): the overview's figures, drafts in Published services resumed from another
// device and deleted after a confirm step, and the operators' waiting items; JavaScript on and off.

const usd = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);

test("the overview shows the account's balance, amount due, services by status and 7-day traffic", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "ovw"));
  const token = await apiToken(request, user.userName);
  await api(
    request,
    "/test/fixtures",
    {
      grantCents: 60_000,
      bills: [{ totalCents: 1_234, cycle: 99 }, { totalCents: 2_500 }, { totalCents: 900, payState: 15 }],
      usage: { days: 10, mbPerDay: 1536 },
    },
    token,
  );
  for (const verState of [25, 5, 23]) await api(request, "/test/services", { verState, ...FIXTURE_BOOKING }, token);

  // The account's real data, each from its own page's path.
  const account = await api(request, "/sys/account/summary", {}, token);
  const due = await api(request, "/sys/system/clientInfo/h5billDue", {}, token);
  const usage = await api(request, "/sys/account/usage30", {}, token);
  const last7 = usage.days
    .slice(-7)
    .map((_: string, i: number) =>
      usage.nodes.reduce((s: number, n: { gb: number[] }) => s + n.gb[usage.days.length - 7 + i], 0),
    );

  await logInAs(page, user.userName, PASSWORD);
  await expect(page.getByTestId("dash-balance")).toHaveText(usd(account.balanceCents));
  await expect(page.getByTestId("dash-due")).toHaveText(usd(due.payableCents));
  await expect(page.getByTestId("dash-due-hint")).toContainText(`${due.count} bills · next deadline`);
  await expect(page.getByTestId("dash-services-running")).toHaveText("1");
  await expect(page.getByTestId("dash-services-inReview")).toHaveText("1");
  await expect(page.getByTestId("dash-services-actionNeeded")).toHaveText("1");
  await expect(page.getByTestId("dash-services-drafts")).toHaveText("0");
  await expect(page.getByTestId("dash-usage-total")).toHaveText(
    `${last7.reduce((a: number, b: number) => a + b, 0).toFixed(2)} GB in total`,
  );
  if (javaScriptEnabled) {
    await expect(page.getByTestId("dash-usage-chart")).toBeVisible();
    await page.getByText("Show as a table").click();
  }
  await expect(page.getByTestId("dash-usage-table").locator("tbody tr")).toHaveCount(7);
  await expect(page.getByTestId("dash-queues")).toHaveCount(0);
  // The unpaid traffic bill blocks a new service, and the shortcut says so before the click.
  await expect(page.getByTestId("blocked-entry")).toContainText("Publish a service");
});

test("a draft is listed in Published services, resumed from a second device and deleted after confirming", async ({
  page,
  request,
  browser,
  javaScriptEnabled,
}, testInfo) => {
  const js = javaScriptEnabled !== false;
  const user = await createActiveUser(request, uniqueUser(testInfo, "drf"));
  const wizard = await wizardApi(request, user.userName);
  const info = basicInfo(user.userName, "Draft");
  const { appId } = await wizard("saveBasic", {
    appState: "add",
    basic: info,
    cover: await wizard.upload("cover", "cover.png", PNG),
  });

  await logInWith(page, user.userName, js);
  await expect(page.getByTestId("dash-services-drafts")).toHaveText("1");

  // A second device knows no URL: it finds the draft in the list and resumes it at its step.
  const other = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    javaScriptEnabled: js,
    locale: "en-US",
  });
  const second = await other.newPage();
  await logInWith(second, user.userName, js);
  await second.goto("/g/home/PermissionedServices/PublishedServices");
  if (js) await ready(second);
  const row = second.getByTestId("draft-row").filter({ hasText: info.name });
  await expect(row.getByTestId("draft-step")).toHaveText("Draft · step 2 of 7: Chaincode packages");
  await row.getByRole("link", { name: `Resume the draft of ${info.name}` }).click();
  await expect(second).toHaveURL(new RegExp(`appState=add&appId=${appId}&step=packages`));
  await expect(second.getByRole("heading", { name: "Chaincode packages" }).first()).toBeVisible();
  await other.close();

  // Delete asks first; Cancel keeps it, the confirmation deletes it.
  await page.goto("/g/home/PermissionedServices/PublishedServices");
  const mine = page.getByTestId("draft-row").filter({ hasText: info.name });
  await mine.getByRole("link", { name: `Delete the draft of ${info.name}` }).click();
  await expect(page.getByRole("heading", { name: `Delete the draft of ${info.name}?` })).toBeVisible();
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(mine).toHaveCount(1);
  await mine.getByRole("link", { name: `Delete the draft of ${info.name}` }).click();
  await page.getByRole("button", { name: "Delete the draft" }).click();
  await expect(page.getByTestId("flash")).toHaveText("The draft was deleted.");
  await expect(page.getByTestId("draft-row")).toHaveCount(0);
});

test("an operator sees the items waiting in each queue on the overview and beside each Operations tab", async ({
  page,
  request,
}, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "opq"));
  await api(request, "/test/services", { verState: 5, ...FIXTURE_BOOKING }, await apiToken(request, user.userName));
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/index");
  // The operator's landing is their queues by group, not a customer's dashboard (issue 30 item 4).
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Operations, /);
  await expect(page.getByText("Publish a service")).toHaveCount(0);
  // Operations comes first in their menu and is current on their landing; the customer's Overview is not theirs.
  const menu = page.getByRole("navigation", { name: "Console menu" });
  await expect(menu.getByRole("link").first()).toHaveText("Operations");
  await expect(menu.getByRole("link").first()).toHaveAttribute("aria-current", "page");
  await expect(menu.getByRole("link", { name: "Overview", exact: true })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Breadcrumbs" })).toHaveText("Operations");
  const reviews = page.getByTestId("ops-group-reviews");
  await expect(reviews.getByRole("heading", { level: 2 })).toContainText("Reviews");
  const onHome = Number(await reviews.getByTestId("dash-queue-ServiceReviews").textContent());
  expect(onHome).toBeGreaterThanOrEqual(1);
  const groupWaiting = Number(
    (await reviews.getByTestId("ops-group-waiting-reviews").textContent())?.replace(/\D+/g, ""),
  );
  expect(groupWaiting).toBeGreaterThanOrEqual(onHome);
  await reviews.getByTestId("dash-queue-ServiceReviews").click();
  await expect(page).toHaveURL(/\/g\/home\/operations\/ServiceReviews/);
  await expect(page.getByRole("navigation", { name: "Breadcrumbs" })).toHaveText(/^Operations\s*\/\s*Service reviews$/);
  expect(
    Number(
      await page
        .getByTestId("queue-count-ServiceReviews")
        .textContent()
        .then((t) => t?.replace(/\D+/g, "")),
    ),
  ).toBeGreaterThanOrEqual(1);
});
