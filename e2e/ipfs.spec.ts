import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { userWithBalance } from "./public-chain-support.ts";
import { logInAs, OPERATOR } from "./services-support.ts";
import { decideInQueue, PASSWORD } from "./support.ts";

/**
 * IPFS storage (issue 13), with JavaScript on and off: create a service paid from the balance, upload a file
 * from the page (with progress when JavaScript is on, a plain multipart form when it is off), download it whole
 * and by range through the service's gateway, see the traffic and My account's usage by gateway, and delete it
 * after confirming.
 */

const IPFS = "/g/home/IPFS";

async function confirmAfter(page: Page, javaScriptEnabled: boolean, confirmLabel: string) {
  const scope = javaScriptEnabled ? page.getByRole("alertdialog") : page.getByTestId("confirm-step");
  await scope.getByRole("button", { name: confirmLabel }).click();
}

/** 300 KB of text that is not all alike (so its CID is its own). */
function fileBytes(seed: string) {
  const line = `IPFS e2e ${seed} `;
  let text = "";
  for (let i = 0; text.length < 300 * 1024; i += 1) text += `${line}${i}\n`;
  return Buffer.from(text);
}

test("creates a service, uploads a file, downloads it whole and by range, sees its traffic and deletes it", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(120_000);
  const user = await userWithBalance(request, "ipfs", testInfo, 5_000);
  await logInAs(page, user.userName, PASSWORD);

  await page.goto(IPFS);
  await expect(page.getByRole("heading", { name: "IPFS storage", level: 1 })).toBeVisible();
  await expect(page.getByTestId("empty")).toBeVisible();
  await page.getByRole("link", { name: "New IPFS service" }).click();
  await expect(page.getByRole("heading", { name: "New IPFS service", level: 1 })).toBeVisible();
  await expect(page.getByTestId("capacity-1")).toContainText("for 30 days");

  // No gateway chosen: the server's message at the field, the name kept.
  const name = `Archive ${testInfo.project.name}`;
  await page.getByLabel("Service name").fill(name);
  await page.getByRole("button", { name: "Pay and create" }).click();
  await expect(page.getByText("Choose at least one city node gateway.")).toBeVisible();
  await expect(page.getByLabel("Service name")).toHaveValue(name);
  await page.locator('input[name="orgIds"]').first().check();
  await page.getByRole("button", { name: "Pay and create" }).click();
  await expect(page.getByRole("heading", { name: `IPFS service ${name}` })).toBeVisible();
  await expect(page.getByText(/IPFS service .* created; bill \S+ paid from your balance\./)).toBeVisible();
  await expect(page.getByTestId("key-upload-state")).toHaveText("Activated");
  await expect(page.getByTestId("no-files")).toBeVisible();

  // Upload from the page.
  const bytes = fileBytes(`${testInfo.project.name}-${Date.now()}`);
  await page.getByLabel("File to upload").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: bytes });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText(/notes\.txt uploaded: bafk/)).toBeVisible();
  const row = page.getByTestId("file-row").filter({ hasText: "notes.txt" });
  await expect(row).toHaveCount(1);
  const cid = (await row.getByTestId("file-cid").innerText()).trim();
  // Under one 1 MiB chunk: a single raw block, CIDv1 raw (bafk…), as IPFS stores it.
  expect(cid).toMatch(/^bafkrei[a-z2-7]{52}$/);
  await expect(page.getByTestId("file-count")).toHaveText("1");

  // The same content under another name: stored, said to be already there, and no more capacity taken.
  const capacity = await page.getByTestId("capacity-text").first().innerText();
  await page.getByLabel("File to upload").setInputFiles({ name: "copy.txt", mimeType: "text/plain", buffer: bytes });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText(/copy\.txt uploaded: bafk.*already stored the same content/)).toBeVisible();
  await expect(page.getByTestId("file-count")).toHaveText("2");
  await expect(page.getByTestId("capacity-text").first()).toHaveText(capacity);

  // Download through the gateway, with the page's session: whole, then a range.
  const href = await row.getByTestId("file-download").getAttribute("href");
  const whole = await page.request.get(href!);
  expect(whole.status()).toBe(200);
  expect(Buffer.compare(await whole.body(), bytes)).toBe(0);
  // "Download" saves it under its name; "Open" views it in the browser (issue 30 item 11).
  expect(whole.headers()["content-disposition"]).toMatch(/^attachment; filename\*=UTF-8''/);
  const opened = await page.request.get((await row.getByTestId("file-open").getAttribute("href"))!);
  expect(opened.headers()["content-disposition"]).toMatch(/^inline; filename\*=UTF-8''/);
  expect(Buffer.compare(await opened.body(), bytes)).toBe(0);
  const part = await page.request.get(href!, { headers: { Range: "bytes=100-199" } });
  expect(part.status()).toBe(206);
  expect(Buffer.compare(await part.body(), bytes.subarray(100, 200))).toBe(0);

  // The traffic: the bytes just served, on the chart (JS) or in the table (no JS).
  await page.getByRole("link", { name: "Download traffic" }).first().click();
  await expect(page.getByRole("heading", { name: `Download traffic of ${name}` })).toBeVisible();
  // Served: the whole file twice (saved and opened) and the 100-byte range.
  const served = `${((2 * bytes.length + 100) / 1024).toFixed(0)} KB`;
  // The gateways write what they served at most a second later (a batched meter): reload until it is there.
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId("traffic-total").innerText();
      },
      { timeout: 15_000 },
    )
    .toContain(`${served} served`);
  if (javaScriptEnabled) await expect(page.getByTestId("traffic-chart")).toBeVisible();
  else await expect(page.getByTestId("traffic-table")).toBeVisible();

  await page.goto("/g/home/userCenter/MyAccount");
  await expect(page.getByTestId("ipfs-usage-row")).toHaveCount(1);
  await expect(page.getByTestId("ipfs-usage-total")).toContainText(served);

  // Delete after confirming: the file and its space go.
  await page.goto(IPFS);
  await page.getByTestId("ipfs-row").getByRole("link", { name }).click();
  // The copy first: the same content stays under notes.txt, so its space stays taken.
  await page.getByTestId("file-row").filter({ hasText: "copy.txt" }).getByRole("button", { name: "Delete" }).click();
  await confirmAfter(page, javaScriptEnabled, "Delete");
  await expect(page.getByText("Another file of this service has the same content")).toBeVisible();
  await expect(page.getByTestId("capacity-text").first()).toHaveText(capacity);
  await expect(page.getByTestId("file-count")).toHaveText("1");
  await page.getByTestId("file-row").filter({ hasText: "notes.txt" }).getByRole("button", { name: "Delete" }).click();
  await confirmAfter(page, javaScriptEnabled, "Delete");
  await expect(page.getByText("The file was deleted and its space freed.")).toBeVisible();
  await expect(page.getByTestId("no-files")).toBeVisible();
  expect((await page.request.get(href!)).status()).toBe(404);
});

