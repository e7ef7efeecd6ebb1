import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { logInAs, OPERATOR, publisherWithService } from "./services-support.ts";
import { PASSWORD, rowMenuItem } from "./support.ts";

// docs/decisions/015: an operator suspends a running service (25 → 40) with comments; the publisher sees
// them, asks operations to enable it again; the operator enables it. Runs with JavaScript on and off.

const QUEUE = "/g/home/operations/Services";
const queueItem = (page: Page, name: string) =>
  page.getByTestId("ops-service").filter({ has: page.getByRole("heading", { name }) });

/** A decision is confirmed first: a dialog with JavaScript, a confirm step without; both end in "Confirm". */
async function decide(page: Page, name: string, decision: string) {
  await queueItem(page, name).getByRole("button", { name: decision, exact: true }).click();
  // Suspending is confirmed by typing the service's name (docs/decisions/029): in the dialog, or on the confirm step.
  if (decision === "Suspend") await page.getByLabel(`To confirm, type the service name: ${name}`).fill(name);
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
}

test("an operator suspends a running service, the publisher asks to enable it, the operator enables it", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  const pub = await publisherWithService(request, "susp", testInfo, { verState: 25, tps: 10, nodeCount: 1 });
  const comments = "Reported for spam transactions. Remove the spam accounts first.";
  const note = "We removed the spam accounts and added rate limits.";

  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto(`${QUEUE}?filter=running&name=${encodeURIComponent(pub.name)}`);
  await expect(queueItem(page, pub.name).getByTestId("status")).toHaveText("Running");
  await expect(queueItem(page, pub.name)).toContainText(pub.user.userName);
  await expect(queueItem(page, pub.name)).toContainText("Running since");
  // Suspending needs comments: refused at the row, nothing changes.
  await queueItem(page, pub.name).getByRole("button", { name: "Suspend", exact: true }).click();
  if (javaScriptEnabled) {
    // The dialog's confirm button waits for the typed name.
    await expect(page.getByRole("button", { name: "Confirm", exact: true })).toBeDisabled();
    await page.getByLabel(`To confirm, type the service name: ${pub.name}`).fill(pub.name);
    await page.getByRole("button", { name: "Confirm", exact: true }).click();
  }
  await expect(queueItem(page, pub.name).getByText("Please enter review comments.")).toBeVisible();
  await queueItem(page, pub.name).getByLabel("Comments").fill(comments);
  await decide(page, pub.name, "Suspend");
  await expect(page.getByTestId("flash")).toHaveText("The service was suspended; the publisher sees your comments.");
  await expect(queueItem(page, pub.name)).toHaveCount(0);
  await page.getByRole("link", { name: "Suspended", exact: true }).click();
  await expect(queueItem(page, pub.name).getByTestId("status")).toHaveText("Deactivated by operations");
  await expect(queueItem(page, pub.name).getByTestId("suspend-comments")).toContainText(comments);

  await logInAs(page, pub.user.userName, PASSWORD);
  await page.goto(`/g/home/PermissionedServices/PublishedServices?name=${encodeURIComponent(pub.name)}`);
  const row = page.getByTestId("service-row").filter({ hasText: pub.name });
  await expect(row.getByTestId("status")).toHaveText("Deactivated by operations");
  await row.getByRole("link", { name: "Enable", exact: true }).click();
  const confirm = page.getByRole("alertdialog", { name: `Ask operations to enable ${pub.name} again` });
  await expect(confirm.getByTestId("suspension-comments")).toContainText(comments);
  await confirm.getByLabel("Note for operations (optional)").fill(note);
  await confirm.getByRole("button", { name: "Send the request" }).click();
  await expect(page.getByTestId("flash")).toHaveText(
    "Your request was sent. Operations will enable the service or tell you why not.",
  );
  await expect(page.getByTestId("suspension").getByTestId("enable-request")).toContainText(note);
  await expect(page.getByRole("link", { name: "Enable", exact: true })).toHaveCount(0);
  await page.getByRole("link", { name: "Approval records" }).click();
  await expect(page.getByTestId("approval-records")).toContainText("Deactivated by operations");
  await expect(page.getByTestId("approval-records")).toContainText(comments);
  await expect(page.getByTestId("timeline")).toContainText("Enabling requested");

  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto(`${QUEUE}?filter=requested&name=${encodeURIComponent(pub.name)}`);
  await expect(queueItem(page, pub.name).getByTestId("enable-request")).toContainText(note);
  await decide(page, pub.name, "Enable");
  await expect(page.getByTestId("flash")).toHaveText("The service is running again; the publisher was told.");
  await expect(queueItem(page, pub.name)).toHaveCount(0);
  await expect(page.getByText("No service matches this name.")).toBeVisible();

  await logInAs(page, pub.user.userName, PASSWORD);
  await page.goto(`/g/home/PermissionedServices/PublishedServices?name=${encodeURIComponent(pub.name)}`);
  await expect(row.getByTestId("status")).toHaveText("Running");
  await expect(await rowMenuItem(page, row, "Deactivate")).toBeVisible();
  await page.goto("/g/home/userCenter/MessageCenter");
  await expect(page.getByText(`Your service ${pub.name} was deactivated by operations: ${comments}`)).toBeVisible();
  await expect(page.getByText(`Your service ${pub.name} is running again.`)).toBeVisible();
});
