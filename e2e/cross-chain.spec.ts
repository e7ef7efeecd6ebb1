import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { api, apiToken, logInAs, OPERATOR, publisherWithService } from "./services-support.ts";
import { decideInQueue, PASSWORD } from "./support.ts";

/**
 * Cross-chain services (issue 17), with JavaScript on and off: a publisher with a running EVM service opens it to
 * cross-chain with protocol 1 (the second protocol's missing APPCode is refused at its field first), an operator
 * approves it in Operations, the publisher sends a sample message to the open-alliance chain, sees the relayer's
 * call record (success, both transaction hashes) on the page, in the call's view and in the CSV export, and finds
 * the live state on the service detail's cross-chain tab. The second protocol is refused (§8) on a service whose
 * city nodes do not all support it, keeping what was typed; on nodes that do, its NFT sample is delivered.
 */

const CROSS = "/g/home/CrossChainService";

/** A confirmed action: the dialog's button with JavaScript, the confirm step's without. */
async function confirmAfter(page: Page, javaScriptEnabled: boolean, confirmLabel: string) {
  const scope = javaScriptEnabled ? page.getByRole("alertdialog") : page.getByTestId("confirm-step");
  await scope.getByRole("button", { name: confirmLabel }).click();
}

async function reloadUntil(page: Page, check: () => Promise<boolean>, timeout = 60_000) {
  await expect
    .poll(
      async () => {
        if (await check()) return true;
        await page.reload();
        return check();
      },
      { timeout, intervals: [500, 1_000, 2_000] },
    )
    .toBe(true);
}

