import { expect, ready, test } from "./fixtures.ts";
import { createActiveUser, uniqueUser } from "./support.ts";
import { basicInfo, chaincodeZip, logInAs, PNG, WIZARD, wizardApi } from "./wizard-support.ts";

// docs/decisions/052 (issue 28, slice 1): before choosing and paying, the wizard says which languages run where; the
// package language defaults to one that runs for the framework, with a hint for its main function path; the
// server refuses a language that cannot run, at the field (400 from the form). With JavaScript on and off.

const REFUSED = "FISCO BCOS, CITA and XuperChain run Solidity contracts only.";

test("the wizard's languages: what runs where, the default and its hint, and a refusal at the field", async ({
  page,
  request,
}, testInfo) => {
  const js = testInfo.project.use.javaScriptEnabled !== false;
  const user = await createActiveUser(request, uniqueUser(testInfo, "xlang"));
  await logInAs(page, user.userName, js);

  // Before a framework is chosen, the basic step says what runs where.
  await page.goto(`${WIZARD}?appState=add&step=basic`);
  if (js) await ready(page);
  const support = page.getByTestId("language-support");
  await expect(support).toContainText("Solidity on FISCO BCOS, CITA and XuperChain");
  await expect(support).toContainText(
    "Node.js on Hyperledger Fabric: installed on the embedded Fabric peer, one peer per city node;",
  );
  await expect(support).toContainText(
    "Go and Java on Hyperledger Fabric need a Fabric network that the operators of this portal have connected",
  );

  // A XuperChain draft (the basic form itself is walked in wizard.spec.ts): Solidity is the default and only choice.
  const wizard = await wizardApi(request, user.userName);
  const basic = (prefix: string, framework: string) => ({ ...basicInfo(user.userName, prefix), framework });
  const xuper = await wizard("saveBasic", {
    appState: "add",
    basic: basic("Xuper", "xuperchain"),
    cover: await wizard.upload("cover", "cover.png", PNG),
  });
  const packagesOf = (appId: number) => `${WIZARD}?appState=add&appId=${appId}&step=packages`;
  await page.goto(packagesOf(xuper.appId));
  if (js) await ready(page);
  await expect(page.getByLabel("Language", { exact: true }).and(page.locator("select"))).toHaveValue("solidity");
  await expect(page.getByLabel("Language", { exact: true }).and(page.locator("select")).locator("option")).toHaveText([
    "Solidity (FISCO BCOS, CITA, XuperChain)",
  ]);
  await expect(page.getByText("e.g. contracts/Ledger.sol")).toBeVisible();
  await expect(page.getByTestId("language-support")).toContainText(
    "This portal has none, so Go and Java are not offered.",
  );

  // The server checks again: Go posted to that form is refused at the language field, 400.
  const refused = await page.request.post(packagesOf(xuper.appId), {
    multipart: {
      intent: "addPackage",
      name: "ledger_cc",
      version: "1.0.0",
      language: "go",
      initParams: "",
      mainPath: "chaincode/main.go",
      file: { name: "ledger.zip", mimeType: "application/zip", buffer: chaincodeZip() },
    },
  });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain(REFUSED);

  // A Fabric draft: Node.js is the default, with its hint; with its Node.js package the framework cannot become
  // XuperChain, and the page says why at the field.
  const fabric = await wizard("saveBasic", {
    appState: "add",
    basic: basic("Fabric", "fabric"),
    cover: await wizard.upload("cover", "cover.png", PNG),
  });
  await page.goto(packagesOf(fabric.appId));
  if (js) await ready(page);
  await expect(page.getByLabel("Language", { exact: true }).and(page.locator("select"))).toHaveValue("node");
  await expect(page.getByLabel("Language", { exact: true }).and(page.locator("select")).locator("option")).toHaveText([
    "Node.js",
  ]);
  await expect(page.getByText("e.g. lib/chaincode.js")).toBeVisible();
  await wizard("addPackage", {
    appState: "add",
    appId: fabric.appId,
    pkg: { name: "asset_cc", version: "1.0.0", language: "node", mainPath: "asset/index.js" },
    file: await wizard.upload("chaincode", "asset.zip", chaincodeZip()),
  });
  await page.goto(`${WIZARD}?appState=add&appId=${fabric.appId}&step=basic`);
  if (js) await ready(page);
  await page.getByLabel("Framework").selectOption("xuperchain");
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page.getByText(REFUSED).first()).toBeVisible();
  await expect(page).toHaveURL(/step=basic/);
});
