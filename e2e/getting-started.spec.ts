import { expect, test } from "./fixtures.ts";
import { api, apiToken } from "./services-support.ts";
import { createActiveUser, PASSWORD, signInOverHttp, uniqueUser } from "./support.ts";

// Issue 30 items 13 and 15a: a new account's getting-started checklist ticks as steps are done and is hidden
// for good; the JSON-RPC guide shows this server's endpoints with a Copy control. JavaScript on and off.

test("a new account's checklist ticks as its steps are done, and hides when asked", async ({
  page,
  request,
}, testInfo) => {
  const user = await createActiveUser(request, uniqueUser(testInfo, "gst"));
  await signInOverHttp(page, user.userName, PASSWORD);
  await expect(page).toHaveURL(/\/g\/home\/index$/);
  const list = page.getByTestId("checklist");
  await expect(list).toBeVisible();
  await expect(page.getByTestId("checklist-progress")).toHaveText("0 of 4 done");
  // An empty account's figures say so rather than drawing a flat chart.
  await expect(page.getByTestId("dash-usage-none")).toHaveText("No data yet");
  await expect(page.getByTestId("dash-usage-chart")).toHaveCount(0);
  await expect(page.getByTestId("dash-services-none")).toHaveText("No data yet");

  // The profile step links to the page that does it.
  await list.getByRole("link", { name: /Complete your profile/ }).click();
  await expect(page).toHaveURL(/\/g\/home\/userCenter\/information$/);
  await page.getByLabel("Country or region").fill("Singapore");
  await page.getByLabel("Self-introduction").fill("I build traceability services.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Your information was saved.");
  await page.goto("/g/home/index");
  await expect(page.getByTestId("checklist-profile")).toHaveAttribute("data-done", "yes");
  await expect(page.getByTestId("checklist-recharge")).toHaveAttribute("data-done", "no");
  await expect(page.getByTestId("checklist-progress")).toHaveText("1 of 4 done");

  // A service published (a fixture in its running state): ticked on the next visit.
  const token = await apiToken(request, user.userName);
  await api(request, "/test/services", { verState: 25 }, token);
  await page.goto("/g/home/index");
  await expect(page.getByTestId("checklist-service")).toHaveAttribute("data-done", "yes");
  await expect(page.getByTestId("checklist-progress")).toHaveText("2 of 4 done");
  await expect(page.getByTestId("checklist-project").getByRole("link")).toHaveAttribute(
    "href",
    "/g/home/PermissionlessServices/NewProject",
  );

  await page.getByRole("button", { name: "Hide this list" }).click();
  await expect(page.getByTestId("flash")).toHaveText("The getting-started list is hidden.");
  await expect(page.getByTestId("checklist")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("checklist")).toHaveCount(0);
});

test("the JSON-RPC guide shows this server's endpoints, each with a Copy control", async ({
  page,
  context,
  javaScriptEnabled,
}, testInfo) => {
  const origin = new URL(testInfo.project.use.baseURL!).origin;
  await page.goto("/g/main/documentation?page=contract-deployment");
  const article = page.getByTestId("doc-article");
  await expect(article).toContainText(`${origin}/chain/rpc`);
  await expect(article).not.toContainText("<site>");
  const endpoint = page.getByTestId("doc-endpoint-0");
  await expect(endpoint).toHaveValue(`${origin}/chain/rpc/<projectKey>`);
  await expect(endpoint).toHaveAttribute("readonly", "");
  if (javaScriptEnabled) {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByTestId("doc-endpoint-1-copy").click();
    await expect(page.getByText("Copied", { exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${origin}/chain/rpc`);
  } else {
    await expect(page.getByTestId("doc-endpoint-1-copy")).toHaveCount(0);
  }
});