test("opens a service to cross-chain, gets it approved, sends a sample message and sees and exports its call", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(180_000);
  const svc = await publisherWithService(request, "xc", testInfo, { verState: 25, framework: "fisco", nodeCount: 1 });
  await logInAs(page, svc.user.userName, PASSWORD);

  // InterchainServices is the Index; nothing is open yet.
  await page.goto("/g/home/InterchainServices");
  await expect(page).toHaveURL(new RegExp(`${CROSS}/Index$`));
  await expect(page.getByRole("heading", { name: "Cross-chain services", level: 1 })).toBeVisible();
  await expect(page.getByTestId("empty")).toBeVisible();
  await page.getByTestId("empty").getByRole("link", { name: "Open a service to cross-chain" }).click();

  // SelectService: the running service can be chosen.
  await expect(page.getByRole("heading", { name: "Choose a service", level: 1 })).toBeVisible();
  const row = page.getByTestId("selectable-row").filter({ hasText: svc.name });
  await row.getByRole("link", { name: `Choose ${svc.name}` }).click();

  // Dredge: the second protocol without an APPCode is refused at the field; then protocol 1.
  await expect(page.getByRole("heading", { name: "Open to cross-chain", level: 1 })).toBeVisible();
  await page.getByTestId("protocol-2").click();
  const appCode = page.getByRole("textbox", { name: "APPCode" });
  await expect(appCode).toBeVisible();
  await appCode.fill("");
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(appCode).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("This field is required.")).toBeVisible();
  await expect(page.locator('input[name="protocol"][value="2"]')).toBeChecked();
  await page.getByTestId("protocol-1").click();
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.getByTestId("flash")).toContainText("is pending activation");
  const listed = page.getByTestId("cross-row").filter({ hasText: svc.name });
  await expect(listed.getByTestId("cross-status")).toHaveText("Pending activation");

  // An operator approves it.
  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/operations/CrossChainReviews");
  const item = page.getByTestId("cross-review").filter({ hasText: svc.name });
  await expect(item.getByTestId("cross-status")).toHaveText("Pending activation");
  await decideInQueue(page, item, "Approve");
  // Approving deploys the protocol's contracts before it answers (10 s on a loaded machine).
  await expect(page.getByTestId("flash")).toHaveText("Decision saved: approved.", { timeout: 30_000 });
  await expect(item).toHaveCount(0);

  // The publisher sends a sample message to the open-alliance chain; the relayer delivers it.
  await logInAs(page, svc.user.userName, PASSWORD);
  await page.goto(`${CROSS}/Index`);
  await expect(listed.getByTestId("cross-status")).toHaveText("Activated");
  await listed.getByRole("link", { name: svc.name }).click();
  await expect(page.getByTestId("cross-state").getByTestId("cross-status")).toHaveText("Activated");
  await expect(page.getByTestId("cross-contract").first()).toContainText(/0x[0-9a-fA-F]{40}/);
  const send = page.getByRole("region", { name: "Send a sample message" });
  await send.getByLabel("Target chain").selectOption({ label: "Open-alliance chain (open-alliance)" });
  await send.getByLabel("Payload").fill(`hello from ${testInfo.project.name}`);
  await send.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("flash")).toContainText("Message sent on the source chain");
  const call = page.getByTestId("call-row").first();
  await reloadUntil(
    page,
    async () =>
      (await call
        .getByTestId("call-status")
        .textContent()
        .catch(() => null)) === "Success",
  );
  await expect(call.getByTestId("call-target")).toHaveText("open-alliance");
  const sourceTx = await call.getByTestId("source-tx").getAttribute("data-value");
  const targetTx = await call.getByTestId("target-tx").getAttribute("data-value");
  expect(sourceTx).toMatch(/^0x[0-9a-f]{64}$/);
  expect(targetTx).toMatch(/^0x[0-9a-f]{64}$/);
  expect(targetTx).not.toBe(sourceTx);
  // Calls per day by status: a chart with JavaScript, its table without.
  await expect(page.getByTestId(javaScriptEnabled ? "calls-chart-chart" : "calls-chart-table")).toBeVisible();

  // The call in full.
  await call.getByRole("link", { name: /View call/ }).click();
  await expect(page.getByRole("heading", { name: /Cross-chain call #\d+/ })).toBeVisible();
  await expect(page.getByTestId("call-detail").getByTestId("source-tx")).toHaveText(sourceTx!);
  await expect(page.getByTestId("call-detail").getByTestId("target-tx")).toHaveText(targetTx!);
  await page.getByRole("link", { name: "Back to the calls" }).click();

  // Filtered to successes, then exported as CSV with the same filter.
  await page.getByLabel("Status", { exact: true }).selectOption("1");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/status=1/);
  await expect(page.getByTestId("call-row")).toHaveCount(1);
  // The export link follows the filter once the page has rendered the filtered list (waited for, not read at once).
  await expect(page.getByTestId("export-csv")).toHaveAttribute("href", /status=1/);
  const href = await page.getByTestId("export-csv").getAttribute("href");
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const csv = await request.get(href!, { headers: { Cookie: cookie } });
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const text = await csv.text();
  expect(text).toContain("Source transaction");
  expect(text).toContain(sourceTx!);
  expect(text).toContain(targetTx!);
  expect(text).toContain("Success");

  // The service detail's cross-chain info tab: the live state and the recent call.
  await page.goto(
    `/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${svc.appId}&activeNames=crossChain`,
  );
  const tab = page.getByTestId("cross-chain-tab");
  await expect(tab.getByTestId("cross-status")).toHaveText("Activated");
  await expect(tab.getByTestId("recent-calls").getByTestId("source-tx").first()).toHaveAttribute(
    "data-value",
    sourceTx!,
  );
  await tab.getByRole("link", { name: "All calls and filters" }).click();
  await expect(page).toHaveURL(new RegExp(`${CROSS}/CrossChainDetail\\?appId=${svc.appId}$`));

  // Deactivating an activated service asks first, then waits for a review (§5: 1 → 4).
  await page.goto(`${CROSS}/Index`);
  await listed.getByRole("button", { name: "Deactivate" }).click();
  await confirmAfter(page, javaScriptEnabled, "Deactivate");
  await expect(page.getByTestId("flash")).toHaveText("Cross-chain is pending deactivation: an operator reviews it.");
  await expect(listed.getByTestId("cross-status")).toHaveText("Pending deactivation");
});

