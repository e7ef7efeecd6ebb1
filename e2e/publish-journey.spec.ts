import { expect, test } from "./fixtures.ts";
import { api, logInAs, OPERATOR, publisherWithService, reviewQueue } from "./services-support.ts";
import { decideInQueue, PASSWORD } from "./support.ts";
import { tinyPng } from "../tests/fixtures/files.ts";

// A real PNG: uploads are checked by their bytes (docs/decisions/023).
const PNG = tinyPng();

// Across the two halves of the services issue: the review rejects a submitted service, the publisher edits it in
// the wizard (appState mod2) and resubmits, and the resubmitted version passes the initial review and the test.
test("an operator rejects; the publisher edits in the wizard and resubmits; review and test pass", async ({
  page,
  request,
}) => {
  const pub = await publisherWithService(request, "jour", test.info(), { verState: 5 });
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto(reviewQueue("initial", pub.name));
  const item = page.getByTestId("review-item").filter({ has: page.getByRole("heading", { name: pub.name }) });
  await item.getByLabel("Review comments").fill("Add a cover image and a description.");
  await decideInQueue(page, item, "Reject", { inMenu: true });
  await expect(page.getByTestId("flash")).toHaveText("The service was rejected; the publisher sees your comments.");

  await logInAs(page, pub.user.userName, PASSWORD);
  await page.goto(
    `/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${pub.appId}&appVerId=${pub.appVerId}&activeNames=approvals`,
  );
  await expect(page.getByTestId("approval-records")).toContainText("Add a cover image and a description.");
  await page.getByRole("link", { name: "Edit and resubmit" }).click();
  await expect(page).toHaveURL(/appState=mod2/);

  // The basic step: what the review asked for.
  if (!/step=basic/.test(page.url()))
    await page.goto(
      `/g/home/PermissionedServices/PublishedServices/NewServices?appState=mod2&appId=${pub.appId}&step=basic`,
    );
  await page.getByLabel("Description").fill("Trade finance between partner banks.");
  await page
    .getByLabel("Cover", { exact: true })
    .setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).toHaveURL(/step=packages/);
  for (const next of ["functions", "roles"]) {
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(new RegExp(`step=${next}`));
  }
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=nodes/);
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).toHaveURL(/step=certificate/);
  await page.getByLabel("Key trust").check();
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).toHaveURL(/step=cost/);
  await page.getByLabel("I have read and accept the publishing agreement").check();
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.getByTestId("wizard-status")).toContainText("Pending initial review");

  // Back in review: approved, and the test job passes the packages.
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto(reviewQueue("initial", pub.name));
  const again = page.getByTestId("review-item").filter({ has: page.getByRole("heading", { name: pub.name }) });
  await decideInQueue(page, again, "Approve");
  await expect(page.getByTestId("flash")).toHaveText("The service was approved.");
  await expect(async () => {
    await page.goto(reviewQueue("final", pub.name));
    await expect(
      page.getByTestId("review-item").filter({ has: page.getByRole("heading", { name: pub.name }) }),
    ).toContainText("All checks passed.", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
});

test("unpaid traffic bills keep the publisher out of the wizard until they are paid", async ({ page, request }) => {
  const pub = await publisherWithService(request, "blk", test.info(), { verState: 25 });
  await api(
    request,
    "/test/fixtures",
    { grantCents: 1_000, bills: [{ billType: 3, cycle: 99, totalCents: 300 }] },
    pub.token,
  );
  await logInAs(page, pub.user.userName, PASSWORD);
  await page.goto("/g/home/PermissionedServices/PublishedServices/NewServices?appState=add");
  await expect(page).toHaveURL(/\/g\/home\/index\?blocked=newService&/);
  await expect(page.getByTestId("flash")).toHaveText("You have unpaid bills. Please pay them before you continue.");
});

test("the publisher answers a comment; a reply is required", async ({ page, request }) => {
  const pub = await publisherWithService(request, "cmt", test.info(), {
    verState: 25,
    comments: ["Can auditors read the whole history?"],
  });
  await logInAs(page, pub.user.userName, PASSWORD);
  await page.goto(
    `/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${pub.appId}&appVerId=${pub.appVerId}&activeNames=comments`,
  );
  const comment = page.getByTestId("comment").filter({ hasText: "Can auditors read the whole history?" });
  await expect(comment).toContainText("Not replied");
  await comment.getByRole("button", { name: "Reply" }).click();
  await expect(comment.getByText("This field is required.")).toBeVisible();
  await comment.getByLabel("Your reply").fill("Yes: the auditor role can read every record.");
  await comment.getByRole("button", { name: "Reply" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Your reply was saved.");
  await expect(comment).toContainText("Replied");
  await expect(comment).toContainText("Yes: the auditor role can read every record.");
});