test("a deactivated upload key refuses uploads with its message until it is activated again", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(90_000);
  const user = await userWithBalance(request, "ipfskey", testInfo, 5_000);
  await logInAs(page, user.userName, PASSWORD);
  await page.goto(`${IPFS}/New`);
  await page.getByLabel("Service name").fill(`Keys ${testInfo.project.name}`);
  await page.locator('input[name="orgIds"]').first().check();
  await page.getByRole("button", { name: "Pay and create" }).click();
  await expect(page.getByTestId("key-upload")).toBeVisible();

  await page.getByTestId("key-upload").getByRole("button", { name: "Show" }).click();
  await expect(page.getByTestId("key-upload-value")).toBeVisible();
  await page.getByTestId("key-upload").getByRole("button", { name: "Deactivate" }).click();
  await confirmAfter(page, javaScriptEnabled, "Deactivate");
  await expect(page.getByTestId("key-upload-state")).toHaveText("Deactivated");

  await page
    .getByLabel("File to upload")
    .setInputFiles({ name: "refused.txt", mimeType: "text/plain", buffer: Buffer.from("not stored") });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText(/deactivated/i).first()).toBeVisible();
  await expect(page.getByTestId("no-files")).toBeVisible();

  await page.getByTestId("key-upload").getByRole("button", { name: "Activate" }).click();
  await expect(page.getByTestId("key-upload-state")).toHaveText("Activated");
  await page
    .getByLabel("File to upload")
    .setInputFiles({ name: "kept.txt", mimeType: "text/plain", buffer: Buffer.from("stored now") });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("file-row").filter({ hasText: "kept.txt" })).toHaveCount(1);
});

