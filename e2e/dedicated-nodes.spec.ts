import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { userWithBalance } from "./public-chain-support.ts";
import { api, logInAs } from "./services-support.ts";
import { PASSWORD } from "./support.ts";

/**
 * Dedicated nodes (issue 17), with JavaScript on and off: a project created from the form (the price seen before
 * paying, a refused field kept), deployed for real (orderer, peer, gateway, CA on Check), the gateway called from
 * "Try it" (the right password answers a block number, a wrong one is refused), a peer added by an upgrade and
 * seen on Check, a host-configuration upgrade changing every node's limits on Check, the authorized password changed, and the project unsubscribed after confirming.
 */

const PRN = "/g/home/PrivatedNodes";

async function confirmAfter(page: Page, javaScriptEnabled: boolean, confirmLabel: string) {
  const scope = javaScriptEnabled ? page.getByRole("alertdialog") : page.getByTestId("confirm-step");
  await scope.getByRole("button", { name: confirmLabel }).click();
}

/** A project name no other run has: lowercase letters only (SPEC §5). */
function projectName(project: string) {
  const letters = (n: number) =>
    n
      .toString(26)
      .split("")
      .map((c) => String.fromCharCode(97 + parseInt(c, 26)))
      .join("");
  return `e${project === "js" ? "j" : "n"}${letters(Date.now())}${letters(Math.floor(Math.random() * 1e6))}`.slice(
    0,
    20,
  );
}

/** With JavaScript the page reads its data again by itself while a job runs; without, the user clicks Refresh. */
async function untilShown(page: Page, javaScriptEnabled: boolean, testId: string, text: string) {
  if (javaScriptEnabled) {
    await expect(page.getByTestId(testId)).toHaveText(text, { timeout: 90_000 });
    return;
  }
  await expect
    .poll(
      async () => {
        const refresh = page.getByTestId("refresh");
        if (await refresh.count()) await refresh.click();
        return page.getByTestId(testId).innerText();
      },
      { timeout: 90_000, intervals: [1_000, 2_000] },
    )
    .toBe(text);
}

async function tryGateway(page: Page, password: string) {
  const form = page.getByTestId("try-it");
  await form.getByLabel("Method").fill("eth_blockNumber");
  await form.getByLabel("Parameters (a JSON array)").fill("[]");
  await form.getByLabel("Authorized password").fill(password);
  await form.getByRole("button", { name: "Send" }).click();
  return page.getByTestId("try-answer");
}

