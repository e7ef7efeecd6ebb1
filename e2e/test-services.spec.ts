import { readFileSync } from "node:fs";
import { strToU8, zipSync } from "fflate";
import { expect, test } from "./fixtures.ts";
import { logInAs } from "./services-support.ts";
import { createActiveUser, PASSWORD, uniqueUser } from "./support.ts";

// docs/decisions/034: a test service from Solidity source through its deployment on the test network to its
// access parameters, and a source the compiler refuses shows the compiler's reason and a suggestion. Runs with
// JavaScript on and off (the detail page refreshes itself with JavaScript; without, the test reloads it).

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Greeter {
  string public greeting;
  constructor(string memory g) { greeting = g; }
}`;

async function createAndDeploy(
  page: import("@playwright/test").Page,
  name: string,
  source: string,
  initParams: string,
) {
  await page.goto("/g/home/TestServices");
  await page.getByRole("link", { name: "New test service" }).first().click();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Version").fill("1.0.0");
  await page.getByLabel("Solidity source", { exact: true }).first().check();
  await page.getByRole("textbox", { name: "Solidity source" }).fill(source);
  await page.getByLabel("Init params").fill(initParams);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByTestId("test-service-status")).toHaveText("Not deployed");
  await page.getByRole("button", { name: "Start deploying" }).click();
  await expect(page.getByTestId("test-service-status")).not.toHaveText("Not deployed");
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("test-service-status")).not.toHaveText("Deploying", { timeout: 1_000 });
  }).toPass({ timeout: 90_000 });
}

test("a test service goes from source to its access parameters; a failing one shows its reason", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const user = await createActiveUser(request, uniqueUser(testInfo, "tsv"));
  await logInAs(page, user.userName, PASSWORD);
  await page.goto("/g/home/TestServices");
  await expect(page.getByTestId("empty")).toBeVisible();

  await createAndDeploy(page, "Greeter e2e", SOURCE, "hello");
  await expect(page.getByTestId("test-service-status")).toHaveText("Deployment successful");
  await expect(page.getByTestId("contract-address")).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  const accessUrl = (await page.getByTestId("access-url").textContent())!;
  expect(accessUrl).toMatch(/\/chain\/test\/[A-Za-z0-9_-]{43}$/);
  const answer = await request.post(new URL(accessUrl).pathname, {
    data: { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] },
  });
  expect(answer.status()).toBe(200);
  expect((await answer.json()).result).toMatch(/^0x/);
  // The test identity's private key downloads as a PEM file.
  await page.getByText("Identity certificate").click();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download the identity's private key" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^TS[0-9A-F]{16}-1\.0\.0-identity-key\.pem$/);
  expect(readFileSync((await file.path())!, "utf8")).toContain("BEGIN PRIVATE KEY");

  await createAndDeploy(
    page,
    "Broken e2e",
    SOURCE.replace("string public greeting;", "string public greeting"),
    "hello",
  );
  await expect(page.getByTestId("test-service-status")).toHaveText("Deployment failed");
  await expect(page.getByTestId("fail-reason")).toContainText("ParserError");
  await expect(page.getByTestId("suggestion")).toContainText("Fix the source where the compiler points");

  await page.goto("/g/home/TestServices");
  await expect(page.getByTestId("test-service-row")).toHaveCount(2);
});

/** A Node.js chaincode for Fabric (docs/decisions/069): Init stores a greeting; get and put read and write keys. */
function greeterChaincode(): Buffer {
  const js = `"use strict";
const { Contract } = require("fabric-contract-api");
class Greeter extends Contract {
  async init(ctx, value) { await ctx.stub.putState("greeting", Buffer.from(value)); }
  async get(ctx, key) { return (await ctx.stub.getState(key)).toString(); }
  async put(ctx, key, value) { await ctx.stub.putState(key, Buffer.from(value)); return value; }
}
module.exports.contracts = [Greeter];
`;
  const manifest = JSON.stringify({
    name: "greeter",
    version: "1.0.0",
    main: "index.js",
    dependencies: { "fabric-contract-api": "2.5.8", "fabric-shim": "2.5.8" },
  });
  return Buffer.from(zipSync({ "package.json": strToU8(manifest), "index.js": strToU8(js) }));
}

test("a Fabric test service runs its Node.js chaincode: query and invoke from its page; delete drops it", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const user = await createActiveUser(request, uniqueUser(testInfo, "tsf"));
  await logInAs(page, user.userName, PASSWORD);
  await page.goto("/g/home/TestServices/TestServicesNew");
  await page.getByLabel("Name").fill("Fabric greeter e2e");
  await page.getByLabel("Version").fill("1.0.0");
  await page.getByLabel("Platform").selectOption("fabric");
  await page.getByLabel("Chaincode package (.zip: .sol files, or Node.js on Fabric)").check();
  await page
    .getByLabel("Chaincode package", { exact: true })
    .setInputFiles({ name: "greeter.zip", mimeType: "application/zip", buffer: greeterChaincode() });
  await page.getByLabel("Init params").fill("init,hello");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByTestId("test-service-status")).toHaveText("Not deployed");
  await page.getByRole("button", { name: "Start deploying" }).click();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("test-service-status")).toHaveText("Deployment successful", { timeout: 1_000 });
  }).toPass({ timeout: 90_000 });

  const console = page.getByTestId("chaincode-console");
  await console.getByLabel("Function name").fill("get");
  await console.getByLabel("Arguments").fill("greeting");
  await console.getByRole("button", { name: "Query" }).click();
  await expect(page.getByTestId("chaincode-payload")).toHaveText("hello");
  await expect(page.getByTestId("chaincode-status")).toContainText("Simulated");
  await page.getByTestId("chaincode-console").getByLabel("Function name").fill("put");
  await page.getByTestId("chaincode-console").getByLabel("Arguments").fill("greeting\nbye");
  await page.getByTestId("chaincode-console").getByRole("button", { name: "Invoke" }).click();
  await expect(page.getByTestId("chaincode-status")).toContainText("validation code 0");
  await page.getByTestId("chaincode-console").getByLabel("Function name").fill("get");
  await page.getByTestId("chaincode-console").getByLabel("Arguments").fill("greeting");
  await page.getByTestId("chaincode-console").getByRole("button", { name: "Query" }).click();
  await expect(page.getByTestId("chaincode-payload")).toHaveText("bye");

  await page.getByRole("button", { name: "Delete" }).click();
  // The confirmation: a dialog with JavaScript (after the page's buttons), a step at the page's top without.
  const confirmDelete = page.getByRole("button", { name: "Delete" });
  await (testInfo.project.name === "nojs" ? confirmDelete.first() : confirmDelete.last()).click();
  await expect(page).toHaveURL(/\/g\/home\/TestServices$/);
  await expect(page.getByTestId("test-service-row")).toHaveCount(0);
});
