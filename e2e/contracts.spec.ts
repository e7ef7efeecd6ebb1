import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { custodyAccountWithGas, enabledProject, userWithBalance } from "./public-chain-support.ts";
import { logInAs } from "./services-support.ts";
import { PASSWORD } from "./support.ts";

/**
 * Contract deployment on an open-alliance project (SPEC §4 Contract deployment, §5 Contract name; issue 12),
 * with JavaScript on and off: a bad name is refused at its field with the source kept; a compile error is the
 * deployment's failure with the compiler's message; a contract compiled from source is deployed on the project's
 * chain, its read functions answer eth_call and its constructor's event is decoded.
 */

const PC = "/g/home/PermissionlessServices";

const GREETER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

contract Greeter {
  event Greeted(address indexed by, string text);
  string public greeting;

  constructor(string memory text) {
    greeting = text;
    emit Greeted(msg.sender, text);
  }

  function twice(uint256 x) external pure returns (uint256) {
    return x * 2;
  }
}
`;

const BROKEN = "pragma solidity ^0.8.0;\ncontract Broken { function f( }\n";

/** The list row of contract `name` once its deployment has ended (the page refreshes itself with JavaScript; reloaded without). */
async function settledRow(page: Page, name: string, javaScriptEnabled: boolean, status: string) {
  const row = page.getByTestId("contract-row").filter({ has: page.getByRole("link", { name, exact: true }) });
  if (javaScriptEnabled) {
    await expect(row.getByTestId("contract-status")).toHaveText(status, { timeout: 60_000 });
  } else {
    await expect
      .poll(
        async () => {
          await page.reload();
          return row.getByTestId("contract-status").innerText();
        },
        { timeout: 60_000, intervals: [1_000] },
      )
      .toBe(status);
  }
  return row;
}

async function deploy(page: Page, name: string, source: string, args: string) {
  await page.getByLabel("Contract name").fill(name);
  await page.getByRole("textbox", { name: "Solidity source" }).fill(source);
  await page.getByLabel("Constructor arguments").fill(args);
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
}

test("deploys a contract from Solidity source, calls its read functions and reads its event", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(180_000);
  const user = await userWithBalance(request, "pcsol", testInfo, 3_000);
  const projectId = await enabledProject(request, user.token, `Contracts ${testInfo.project.name}`);
  await custodyAccountWithGas(request, user.token, projectId, "Deployer");
  await logInAs(page, user.userName, PASSWORD);

  await page.goto(`${PC}/Project?projectId=${projectId}`);
  await page.getByRole("link", { name: "Contracts" }).click();
  await expect(page.getByRole("heading", { name: `Contracts of Contracts ${testInfo.project.name}` })).toBeVisible();
  await expect(page.getByTestId("empty")).toBeVisible();

  // §5: a name with a leading space is refused at its field; the source and the arguments stay typed.
  await deploy(page, " Greeter", GREETER, "Hello chain");
  await expect(page.getByText("A contract name may not start or end with a space.")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Solidity source" })).toHaveValue(GREETER);
  await expect(page.getByLabel("Constructor arguments")).toHaveValue("Hello chain");

  // A compile error is the deployment's failure, with the compiler's message.
  await deploy(page, "Broken", BROKEN, "");
  await expect(page.getByTestId("flash")).toHaveText("Broken is queued for deployment. Its status updates below.");
  const broken = await settledRow(page, "Broken", javaScriptEnabled, "Failed");
  await expect(broken.getByTestId("fail-reason")).toContainText(/ParserError|Expected/);

  await deploy(page, "Greeter", GREETER, "Hello chain");
  const row = await settledRow(page, "Greeter", javaScriptEnabled, "Deployed");
  await expect(row.getByTestId("contract-address")).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await row.getByRole("link", { name: "Greeter", exact: true }).click();

  await expect(page).toHaveTitle(/^Greeter · Contract · /);
  await expect(page.getByRole("heading", { name: "Greeter", exact: false }).first()).toBeVisible();
  await expect(page.getByTestId("abi-functions")).toContainText("twice");
  await expect(page.getByTestId("abi-events")).toContainText("Greeted");

  const greeting = page.getByTestId("read-function").filter({ has: page.getByRole("heading", { name: "greeting()" }) });
  await greeting.getByRole("button", { name: "Call" }).click();
  await expect(greeting.getByTestId("call-result")).toContainText("Hello chain");

  const twice = page
    .getByTestId("read-function")
    .filter({ has: page.getByRole("heading", { name: "twice(uint256)" }) });
  // A value that does not fit the parameter is refused at its input, kept as typed.
  await twice.getByLabel("x (uint256)").fill("twenty-one");
  await twice.getByRole("button", { name: "Call" }).click();
  await expect(twice.getByText("The arguments do not fit the function's parameters.")).toBeVisible();
  await expect(twice.getByLabel("x (uint256)")).toHaveValue("twenty-one");
  await twice.getByLabel("x (uint256)").fill("21");
  await twice.getByRole("button", { name: "Call" }).click();
  await expect(twice.getByTestId("call-result")).toContainText("42");

  // The constructor's event, decoded with the ABI.
  const event = page.getByTestId("event-row").first();
  await expect(event.getByTestId("event-name")).toHaveText("Greeted");
  await expect(event).toContainText("Hello chain");
});

test("democompany's demo token is deployed and answers its read functions", async ({ page }) => {
  await logInAs(page, "democompany", "Demo12!@pass");
  await page.goto(`${PC}/Home`);
  await page
    .getByTestId("project-row")
    .filter({ hasText: "Supply-chain DApp" })
    .getByRole("link", { name: "Supply-chain DApp" })
    .click();
  await page.getByRole("link", { name: "Contracts" }).click();
  const row = page.getByTestId("contract-row").filter({ hasText: "Demo Token" });
  await expect(row.getByTestId("contract-status")).toHaveText("Deployed");
  await row.getByRole("link", { name: "Demo Token", exact: true }).click();
  const symbol = page.getByTestId("read-function").filter({ has: page.getByRole("heading", { name: "symbol()" }) });
  await symbol.getByRole("button", { name: "Call" }).click();
  await expect(symbol.getByTestId("call-result")).toContainText("DEMO");
  const transfer = page.getByTestId("event-row").last();
  await expect(transfer.getByTestId("event-name")).toHaveText("Transfer");

  // Its transaction (issue 35 §2, docs/decisions/089): the deployment, with the token's Transfer decoded by its ABI.
  const hash = (await transfer.getByRole("link").textContent())!.trim();
  await transfer.getByRole("link", { name: hash }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Transaction" })).toBeVisible();
  await expect(page.getByTestId("tx-hash")).toHaveText(hash);
  await expect(page.getByTestId("tx-status")).toHaveText("Succeeded");
  await expect(page.getByRole("link", { name: "Demo Token" })).toBeVisible();
  await expect(page.getByTestId("event-row").getByTestId("event-name")).toHaveText(["Transfer"]);

  // The same transaction from the top bar's search box: found as the contract's deployment and as a transaction.
  const box = page.getByRole("search").getByLabel("Search this account");
  await box.fill(hash);
  await box.press("Enter");
  const found = page.getByTestId("search-chain").getByRole("link", { name: hash });
  await expect(found).toHaveCount(2);
  await found.and(page.locator('a[href*="/Transaction?hash="]')).click();
  await expect(page.getByTestId("tx-hash")).toHaveText(hash);

  // In Chinese.
  await page.goto(
    `/g/lang?lng=zh-CN&redirectTo=${encodeURIComponent(new URL(page.url()).pathname + new URL(page.url()).search)}`,
  );
  await expect(page.getByRole("heading", { level: 1, name: "交易" })).toBeVisible();
  await expect(page.getByTestId("tx-status")).toHaveText("成功");
  await expect(page.getByRole("heading", { name: "本交易的事件" })).toBeVisible();
});

const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

contract Counter {
  event Changed(address indexed by, uint256 value);
  uint256 public value;

  function set(uint256 next) external {
    value = next;
    emit Changed(msg.sender, next);
  }
}
`;