test("creates a project, sees its nodes, calls its gateway, adds a peer, changes the password, unsubscribes and deletes", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(240_000);
  const user = await userWithBalance(request, "prn", testInfo, 100_000);
  await logInAs(page, user.userName, PASSWORD);
  const name = projectName(testInfo.project.name);

  await page.goto(PRN);
  await expect(page.getByRole("heading", { name: "Dedicated nodes", level: 1 })).toBeVisible();
  await expect(page.getByTestId("empty")).toBeVisible();
  await page.getByRole("link", { name: "New project" }).click();
  await expect(page.getByRole("heading", { name: "New dedicated node project", level: 1 })).toBeVisible();

  await page.getByLabel("Project name").fill(name);
  await page.getByLabel("Framework").selectOption("fisco");
  await page.getByLabel("Consensus").selectOption("pbft");
  await page.getByLabel("Cloud").selectOption({ index: 1 });
  await page.getByLabel("Region").selectOption({ index: 1 });
  await page.getByLabel("Authorized user").fill("alice");
  await page.getByLabel("Password", { exact: true }).fill("abc123");
  await page.getByLabel("Confirm the password").fill("abc124");

  // The price before paying: 1 peer, 2 vCPU, 20 GB, monthly = $20 + $30 + $4.
  if (!javaScriptEnabled) await page.getByTestId("show-price").click();
  await expect(page.getByTestId("price-now")).toHaveText("You pay $54.00 now for the first month.");
  await expect(page.getByLabel("Project name")).toHaveValue(name);

  // The passwords differ: the message at the field, nothing typed lost.
  await page.getByRole("button", { name: "Pay and create" }).click();
  await expect(page.getByText("The passwords do not match.")).toBeVisible();
  await expect(page.getByLabel("Project name")).toHaveValue(name);
  await expect(page.getByLabel("Authorized user")).toHaveValue("alice");
  await page.getByLabel("Confirm the password").fill("abc123");
  await page.getByRole("button", { name: "Pay and create" }).click();

  await expect(page.getByRole("heading", { name: `Nodes of ${name}` })).toBeVisible();
  await expect(page.getByText(new RegExp(`Project ${name} created; bill \\S+ paid from your balance`))).toBeVisible();
  // The deploy job runs the network: with JavaScript the page reads itself again while it deploys; without, Refresh.
  await untilShown(page, javaScriptEnabled, "prn-status", "Running");
  await expect(page.getByTestId("node-row")).toHaveCount(4);
  await expect(page.locator('[data-node="orderer"] [data-testid="node-type"]')).toHaveText("Orderer");
  await expect(page.locator('[data-node="peer-1"] [data-testid="node-type"]')).toHaveText("Peer");
  await expect(page.locator('[data-node="gateway"] [data-testid="node-endpoint"]')).toHaveText(
    new RegExp(`^http://127\\.0\\.0\\.1:\\d+/chain/dedicated/prn-${name}$`),
  );
  await expect(page.locator('[data-node="ca"] [data-testid="node-type"]')).toHaveText("CA");
  await expect(page.locator('[data-node="peer-1"] [data-testid="node-certificate"]')).toContainText(
    `peer-1.prn-${name}`,
  );
  // Each node's limits from its host configuration and data capacity (docs/decisions/074): c2m4 with 20 GB.
  await expect(page.locator('[data-node="peer-1"] [data-testid="node-rate-limit"]')).toHaveText("10 calls per second");
  await expect(page.locator('[data-node="peer-1"] [data-testid="node-storage-limit"]')).toHaveText("30.00 GB");
  await expect(page.locator('[data-node="ca"] [data-testid="node-limits"]')).toHaveCount(0);
  if (javaScriptEnabled) await expect(page.getByTestId("nodes-chart")).toBeVisible();
  const ca = await page.request.get((await page.getByTestId("download-ca").getAttribute("href")) ?? "");
  expect(ca.status()).toBe(200);
  expect(await ca.text()).toContain("-----BEGIN CERTIFICATE-----");

  // Try it: the right password answers a block number; a wrong one is refused with the gateway's 401.
  let answer = await tryGateway(page, "abc123");
  await expect(answer).toHaveAttribute("data-status", "200");
  await expect(page.getByTestId("try-body")).toContainText(/"result": "0x[0-9a-f]+"/);
  answer = await tryGateway(page, "wrong123");
  await expect(answer).toHaveAttribute("data-status", "401");
  await expect(page.getByTestId("try-refused")).toHaveText("The gateway refused: wrong user or password (HTTP 401).");

  // Upgrade: a second peer, the difference paid after confirming; it starts and catches up.
  await page.getByRole("link", { name: "Configuration", exact: true }).click();
  await expect(page.getByRole("heading", { name: `Configuration of ${name}` })).toBeVisible();
  await expect(page.getByTestId("no-upgrades")).toBeVisible();
  await page.getByRole("link", { name: "New upgrade" }).click();
  const peers = page.getByTestId("prn-upgrade-1");
  await expect(peers.getByTestId("prn-upgrade-1-current")).toHaveText("1 peer");
  await peers.getByTestId("prn-upgrade-1-to-2").check();
  await peers.getByRole("button", { name: "Pay and upgrade" }).click();
  await confirmAfter(page, javaScriptEnabled, "Pay and upgrade");
  await expect(page.getByRole("heading", { name: `Upgrade of ${name}` })).toBeVisible();
  await expect(page.getByTestId("upgrade-to")).toHaveText("2 peers");
  await untilShown(page, javaScriptEnabled, "prn-upgrade-status", "Succeeded");
  await page.getByRole("link", { name: "Back to the configuration" }).click();
  await expect(page.getByTestId("prn-upgrade-row")).toHaveCount(1);
  await expect(page.getByTestId("prn-upgrade-change")).toHaveText("1 peer → 2 peers");

  // The new peer on Check.
  await page.getByRole("link", { name: "Nodes", exact: true }).click();
  await expect(page.getByTestId("prn-peers")).toHaveText("2");
  await expect(page.locator('[data-node="peer-2"]')).toHaveCount(1);
  await expect
    .poll(
      async () => {
        await page.goto(page.url());
        return page.locator('[data-node="peer-2"] [data-testid="node-lag"]').innerText();
      },
      { timeout: 60_000 },
    )
    .toBe("0");

  // Upgrade the host configuration: the running nodes take its request rate and storage limit (docs/decisions/074).
  await page.getByRole("link", { name: "Configuration", exact: true }).click();
  await page.getByRole("link", { name: "New upgrade" }).click();
  const host = page.getByTestId("prn-upgrade-2");
  await host.getByTestId("prn-upgrade-2-to-c4m8").check();
  await host.getByRole("button", { name: "Pay and upgrade" }).click();
  await confirmAfter(page, javaScriptEnabled, "Pay and upgrade");
  await expect(page.getByRole("heading", { name: `Upgrade of ${name}` })).toBeVisible();
  await untilShown(page, javaScriptEnabled, "prn-upgrade-status", "Succeeded");
  await page.getByRole("link", { name: "Back to the configuration" }).click();
  await page.getByRole("link", { name: "Nodes", exact: true }).click();
  for (const node of ["orderer", "peer-1", "peer-2", "gateway"]) {
    await expect(page.locator(`[data-node="${node}"] [data-testid="node-rate-limit"]`)).toHaveText(
      "25 calls per second",
    );
    await expect(page.locator(`[data-node="${node}"] [data-testid="node-storage-limit"]`)).toHaveText("40.00 GB");
  }

  // Change the authorized password: the old one is refused, the new one answers.
  await page.getByRole("link", { name: "Configuration", exact: true }).click();
  await page.getByLabel("New password", { exact: true }).fill("newpass99");
  await page.getByLabel("Confirm the new password").fill("newpass98");
  await page.getByRole("button", { name: "Change the password" }).click();
  await expect(page.getByText("The passwords do not match.")).toBeVisible();
  await page.getByLabel("Confirm the new password").fill("newpass99");
  await page.getByRole("button", { name: "Change the password" }).click();
  await expect(page.getByText(`The authorized password of ${name} was changed.`)).toBeVisible();
  await page.getByRole("link", { name: "Nodes", exact: true }).click();
  await expect(await tryGateway(page, "abc123")).toHaveAttribute("data-status", "401");
  await expect(await tryGateway(page, "newpass99")).toHaveAttribute("data-status", "200");

  // Unsubscribe after confirming: the nodes stop.
  await page.goto(PRN);
  const row = page.getByTestId("prn-row").filter({ hasText: name });
  await expect(row.getByTestId("prn-status")).toHaveText("Running");
  await row.getByRole("button", { name: "Unsubscribe" }).click();
  // It stops paid nodes, so it asks for the project's name (ADR 029); with JavaScript the button waits for it,
  // without, the server refuses a wrong name at its field and asks again.
  const scope = javaScriptEnabled ? page.getByRole("alertdialog") : page.getByTestId("confirm-step");
  const typed = scope.getByLabel(`To confirm, type the project name: ${name}`);
  await typed.fill(`${name}x`);
  if (javaScriptEnabled) {
    await expect(scope.getByRole("button", { name: "Unsubscribe" })).toBeDisabled();
  } else {
    await confirmAfter(page, false, "Unsubscribe");
    await expect(page.getByTestId("confirm-step").getByTestId("field-error")).toHaveText(
      "Type the name exactly as it is shown.",
    );
    await expect(page.getByTestId("prn-row").filter({ hasText: name }).getByTestId("prn-status")).toHaveText("Running");
  }
  await typed.fill(name);
  await confirmAfter(page, javaScriptEnabled, "Unsubscribe");
  await expect(page.getByText(new RegExp(`Project ${name} unsubscribed: its nodes are stopped`))).toBeVisible();
  await expect(page.getByTestId("prn-row").filter({ hasText: name }).getByTestId("prn-status")).toHaveText(
    "Unsubscribed",
  );

  // An unsubscribed project can be deleted (confirmed): it leaves the list, and the status filter still finds it.
  await page.getByTestId("prn-row").filter({ hasText: name }).getByRole("button", { name: "Delete" }).click();
  await confirmAfter(page, javaScriptEnabled, "Delete the project");
  await expect(page.getByText(new RegExp(`Project ${name} deleted: its nodes are stopped`))).toBeVisible();
  await expect(page.getByTestId("empty")).toBeVisible();
  await page.getByLabel("Status").selectOption("5");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByTestId("prn-row").filter({ hasText: name }).getByTestId("prn-status")).toHaveText("Deleted");
});

