import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { enabledProject, userWithBalance } from "./public-chain-support.ts";
import { logInAs } from "./services-support.ts";
import { PASSWORD } from "./support.ts";

/**
 * The public-chain console (SPEC §2 PermissionlessServices, issue 12), with JavaScript on and off: buy a plan,
 * create a project, enable it and take its key; a custody chain account receives gas (bill type 50); the
 * plan's statistics; democompany's demo records.
 */

const PC = "/g/home/PermissionlessServices";

/** A submit that asks first: the dialog's button with JavaScript, the page's confirm step without. */
async function confirmAfter(page: Page, javaScriptEnabled: boolean, confirmLabel: string) {
  const scope = javaScriptEnabled ? page.getByRole("alertdialog") : page.getByTestId("confirm-step");
  await scope.getByRole("button", { name: confirmLabel }).click();
}

/** Reloads the project page until the deployment job has moved it to `status`. */
async function waitForStatus(page: Page, status: string) {
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId("project-status").first().innerText();
      },
      { timeout: 30_000, intervals: [500, 1_000] },
    )
    .toBe(status);
}

test("buys a plan, creates a project, enables it and takes its key; the endpoint answers and the statistics count it", async ({
  page,
  request,
  javaScriptEnabled,
  context,
}, testInfo) => {
  test.setTimeout(120_000);
  const user = await userWithBalance(request, "pcbuy", testInfo, 5_000);
  await logInAs(page, user.userName, PASSWORD);

  await page.goto(PC);
  await expect(page.getByRole("heading", { name: "Public-chain services", level: 1 })).toBeVisible();
  const row = page.getByTestId("org-row").filter({ hasText: "PC-SH-01" });
  await expect(row).toContainText("$5.00 for 365 days");
  await row.getByRole("button", { name: "Buy plan" }).click();
  await confirmAfter(page, javaScriptEnabled, "Pay and buy");
  await expect(page).toHaveURL(new RegExp(`${PC}/Home$`));
  await expect(page.getByText(/Plan bought\. Bill PC\S+ is paid from your balance\./)).toBeVisible();
  await expect(page.getByTestId("plan-row")).toHaveCount(1);
  await expect(page.getByTestId("empty")).toBeVisible();

  // The node now says it is mine, and a second purchase is not offered.
  await page.goto(PC);
  await expect(page.getByTestId("org-row").filter({ hasText: "PC-SH-01" }).getByTestId("have-plan")).toHaveText(
    "You already have a plan on this node.",
  );

  await page.goto(`${PC}/Home`);
  await page.getByRole("link", { name: "Create project" }).click();
  // Home's search field is labelled "Project name" too: act once the form's page is there.
  await expect(page.getByRole("heading", { name: "Create a project", level: 1 })).toBeVisible();
  const projectName = `Ledger ${testInfo.project.name}`;
  // Out of the plan's range (100–100,000): the server's §8 text at the field, nothing typed lost.
  await page.getByLabel("Project name").fill(projectName);
  await page.getByLabel("Daily requests").fill("100001");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByText("The daily requests are out of the plan's range.")).toBeVisible();
  await expect(page.getByLabel("Project name")).toHaveValue(projectName);
  await page.getByLabel("Daily requests").fill("500");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { name: `Project ${projectName}` })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^${projectName} · Project`));

  await waitForStatus(page, "To be enabled");
  await page.getByRole("button", { name: "Enable project" }).click();
  await expect(page.getByText("The project is enabled: its endpoint answers with its key.")).toBeVisible();
  await expect(page.getByTestId("project-status")).toHaveText("Enabled");

  await page.getByRole("button", { name: "Show key" }).click();
  const key = (await page.getByTestId("api-key").innerText()).trim();
  expect(key.length).toBeGreaterThan(20);
  await expect(page.getByTestId("endpoint-with-key")).toHaveValue(new RegExp(`/chain/rpc/${key}$`));
  await expect(page.getByTestId("rpc-guide")).toHaveAttribute("href", /page=contract-deployment/);
  if (javaScriptEnabled) {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByTestId("api-key-copy").click();
    await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  }

  // The key opens the endpoint, in the path and in the x-api-key header; the statistics count both calls.
  const inPath = await request.post(`/chain/rpc/${key}`, {
    data: { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
  });
  expect(inPath.status()).toBe(200);
  expect((await inPath.json()).result).toMatch(/^0x[0-9a-f]+$/);
  const inHeader = await request.post("/chain/rpc", {
    headers: { "x-api-key": key },
    data: { jsonrpc: "2.0", id: 2, method: "eth_blockNumber", params: [] },
  });
  expect(inHeader.status()).toBe(200);

  await page.goto(page.url().replace(/&.*$/, "") + "&range=1m");
  await expect(page.getByTestId("stats-total")).toHaveText("2 requests over 1 month.");
  if (javaScriptEnabled) {
    await expect(page.getByTestId("stats-chart")).toBeVisible();
    await page.getByText("Show the numbers as a table").click();
  }
  const table = page.getByTestId("stats-table");
  await expect(table.getByRole("columnheader", { name: "eth_chainId" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "eth_blockNumber" })).toBeVisible();

  // Deactivate asks first; the endpoint then refuses the key.
  await page.getByRole("button", { name: "Deactivate project" }).click();
  await confirmAfter(page, javaScriptEnabled, "Deactivate");
  await expect(page.getByTestId("project-status")).toHaveText("Deactivated");
  const refused = await request.post(`/chain/rpc/${key}`, {
    data: { jsonrpc: "2.0", id: 3, method: "eth_chainId", params: [] },
  });
  expect(refused.status()).toBeGreaterThanOrEqual(400);

  // The plan fee is in My bills.
  await page.goto("/g/home/userCenter/MyBills");
  await expect(page.getByText(/Open alliance basic/).first()).toBeVisible();
});

test("creates a custody chain account and assigns gas: the balance drops and the gas on the chain rises", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(120_000);
  const user = await userWithBalance(request, "pcgas", testInfo, 3_000);
  const projectId = await enabledProject(request, user.token, `Wallets ${testInfo.project.name}`);
  await logInAs(page, user.userName, PASSWORD);

  await page.goto(`${PC}/Accounts?projectId=${projectId}`);
  await expect(page.getByTestId("empty")).toBeVisible();
  await page.getByRole("link", { name: "Create chain account" }).click();
  // §5: a bad name is refused at its field and the rest stays typed.
  await page.getByLabel("Account name").fill("bad/name");
  await page.getByLabel("Gas warning value").fill("0.5");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(
    page.getByText("At most 50 letters, digits, Chinese characters, spaces and . : - _ @.", { exact: true }),
  ).toBeVisible();
  await expect(page.getByLabel("Gas warning value")).toHaveValue("0.5");
  await page.getByLabel("Account name").fill("Treasury wallet");
  await page.getByRole("button", { name: "Create account" }).click();

  await expect(page.getByRole("heading", { name: "Chain account Treasury wallet" })).toBeVisible();
  await expect(page.getByTestId("gas-balance")).toHaveText("0 gas");
  await expect(page.getByTestId("gas-low-warning")).toBeVisible();
  await expect(page.getByText("Your balance: $25.00.")).toBeVisible();

  await page.getByLabel("Amount (USD)").fill("2");
  await page.getByRole("button", { name: "Assign gas" }).click();
  const question = "$2.00 buys 0.02 gas for this account. Your balance: $25.00 now, $23.00 after.";
  if (javaScriptEnabled) await expect(page.getByRole("alertdialog")).toContainText(question);
  else await expect(page.getByTestId("confirm-step")).toContainText(question);
  await confirmAfter(page, javaScriptEnabled, "Pay and assign");
  await expect(page.getByText(/Gas assigned: bill GS\S+ is paid from your balance\./)).toBeVisible();
  await expect(page.getByTestId("gas-balance")).toHaveText("0.02 gas");
  await expect(page.getByText("Your balance: $23.00.")).toBeVisible();
  // 0.02 ETH is still below the 0.5 warning value.
  await expect(page.getByTestId("gas-low-warning")).toBeVisible();

  // The custody key downloads as a keystore; a short password is refused by the server at its field.
  const password = page.getByLabel("Keystore password");
  await password.evaluate((el) => {
    el.removeAttribute("minlength");
    el.removeAttribute("required");
  });
  await password.fill("short");
  await page.getByRole("button", { name: "Download keystore" }).click();
  await expect(page.getByText("The keystore password must be at least 8 characters long.")).toBeVisible();
  await page.getByLabel("Keystore password").fill("long enough password");
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download keystore" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^UTC--.+--[0-9a-f]{40}\.json$/);

  await page.goto(`${PC}/Accounts?projectId=${projectId}`);
  await expect(page.getByTestId("account-row")).toContainText("0.02 gas");
});

test("democompany's plan, project and chain account render", async ({ page }) => {
  await logInAs(page, "democompany", "Demo12!@pass");
  await page.goto(`${PC}/Home`);
  await expect(page.getByTestId("plan-row")).toContainText("Open alliance standard");
  await page
    .getByTestId("project-row")
    .filter({ hasText: "Supply-chain DApp" })
    .getByRole("link", { name: "Supply-chain DApp" })
    .click();
  await expect(page.getByTestId("project-status")).toHaveText("Enabled");
  await expect(page.getByRole("link", { name: "Contracts" })).toHaveAttribute("href", /\/Contracts\?projectId=\d+$/);
  await page.getByRole("link", { name: "Chain accounts" }).click();
  await page.getByRole("link", { name: "Operations wallet" }).click();
  await expect(page.getByTestId("gas-balance")).toContainText("gas");
  await expect(page).toHaveTitle(/^Operations wallet · Chain account/);
});
