import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { api, logInAs, OPERATOR, publisherWithService, reviewQueue } from "./services-support.ts";
import { decideInQueue, PASSWORD, rowMenuItem } from "./support.ts";

/** Reloads until the row of `name` shows `status` (the job loop of the test server works in the background). */
async function waitForStatus(page: Page, url: string, status: string) {
  await expect(async () => {
    await page.goto(url);
    await expect(page.getByTestId("status").first()).toHaveText(status, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
}

const reviewItem = (page: Page, name: string) =>
  page.getByTestId("review-item").filter({ has: page.getByRole("heading", { name }) });

test("an operator rejects a submitted service with comments; the publisher sees them in the approval records", async ({
  page,
  request,
}, testInfo) => {
  const pub = await publisherWithService(request, "rej", testInfo, { verState: 5 });
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto(reviewQueue("initial", pub.name));
  const item = reviewItem(page, pub.name);
  await expect(item).toContainText("asset_cc");
  await expect(item).toContainText("CreateAsset");
  await expect(item).toContainText("Administrator");
  await expect(item).toContainText("Beijing");
  // Reject is in the item's "More" menu (its main action is Approve).
  await decideInQueue(page, item, "Reject", { inMenu: true, refused: true });
  await expect(reviewItem(page, pub.name).getByText("This field is required.")).toBeVisible();
  await reviewItem(page, pub.name).getByLabel("Review comments").fill("Please describe the roles in more detail.");
  await decideInQueue(page, reviewItem(page, pub.name), "Reject", { inMenu: true });
  await expect(page.getByTestId("flash")).toHaveText("The service was rejected; the publisher sees your comments.");
  await expect(reviewItem(page, pub.name)).toHaveCount(0);

  await logInAs(page, pub.user.userName, PASSWORD);
  await page.goto("/g/home/PermissionedServices");
  await expect(page).toHaveURL(/\/g\/home\/PermissionedServices\/PublishedServices$/);
  const row = page.getByTestId("service-row").filter({ hasText: pub.name });
  await expect(row.getByTestId("status")).toHaveText("Initial review not approved");
  await row.getByRole("link", { name: `Details of ${pub.name}` }).click();
  await page.getByRole("link", { name: "Approval records" }).click();
  await expect(page.getByTestId("approval-records")).toContainText("Initial review not approved");
  await expect(page.getByTestId("approval-records")).toContainText("Please describe the roles in more detail.");
});

test("a service goes through approval, test, payment and deployment to running", async ({
  page,
  request,
}, testInfo) => {
  const pub = await publisherWithService(request, "full", testInfo, { verState: 5, costCents: 12_000 });
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto(reviewQueue("initial", pub.name));
  await decideInQueue(page, reviewItem(page, pub.name), "Approve");
  await expect(page.getByTestId("flash")).toHaveText("The service was approved.");
  // The test job inspects the packages; the version then waits in the final-review queue with its report.
  await expect(async () => {
    await page.goto(reviewQueue("final", pub.name));
    await expect(reviewItem(page, pub.name)).toContainText("All checks passed.", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await decideInQueue(page, reviewItem(page, pub.name), "Approve");
  await expect(page.getByTestId("flash")).toHaveText("The service was approved.");

  await logInAs(page, pub.user.userName, PASSWORD);
  await page.goto(`/g/home/PermissionedServices/PublishedServices?name=${encodeURIComponent(pub.name)}`);
  const row = page.getByTestId("service-row");
  await expect(row.getByTestId("status")).toHaveText("To be paid");
  await row.getByRole("link", { name: "Pay", exact: true }).click();
  await page.getByRole("button", { name: "Pay $120.00" }).click();
  await expect(page.getByTestId("form-error")).toHaveText("Insufficient account balance. Please recharge first.");
  await expect(page.getByRole("link", { name: "Recharge your balance" })).toHaveAttribute(
    "href",
    "/g/home/userCenter/MyAccount/Recharge",
  );
  await api(request, "/test/fixtures", { grantCents: 20_000 }, pub.token);
  await page.getByRole("button", { name: "Pay $120.00" }).click();
  await expect(page.getByTestId("flash")).toHaveText("The publish bill was paid. The service is being deployed.");

  await waitForStatus(
    page,
    `/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${pub.appId}&appVerId=${pub.appVerId}&activeNames=chaincode`,
    "Running",
  );
  // Deployment per node (docs/decisions/052): each city node, the chain's height, its endpoint, running; no address.
  const deployment = page.getByTestId("deployment");
  await expect(deployment.locator("tbody tr")).toHaveCount(2);
  for (const row of await deployment.locator("tbody tr").all()) {
    await expect(row).toContainText(/\/chain\/service\/cn-[a-z]{2}-01\/[A-Za-z0-9_-]{43}/);
    await expect(row.getByRole("cell").nth(3)).toHaveText(/^[1-9]\d*$/);
    await expect(row).toContainText("Running");
  }
  await expect(deployment).not.toContainText(/0x[0-9a-fA-F]{40}/);
  await page.getByRole("link", { name: "Run info" }).click();
  await expect(page.getByText("Beijing, Shanghai")).toBeVisible();
  await page.getByRole("link", { name: "Approval records" }).click();
  await expect(page.getByTestId("timeline")).toContainText("Deployed");
});

test("a test failure shows its reasons and a suggestion", async ({ page, request }, testInfo) => {
  const pub = await publisherWithService(request, "tfail", testInfo, { verState: 10, badPackage: "func" });
  await logInAs(page, pub.user.userName, PASSWORD);
  await waitForStatus(
    page,
    `/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${pub.appId}&appVerId=${pub.appVerId}`,
    "Test failed",
  );
  const report = page.getByTestId("failure-report");
  await expect(report).toContainText(
    "These FUNCs of the package asset_cc are not in its chaincode source: ReadAsset, TransferAsset.",
  );
  await expect(report).toContainText("Declare only FUNCs that the chaincode implements");
});

test("a deployment fails for lack of resources", async ({ page, request }, testInfo) => {
  const pub = await publisherWithService(request, "dfail", testInfo, {
    verState: 23,
    free: true,
    tps: 5000,
    nodeCount: 1,
  });
  await logInAs(page, pub.user.userName, PASSWORD);
  await waitForStatus(
    page,
    `/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${pub.appId}&appVerId=${pub.appVerId}`,
    "Publish failed",
  );
  const report = page.getByTestId("failure-report");
  await expect(report).toContainText("Insufficient resources on Beijing: 5000 TPS");
  await expect(report).toContainText("Choose other city nodes, or ask for fewer TPS");
  await expect(page.getByRole("link", { name: "Edit", exact: true })).toHaveAttribute(
    "href",
    `/g/home/PermissionedServices/PublishedServices/NewServices?appState=mod2&appId=${pub.appId}`,
  );
});

test("deactivate after confirming, then enable", async ({ page, request }, testInfo) => {
  const pub = await publisherWithService(request, "deact", testInfo, { verState: 25 });
  await logInAs(page, pub.user.userName, PASSWORD);
  await page.goto("/g/home/PermissionedServices/PublishedServices");
  const row = page.getByTestId("service-row").filter({ hasText: pub.name });
  await expect(row.getByTestId("status")).toHaveText("Running");
  await expect(row.getByRole("link", { name: "Invite", exact: true })).toBeVisible();
  await expect(row.getByRole("button", { name: "Enable" })).toHaveCount(0);
  await (await rowMenuItem(page, row, "Deactivate")).click();
  await expect(page.getByRole("heading", { name: `Deactivate ${pub.name}?` })).toBeVisible();
  // Confirmed by typing the service's name (docs/decisions/029): none, then a wrong one, are refused.
  const typed = page.getByLabel(`To confirm, type the service name: ${pub.name}`);
  await page.getByRole("button", { name: "Deactivate", exact: true }).click();
  await expect(page.getByTestId("confirm-panel")).toContainText("This field is required.");
  await typed.fill(`${pub.name} 2`);
  await page.getByRole("button", { name: "Deactivate", exact: true }).click();
  await expect(page.getByTestId("confirm-panel")).toContainText("Type the name exactly as it is shown.");
  await expect(typed).toHaveValue(`${pub.name} 2`);
  await expect(row.getByTestId("status")).toHaveText("Running");
  await typed.fill(pub.name);
  await page.getByRole("button", { name: "Deactivate", exact: true }).click();
  await expect(page.getByTestId("flash")).toHaveText("The service was deactivated.");
  await expect(row.getByTestId("status")).toHaveText("Deactivated");
  await expect(row.getByRole("link", { name: "Invite", exact: true })).toHaveCount(0);
  await row.getByRole("button", { name: "Enable" }).click();
  await expect(page.getByTestId("flash")).toHaveText("The service is running again.");
  await expect(row.getByTestId("status")).toHaveText("Running");
  await row.getByRole("link", { name: "Invite", exact: true }).click();
  await expect(page.getByRole("textbox", { name: "Invitation link" })).toHaveValue(
    /\/g\/home\/ParticipatedServices\/JOIN\?a=\d+&b=APP\w+&c=[\w-]{22}&d=\d+&e=en$/,
  );
});
