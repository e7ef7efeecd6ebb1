import { expect, ready, test } from "./fixtures.ts";
import { api, apiToken, OPERATOR } from "./services-support.ts";
import { createActiveUser, uniqueUser } from "./support.ts";
import { logInAs, PNG, WIZARD, wizardApi } from "./wizard-support.ts";

// Issue 15 (docs/decisions/042): the chaincode market. A user downloads a package (counted), reads its files,
// and uses it in a new service: the wizard starts with the package and its functions, and after the initial
// review the service test job passes it. JavaScript on and off; every project has its own user and service.

test("a market package is downloaded, read, and used in a new service whose test job passes", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const js = testInfo.project.use.javaScriptEnabled !== false;
  const user = await createActiveUser(request, uniqueUser(testInfo, "mkt"));
  await logInAs(page, user.userName, js);

  await page.goto("/g/home/DeveloperCommunity/ChaincodeMarket");
  if (js) await ready(page);
  await expect(page.getByRole("heading", { name: "Chaincode market" })).toBeVisible();
  await page.getByLabel("Chaincode language").selectOption("solidity");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("market-row")).toHaveCount(2);
  await page.getByLabel("Chaincode language").selectOption("go");
  await page.getByRole("button", { name: "Filter" }).click();
  const row = page.getByTestId("market-row").filter({ hasText: "asset_transfer" });
  await expect(row).toContainText("Go");
  const before = Number((await row.getByTestId("downloads").textContent())!.replace(/\D/g, ""));

  // The download is the zip, and it is counted.
  const download = page.waitForEvent("download");
  await row.getByRole("link", { name: "Download asset_transfer" }).click();
  expect((await download).suggestedFilename()).toBe("asset_transfer.zip");
  await page.reload();
  const after = Number(
    (await page
      .getByTestId("market-row")
      .filter({ hasText: "asset_transfer" })
      .getByTestId("downloads")
      .textContent())!.replace(/\D/g, ""),
  );
  expect(after).toBeGreaterThan(before);

  // Its files can be read.
  await page
    .getByTestId("market-row")
    .filter({ hasText: "asset_transfer" })
    .getByRole("link", { name: "Files of asset_transfer" })
    .click();
  await expect(page.getByTestId("market-file").filter({ hasText: "asset/main.go" })).toContainText(
    "func (t *AssetTransfer) transferAsset",
  );

  // "Use in a new service": the wizard names the package; saving the basic information adds it with its functions.
  // Go needs a connected Fabric network (docs/decisions/052): the Node.js entry starts the Fabric service.
  await page.goto("/g/home/DeveloperCommunity/ChaincodeMarket");
  if (js) await ready(page);
  await page.getByLabel("Chaincode language").selectOption("node");
  await page.getByRole("button", { name: "Filter" }).click();
  await page
    .getByTestId("market-row")
    .filter({ hasText: "supply_trace" })
    .getByRole("link", { name: "Files of supply_trace" })
    .click();
  // The package's own page (with JavaScript a client-side navigation: the list, whose rows have a link of the same
  // words each, is on screen until it lands).
  await expect(page).toHaveURL(/ChaincodeMarket\/Package\?marketPackageId=/);
  await page.getByRole("link", { name: "Use in a new service", exact: true }).click();
  await expect(page).toHaveURL(/NewServices\?appState=add&step=basic&market=\d+/);
  await expect(page.getByTestId("market-notice")).toContainText("supply_trace");
  const serviceName = `Assets ${user.userName}`;
  await page.getByLabel("Service name").fill(serviceName);
  await page.getByLabel("Version", { exact: true }).fill("1.0.0");
  await page.getByLabel("Industry").selectOption("logistics");
  await page.getByLabel("Framework").selectOption("fabric");
  await page.getByLabel("Platform type").selectOption("web");
  await page.getByLabel("Description").fill("Assets and their owners.");
  await page.getByLabel("Introduction").fill("Started from the chaincode market.");
  await page.getByLabel("Contact name").fill("Li Lei");
  await page.getByLabel("Contact mobile").fill("+8613912345678");
  await page.getByLabel("Contact email").fill("li@example.com");
  await page.getByLabel("Web URL").fill("https://assets.example.com");
  await page
    .getByLabel("Cover", { exact: true })
    .setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).toHaveURL(/step=packages/);
  await expect(page.getByTestId("wizard-item")).toContainText("supply_trace");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=functions/);
  await expect(page.getByTestId("wizard-item")).toHaveCount(3);
  const appId = Number(new URL(page.url()).searchParams.get("appId"));

  // The rest of the wizard through its /vueapi paths (the wizard's own specs walk its pages).
  const wizard = await wizardApi(request, user.userName);
  const ref = { appState: "add", appId };
  const { draft } = await wizard("draft", ref);
  await wizard("advance", { ...ref, from: "functions" });
  await wizard("addRole", {
    ...ref,
    role: {
      name: "Owner",
      description: "Owns assets",
      functionIds: draft.functions.map((f: { functionId: number }) => String(f.functionId)),
    },
  });
  await wizard("advance", { ...ref, from: "roles" });
  const [node] = await api(request, "/anon/platform/cityNodes", {});
  await wizard("saveNodes", {
    ...ref,
    form: { nodes: [{ cityNodeId: String(node.nodeId), selected: "on", tps: "100", capacityGb: "10", peers: "1" }] },
  });
  await wizard("saveCertificate", { ...ref, form: { certificateMode: "2" } });
  const submitted = await wizard("submit", { ...ref, form: { agreement: "on" } });

  // The operators' initial review schedules the test job, which passes the market's package.
  await api(
    request,
    "/sys/ops/serviceReviews/decide",
    { appVerId: submitted.verId, decision: "approve" },
    await apiToken(request, OPERATOR.userName, OPERATOR.password),
  );
  await expect(async () => {
    const detail = await api(request, "/sys/chainAppInfo/publishedDetail", { appId }, wizard.token);
    expect(detail.contents.testReport?.passed).toBe(true);
  }).toPass({ timeout: 60_000 });
  await page.goto(`${WIZARD}?appState=add&appId=${appId}`);
  await expect(page.getByTestId("wizard-status")).toContainText("Pending review");
});
