import { expect, test } from "./fixtures.ts";
import { api, logInAs, OPERATOR, publisherWithService } from "./services-support.ts";
import { decideInQueue, PASSWORD, rowMenuItem } from "./support.ts";

// docs/decisions/036: a resource upgrade from the request through the operator's review, the payment of its
// bill and the deployment, with the new TPS shown on the service; another within 6 hours is refused with
// its §8 message. Runs with JavaScript on and off.

test("a resource upgrade is reviewed, paid and deployed; another within 6 hours is refused", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const pub = await publisherWithService(request, "cfg", testInfo, { verState: 25, free: true, tps: 10, nodeCount: 1 });
  await api(request, "/test/fixtures", { grantCents: 100_000 }, pub.token);

  await logInAs(page, pub.user.userName, PASSWORD);
  await page.goto(`/g/home/PermissionedServices/PublishedServices?name=${encodeURIComponent(pub.name)}`);
  const row = page.getByTestId("service-row").filter({ hasText: pub.name });
  // Config upgrade is in the row's "More" menu (docs/decisions/027).
  await (await rowMenuItem(page, row, "Config upgrade")).click();
  await expect(page).toHaveURL(/\/g\/home\/ConfigurationNew\?appId=/);
  await page.getByLabel("TPS · Beijing").fill("60");
  await page.getByRole("button", { name: "Calculate the price" }).click();
  await expect(page.getByTestId("upgrade-quote")).toBeVisible();
  // Nothing typed is lost by the price's round trip.
  await expect(page.getByLabel("TPS · Beijing")).toHaveValue("60");
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Your upgrade was sent for review.");
  await expect(page.getByTestId("upgrade-review")).toHaveText("Pending review");
  const detail = new URL(page.url()).pathname + new URL(page.url()).search;

  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/operations/ConfigUpgrades");
  const item = page.getByTestId("upgrade-review").filter({ hasText: pub.name });
  await expect(item.getByTestId("review-after")).toContainText("60 TPS");
  await decideInQueue(page, item, "Approve");
  await expect(page.getByTestId("flash")).toHaveText("The upgrade was approved.");

  await logInAs(page, pub.user.userName, PASSWORD);
  await page.goto(detail);
  await page.getByTestId("upgrade-pay").getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByTestId("flash")).toHaveText("The upgrade bill was paid; the upgrade is being deployed.");
  await expect(async () => {
    await page.goto(detail);
    await expect(page.getByTestId("upgrade-deploy")).toHaveText("Success", { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId("upgrade-status")).toHaveText("Success");

  await page.goto(`/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${pub.appId}`);
  await expect(page.getByTestId("deployment").getByRole("row").nth(1)).toContainText("60");
  await page.getByRole("link", { name: "History versions" }).click();
  await expect(page.getByTestId("upgrade-row")).toHaveCount(1);

  await page.goto(`/g/home/ConfigurationNew?appId=${pub.appId}`);
  await expect(page.getByTestId("upgrade-refused")).toContainText(
    "A configuration upgrade can be repeated only 6 hours after the last successful one.",
  );
  await expect(page.getByTestId("upgrade-form")).toHaveCount(0);
});

// docs/decisions/060: a paid service is resized too; its Configuration page offers the form and the price.
test("a paid service offers Config upgrade and takes a request", async ({ page, request }, testInfo) => {
  const pub = await publisherWithService(request, "cfp", testInfo, {
    verState: 25,
    free: false,
    tps: 10,
    nodeCount: 1,
  });
  await logInAs(page, pub.user.userName, PASSWORD);
  await page.goto(`/g/home/PermissionedServices/PublishedServices?name=${encodeURIComponent(pub.name)}`);
  const row = page.getByTestId("service-row").filter({ hasText: pub.name });
  await (await rowMenuItem(page, row, "Config upgrade")).click();
  await expect(page).toHaveURL(/\/g\/home\/ConfigurationNew\?appId=/);
  await page.getByLabel("TPS · Beijing").fill("20");
  await page.getByRole("button", { name: "Calculate the price" }).click();
  await expect(page.getByTestId("upgrade-quote")).toBeVisible();
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Your upgrade was sent for review.");
  await expect(page.getByTestId("upgrade-review")).toHaveText("Pending review");
});