test("an unpaid dedicated-node bill blocks a new project (payType 2): the list says why; Pay and continue opens the form", async ({
  page,
  request,
}, testInfo) => {
  const user = await userWithBalance(request, "prnblk", testInfo, 1_000);
  // A dedicated-node bill (type 10) waiting for payment before its deadline blocks payType 2 only.
  await api(request, "/test/fixtures", { bills: [{ billType: 10, cycle: 2, totalCents: 300 }] }, user.token);
  await logInAs(page, user.userName, PASSWORD);
  await page.goto(PRN);
  const entry = page.getByTestId("blocked-entry").first();
  await expect(entry).toContainText("New project");
  await expect(entry).toContainText("Blocked by 1 unpaid bill ($3.00).");
  // The form's own address is guarded too (SPEC §7: a refused h5isHasNoPayBillV2 goes home).
  await page.goto(`${PRN}New`);
  await expect(page).toHaveURL(/\/g\/home\/index\?blocked=dedicatedNode&returnTo=/);
  const panel = page.getByTestId("blocked-panel");
  await expect(panel.getByRole("heading")).toHaveText("“Apply for a dedicated node” is blocked by unpaid bills");
  await panel.getByRole("button", { name: "Pay $3.00 and continue" }).click();
  await expect(page).toHaveURL(/\/g\/home\/PrivatedNodesNew$/);
  await expect(page.getByRole("heading", { name: "New dedicated node project", level: 1 })).toBeVisible();
  await page.goto(PRN);
  await expect(page.getByTestId("blocked-entry")).toHaveCount(0);
});

test("refuses a bad name and a short password at their fields, in words, keeping what was typed", async ({
  page,
  request,
}, testInfo) => {
  const user = await userWithBalance(request, "prnbad", testInfo, 10_000);
  await logInAs(page, user.userName, PASSWORD);
  await page.goto(`${PRN}New`);
  await page.getByLabel("Project name").fill("Bad Name1");
  await page.getByLabel("Authorized user").fill("bob");
  await page.getByLabel("Password", { exact: true }).fill("abc");
  await page.getByLabel("Confirm the password").fill("abc");
  await page.getByRole("button", { name: "Pay and create" }).click();
  await expect(page.getByText("3 to 20 lowercase letters.")).toBeVisible();
  await expect(page.getByText("6 to 20 letters and digits.")).toBeVisible();
  await expect(
    page.getByText("Choose a consensus of this framework.").or(page.getByText("This field is required.")).first(),
  ).toBeVisible();
  await expect(page.getByLabel("Project name")).toHaveValue("Bad Name1");
  await expect(page.getByLabel("Authorized user")).toHaveValue("bob");
  await page.goto(PRN);
  await expect(page.getByTestId("empty")).toBeVisible();
});