test("a capacity upgrade is paid from the balance, taken and approved by an operator, and applies", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(120_000);
  const user = await userWithBalance(request, "ipfsup", testInfo, 5_000);
  await logInAs(page, user.userName, PASSWORD);
  const name = `Grow ${testInfo.project.name} ${Date.now().toString(36)}`;
  await page.goto(`${IPFS}/New`);
  await page.getByLabel("Service name").fill(name);
  await page.locator('input[name="orgIds"]').first().check();
  await page.getByRole("button", { name: "Pay and create" }).click();
  await expect(page.getByTestId("service-capacity")).toHaveText("1 GB");
  await expect(page.getByTestId("no-upgrades")).toBeVisible();

  // New upgrade: the current capacity, the larger ones with the difference for the rest of the period, the balance.
  await page.getByRole("link", { name: "Upgrade capacity" }).click();
  await expect(page.getByRole("heading", { name: `Upgrade the capacity of ${name}` })).toBeVisible();
  await expect(page.getByTestId("current-capacity")).toHaveText("1 GB");
  await expect(page.getByTestId("upgrade-balance")).toContainText("$49.70");
  // Nothing chosen: the server says so.
  await page.getByRole("button", { name: "Pay and request the upgrade" }).click();
  await expect(page.getByTestId("form-error")).toHaveText("Choose a larger capacity.");
  await page.getByTestId("upgrade-to-10").check();
  await expect(page.locator("label", { has: page.getByTestId("upgrade-to-10") })).toContainText("$2.20 now");
  if (javaScriptEnabled)
    await expect(page.getByTestId("upgrade-summary")).toContainText("You pay $2.20 now for 10 GB.");
  await page.getByRole("button", { name: "Pay and request the upgrade" }).click();
  await expect(javaScriptEnabled ? page.getByRole("alertdialog") : page.getByTestId("confirm-step")).toContainText(
    "Upgrade from 1 GB to 10 GB: $2.20 is paid from your balance now.",
  );
  await confirmAfter(page, javaScriptEnabled, "Pay the difference");
  await expect(page.getByTestId("flash")).toHaveText("Upgrade to 10 GB requested; $2.20 was paid from your balance.");
  await expect(page.getByTestId("upgrade-status")).toHaveText("Pending");
  await expect(page.getByTestId("upgrade-price")).toHaveText("$2.20");
  await expect(page.getByTestId("upgrade-bill")).toHaveText(/^IU/);
  const detail = new URL(page.url()).pathname + new URL(page.url()).search;
  // Not applied yet.
  await page.getByRole("link", { name: "Back to the service" }).click();
  await expect(page.getByTestId("service-capacity")).toHaveText("1 GB");
  await expect(page.getByTestId("upgrade-row")).toHaveCount(1);

  // An operator takes it, then reports success.
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/operations/IpfsUpgrades");
  const item = page.getByTestId("ipfs-upgrade-review").filter({ hasText: name });
  await expect(item).toContainText("1 GB → 10 GB");
  await item.getByRole("button", { name: "Take" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Upgrade taken: it is being processed.");
  await expect(item.getByTestId("upgrade-status")).toHaveText("Operations processing");
  await decideInQueue(page, item, "Success");
  await expect(page.getByTestId("flash")).toHaveText("Upgrade done: the new capacity applies.");
  await expect(item).toHaveCount(0);

  // The owner sees Success and the new capacity.
  await logInAs(page, user.userName, PASSWORD);
  await page.goto(detail);
  await expect(page.getByTestId("upgrade-status")).toHaveText("Success");
  await expect(page.getByTestId("upgrade-explain")).toHaveText("Done: the service now has 10 GB.");
  await page.getByRole("link", { name: "Back to the service" }).click();
  await expect(page.getByTestId("service-capacity")).toHaveText("10 GB");
  await expect(page.getByTestId("upgrade-row").getByTestId("upgrade-status")).toHaveText("Success");
});