// Issue 30 item 15b: the contract page sends a write function from a custody account of the project and shows
// the receipt and the decoded events. A refused write is answered in place (a 400, what was typed kept); a sent one
// redirects (303) to the page, which shows the result once, so reloading it never sends the transaction again
// (JavaScript on and off).
test("sends a write function from a custody account: the receipt and the decoded event once, then the new value", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(180_000);
  const user = await userWithBalance(request, "pcwrite", testInfo, 3_000);
  const projectId = await enabledProject(request, user.token, `Writes ${testInfo.project.name}`);
  await custodyAccountWithGas(request, user.token, projectId, "Signer");
  await logInAs(page, user.userName, PASSWORD);

  await page.goto(`${PC}/Contracts?projectId=${projectId}`);
  await deploy(page, "Counter", COUNTER, "");
  const row = await settledRow(page, "Counter", javaScriptEnabled, "Deployed");
  await row.getByRole("link", { name: "Counter", exact: true }).click();
  const changed = page.getByTestId("event-row").filter({ has: page.getByTestId("event-name").getByText("Changed") });
  await expect(page.getByTestId("events-empty")).toBeVisible();

  const set = page.getByTestId("write-function").filter({ has: page.getByRole("heading", { name: "set(uint256)" }) });
  await expect(set.getByLabel("Custody account")).toContainText("Signer");
  // A value that does not fit the parameter is refused at its input, kept as typed, on the page that was posted.
  const posted = page.waitForResponse((r) => r.request().method() === "POST");
  await set.getByLabel("next (uint256)").fill("seven");
  await set.getByRole("button", { name: "Send transaction" }).click();
  if (!javaScriptEnabled) expect((await posted).status()).toBe(400);
  await expect(set.getByText("The arguments do not fit the function's parameters.")).toBeVisible();
  await expect(set.getByLabel("next (uint256)")).toHaveValue("seven");
  await expect(changed).toHaveCount(0);

  const sent = page.waitForResponse((r) => r.request().method() === "POST");
  await set.getByLabel("next (uint256)").fill("7");
  await set.getByRole("button", { name: "Send transaction" }).click();
  // Without JavaScript the browser follows the 303 itself; with it, Remix does (its data request answers 204).
  if (!javaScriptEnabled) expect((await sent).status()).toBe(303);
  const result = set.getByTestId("call-result");
  await expect(result.getByTestId("tx-hash")).toHaveText(/^0x[0-9a-f]{64}$/);
  const hash = await result.getByTestId("tx-hash").innerText();
  await expect(result.getByTestId("receipt")).toContainText(/Receipt: success in block \d+, gas used \d+/);
  await expect(result.getByTestId("events")).toContainText("Changed");
  await expect(result.getByTestId("events")).toContainText("7");
  await expect(page.getByTestId("flash")).toHaveText(
    new RegExp(`^Transaction ${hash.slice(0, 10)}… confirmed in block \\d+\\.$`),
  );
  await expect(page).toHaveURL(new RegExp(`/Contract\\?contractId=\\d+$`));
  await expect(changed).toHaveCount(1);

  // Reloading the answer reads the page again: the result and the flash were shown once, nothing is sent again.
  await page.reload();
  await expect(page.getByRole("heading", { name: "set(uint256)" })).toBeVisible();
  await expect(set.getByTestId("call-result")).toHaveCount(0);
  await expect(page.getByTestId("flash")).toHaveCount(0);
  await expect(changed).toHaveCount(1);

  const value = page.getByTestId("read-function").filter({ has: page.getByRole("heading", { name: "value()" }) });
  await value.getByRole("button", { name: "Call" }).click();
  await expect(value.getByTestId("call-result")).toContainText("7");
  await expect(changed).toHaveCount(1);
});
