import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { custodyAccountWithGas, enabledProject, userWithBalance } from "./public-chain-support.ts";
import { logInAs } from "./services-support.ts";
import { PASSWORD } from "./support.ts";

/**
 * The online IDE (SPEC §2 IDEServices and /ide/portal; docs/decisions/044), with JavaScript on (CodeMirror) and
 * off (the plain textarea): a workspace from a template, an edit that does not compile (the error at its file and
 * line), the fix, a deployment to the user's project from a custody account, a read, a write with its
 * transaction, receipt and decoded event, and the read again.
 */

const FILE = "contracts/SimpleStorage.sol";

/** The editor's whole content replaced: in CodeMirror with JavaScript, in the textarea without. */
async function setSource(page: Page, javaScriptEnabled: boolean, text: string) {
  if (javaScriptEnabled) {
    const editor = page.locator(".cm-content");
    await expect(editor).toBeVisible();
    await editor.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.press("Delete");
    await page.keyboard.insertText(text);
  } else {
    await page.getByRole("textbox", { name: `Content of ${FILE}` }).fill(text);
  }
}

/** The content the editor's form posts: its textarea (which CodeMirror writes back to). */
const sourceOf = (page: Page) => page.locator("textarea[name=content]").inputValue();

test("template → edit → compile error → fix → deploy → call", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(180_000);
  const user = await userWithBalance(request, "ide", testInfo, 3_000);
  const projectId = await enabledProject(request, user.token, `IDE ${testInfo.project.name}`);
  await custodyAccountWithGas(request, user.token, projectId, "Deployer");
  await logInAs(page, user.userName, PASSWORD);

  await page.getByRole("link", { name: "IDE", exact: true }).click();
  await expect(page.getByRole("heading", { name: "IDE workspaces" })).toBeVisible();
  await expect(page.getByTestId("empty")).toBeVisible();
  // A name is required: refused at its field.
  await page.getByRole("button", { name: "Create and open" }).click();
  await expect(page.getByText("This field is required.").first()).toBeVisible();
  await page.getByLabel("Name").fill("Storage lab");
  await page.getByLabel(/Simple storage/).check();
  await page.getByRole("button", { name: "Create and open" }).click();

  await expect(page).toHaveURL(/\/ide\/portal\?workspaceId=\d+/);
  await expect(page.getByRole("heading", { name: "Storage lab" })).toBeVisible();
  await expect(page.getByTestId("editor-file")).toHaveText(FILE);
  await expect(page.getByTestId("grant")).toContainText("IDE authorisation valid until");
  const original = await sourceOf(page);
  expect(original).toContain("contract SimpleStorage");

  // An undeclared name on line 17: the error is shown beside the file, at its line.
  const broken = original.replace("value = next;", "value = nxt;");
  expect(broken.split("\n")[16]).toContain("value = nxt;");
  await setSource(page, javaScriptEnabled, broken);
  expect(await sourceOf(page)).toBe(broken);
  await page.getByRole("button", { name: "Save and compile" }).click();
  await expect(page.getByTestId("flash")).toHaveText("The compiler found errors: see the messages beside the file.");
  const error = page.getByTestId("diagnostic-error").first();
  await expect(error).toContainText(`Error · ${FILE} · line 17, column 17`);
  await expect(error).toContainText("Undeclared identifier");
  await expect(page.getByTestId("file-tree")).toContainText("Errors: 1");

  // The fix compiles; the deployment form offers the contract.
  await setSource(page, javaScriptEnabled, broken.replace("value = nxt;", "value = next;"));
  await page.getByRole("button", { name: "Save and compile" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Compiled without errors.");
  await expect(page.getByTestId("compile-clean")).toBeVisible();

  const deploy = page.getByTestId("deploy-form");
  await deploy.getByLabel("Contract", { exact: true }).selectOption({ label: `SimpleStorage (${FILE})` });
  // Index 0 is the placeholder, 1 the test network, 2 the project's custody account.
  await deploy.getByLabel("Deploy to").selectOption({ index: 2 });
  await deploy.getByLabel("Constructor arguments").fill("41");
  await deploy.getByRole("button", { name: "Deploy", exact: true }).click();
  await expect(page.getByTestId("flash")).toHaveText("The deployment has started.");
  const deployments = page.getByTestId("deployments");
  if (javaScriptEnabled) {
    await expect(deployments.getByTestId("contract-status").first()).toHaveText("Deployed", { timeout: 60_000 });
  } else {
    await expect
      .poll(
        async () => {
          await page.reload();
          return deployments.getByTestId("contract-status").first().innerText();
        },
        { timeout: 60_000, intervals: [1_000] },
      )
      .toBe("Deployed");
  }
  await expect(deployments.getByTestId("deployed-address")).toHaveText(/^0x[0-9a-fA-F]{40}$/);

  const get = page.getByRole("region", { name: "get()" });
  await get.getByRole("button", { name: "Call" }).click();
  await expect(get.getByTestId("call-output")).toHaveText("41");

  const set = page.getByRole("region", { name: "set(uint256)" });
  await set.getByLabel("next (uint256)").fill("7");
  await set.getByRole("button", { name: "Send transaction" }).click();
  await expect(set.getByTestId("tx-hash")).toHaveText(/^0x[0-9a-f]{64}$/);
  await expect(set.getByTestId("receipt")).toContainText("Receipt: success in block");
  await expect(set.getByTestId("events")).toContainText("ValueChanged");
  await expect(set.getByTestId("events")).toContainText("previous=41, current=7");

  const again = page.getByRole("region", { name: "get()" });
  await again.getByRole("button", { name: "Call" }).click();
  await expect(again.getByTestId("call-output")).toHaveText("7");
});

test("deploy to the test network from the user's test account, then a read and a write on it", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  // No project nor chain account: the test network needs neither.
  const user = await userWithBalance(request, "idetn", testInfo, 100);
  await logInAs(page, user.userName, PASSWORD);
  await page.goto("/g/home/IDEServices");
  await page.getByLabel("Name").fill("Test network lab");
  await page.getByLabel(/Simple storage/).check();
  await page.getByRole("button", { name: "Create and open" }).click();
  await expect(page.getByTestId("editor-file")).toHaveText(FILE);
  await page.getByRole("button", { name: "Save and compile" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Compiled without errors.");

  const deploy = page.getByTestId("deploy-form");
  // Where to is required: refused at its field.
  await deploy.getByRole("button", { name: "Deploy", exact: true }).click();
  await expect(deploy.getByText("Choose a chain account.")).toBeVisible();
  await deploy.getByLabel("Deploy to").selectOption({ label: "Test network" });
  await deploy.getByLabel("Constructor arguments").fill("5");
  await deploy.getByRole("button", { name: "Deploy", exact: true }).click();
  await expect(page.getByTestId("flash")).toHaveText("Deployed to the test network.");
  const deployments = page.getByTestId("deployments");
  await expect(deployments.getByTestId("contract-status").first()).toHaveText("Deployed");
  await expect(deployments.getByTestId("deployment-network").first()).toContainText("Test network (test-network");
  await expect(deployments.getByTestId("deployed-address")).toHaveText(/^0x[0-9a-fA-F]{40}$/);

  const get = page.getByRole("region", { name: "get()" });
  await get.getByRole("button", { name: "Call" }).click();
  await expect(get.getByTestId("call-output")).toHaveText("5");
  const set = page.getByRole("region", { name: "set(uint256)" });
  await expect(set).toContainText("Signed by your test-network account");
  await set.getByLabel("next (uint256)").fill("8");
  await set.getByRole("button", { name: "Send transaction" }).click();
  await expect(set.getByTestId("tx-hash")).toHaveText(/^0x[0-9a-f]{64}$/);
  await expect(set.getByTestId("receipt")).toContainText("Receipt: success in block");
  await expect(set.getByTestId("events")).toContainText("previous=5, current=8");
  const again = page.getByRole("region", { name: "get()" });
  await again.getByRole("button", { name: "Call" }).click();
  await expect(again.getByTestId("call-output")).toHaveText("8");
});

test("workspaces are renamed, and deleted only once confirmed", async ({ page, request }, testInfo) => {
  const user = await userWithBalance(request, "idews", testInfo, 100);
  await logInAs(page, user.userName, PASSWORD);
  await page.goto("/g/home/IDEServices");
  await page.getByLabel("Name").fill("Token lab");
  await page.getByLabel(/ERC-20 token/).check();
  await page.getByRole("button", { name: "Create and open" }).click();
  await expect(page.getByTestId("editor-file")).toHaveText("contracts/PortalToken.sol");
  await page.getByRole("link", { name: "← All workspaces" }).click();

  const row = page.getByTestId("workspace-row");
  await expect(row).toHaveCount(1);
  await row.getByText("Rename").click();
  await row.getByLabel("New name").fill("ERC-20 lab");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Renamed.");
  await expect(row.getByRole("link", { name: "ERC-20 lab" })).toBeVisible();

  // Deleting asks first (a dialog with JavaScript, a confirm step without); cancelling keeps the workspace.
  await row.getByRole("button", { name: "Delete" }).click();
  const ask = page.getByRole("alertdialog");
  await expect(ask).toContainText('The workspace "ERC-20 lab" and all its files will be deleted.');
  await ask.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Deleted.");
  await expect(page.getByTestId("empty")).toBeVisible();
});