test("closes a service's cross-chain while it waits for activation, after confirming", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(120_000);
  const svc = await publisherWithService(request, "xcc", testInfo, { verState: 25, framework: "fisco", nodeCount: 1 });
  await api(request, "/sys/crossChain/dredge", { appId: svc.appId, protocol: 1 }, svc.token);
  await logInAs(page, svc.user.userName, PASSWORD);
  await page.goto(`${CROSS}/Index?status=3`);
  const row = page.getByTestId("cross-row").filter({ hasText: svc.name });
  await expect(row.getByTestId("cross-status")).toHaveText("Pending activation");
  await row.getByRole("button", { name: "Close" }).click();
  if (!javaScriptEnabled) {
    // The confirm step can be cancelled: nothing changes.
    await page.getByTestId("confirm-step").getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByTestId("confirm-step")).toHaveCount(0);
    await expect(row.getByTestId("cross-status")).toHaveText("Pending activation");
    await row.getByRole("button", { name: "Close" }).click();
  }
  await confirmAfter(page, javaScriptEnabled, "Close");
  await expect(page.getByTestId("flash")).toHaveText("Cross-chain is closed.");
  await page.goto(`${CROSS}/Index?status=2`);
  await expect(row.getByTestId("cross-status")).toHaveText("Closed");
  // A closed service can be opened again.
  await expect(row.getByRole("link", { name: "Open again" })).toBeVisible();
});

test("the second protocol is refused where a city node does not support it (§8), keeping the APPCode; where all do, its NFT sample is delivered", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  // The fixture takes the catalogue's first city nodes: the fourth, Chongqing, supports protocol 1 only.
  const mixed = await publisherWithService(request, "xcm", testInfo, {
    verState: 25,
    framework: "fisco",
    nodeCount: 4,
  });
  await logInAs(page, mixed.user.userName, PASSWORD);
  await page.goto(`${CROSS}/Dredge?appId=${mixed.appId}`);
  await page.getByTestId("protocol-2").click();
  const appCode = page.getByRole("textbox", { name: "APPCode" });
  await appCode.fill("nft-demo-01");
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.getByText("Nodes do not support the chosen interchain protocol.")).toBeVisible();
  await expect(page.locator('input[name="protocol"][value="2"]')).toBeChecked();
  await expect(appCode).toHaveValue("nft-demo-01");
  // Nothing was opened.
  await page.goto(`${CROSS}/Index`);
  await expect(page.getByTestId("cross-row").filter({ hasText: mixed.name })).toHaveCount(0);

  // One node (Beijing) supports both: opened with protocol 2 and its APPCode, approved by an operator.
  const svc = await publisherWithService(request, "xcn", testInfo, { verState: 25, framework: "fisco", nodeCount: 1 });
  await api(request, "/sys/crossChain/dredge", { appId: svc.appId, protocol: 2, appCode: "nft-demo-02" }, svc.token);
  await api(
    request,
    "/sys/ops/crossChain/review",
    { appId: svc.appId, decision: "approve" },
    await apiToken(request, OPERATOR.userName, OPERATOR.password),
  );
  await logInAs(page, svc.user.userName, PASSWORD);
  await page.goto(`${CROSS}/CrossChainDetail?appId=${svc.appId}`);
  await expect(page.getByTestId("cross-state").getByTestId("cross-status")).toHaveText("Activated");
  const send = page.getByRole("region", { name: "Send a sample message" });
  await send.getByLabel("Target chain").selectOption({ label: "Open-alliance chain (open-alliance)" });
  await send.getByLabel("NFT sample: lock on the source, mint on the target").check();
  await send.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("flash")).toContainText("Message sent on the source chain");
  const call = page.getByTestId("call-row").first();
  await reloadUntil(
    page,
    async () =>
      (await call
        .getByTestId("call-status")
        .textContent()
        .catch(() => null)) === "Success",
  );
  await expect(call.getByTestId("call-target")).toHaveText("open-alliance");
  expect(await call.getByTestId("target-tx").getAttribute("data-value")).toMatch(/^0x[0-9a-f]{64}$/);
  // The call is the NFT sample of the second protocol.
  await call.getByRole("link", { name: /View call/ }).click();
  const detail = page.getByTestId("call-detail");
  await expect(detail).toContainText("NFT and deposit interchain framework");
  await expect(detail).toContainText("NFT sample: lock on the source, mint on the target");
});
