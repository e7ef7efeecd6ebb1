import { expect, test } from "./fixtures.ts";
import { logInAs, OPERATOR } from "./services-support.ts";

// docs/decisions/094 addendum: the operators' chain nodes page exists only when the chains run on nodes by URL
// (CHAIN_NODES or CHAIN_RPC_URL). The e2e run is on the embedded engine: no tab, no tile, and the page is a 404.
// The page itself is tested on the Hardhat nodes (tests/backend/chain-nodes.test.ts). JavaScript on and off.

test("on the embedded engine the chain nodes page is hidden and answers 404", async ({ page }) => {
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/operations/TestNetwork");
  const tabs = page.getByRole("navigation", { name: "Operations" });
  await expect(tabs.getByRole("link", { name: "Test network" })).toBeVisible();
  await expect(tabs.getByRole("link", { name: "Chain nodes" })).toHaveCount(0);
  await page.goto("/g/home/index");
  await expect(page.getByTestId("ops-group-platform")).toBeVisible();
  await expect(page.getByTestId("ops-group-platform").getByRole("link", { name: "Chain nodes" })).toHaveCount(0);
  const response = await page.goto("/g/home/operations/ChainNodes");
  expect(response?.status()).toBe(404);
});
