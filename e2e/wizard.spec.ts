import { expect, ready, test } from "./fixtures.ts";
import { api, logInAs as switchUser, OPERATOR, reviewQueue } from "./services-support.ts";
import { CAPTCHA, createActiveUser, decideInQueue, PASSWORD, uniqueUser } from "./support.ts";
import { basicInfo, chaincodeZip, logInAs, PNG, WIZARD, wizardApi } from "./wizard-support.ts";

test("a fresh user fills the wizard from empty to submitted, resuming on a second device, and the service runs after review, test, payment and deployment", async ({
  page,
  request,
  browser,
}, testInfo) => {
  // The whole journey, two devices and four people's steps (with axe on each new page state when JS is on).
  test.setTimeout(180_000);
  const js = testInfo.project.use.javaScriptEnabled !== false;
  const user = await createActiveUser(request, uniqueUser(testInfo, "wiz"));
  await logInAs(page, user.userName, js);

  // Without a step the wizard opens at the first one.
  await page.goto(`${WIZARD}?appState=add`);
  await expect(page).toHaveURL(/step=basic/);
  await expect(page.getByRole("heading", { name: "Create a new service" })).toBeVisible();
  await expect(page.getByText("Save the basic information first; then attachments can be added.")).toBeVisible();

  const serviceName = `Trade ${user.userName}`;
  await page.getByLabel("Service name").fill(serviceName);
  await page.getByLabel("Version", { exact: true }).fill("1.0");
  await page.getByLabel("Industry").selectOption("finance");
  await page.getByLabel("Framework").selectOption("fabric");
  await page.getByLabel("Platform type").selectOption("web");
  await page.getByLabel("Description").fill("Letters of credit between banks.");
  await page.getByLabel("Introduction").fill("Banks share trade documents on a consortium chain.");
  await page.getByLabel("Contact name").fill("Li Lei");
  await page.getByLabel("Contact mobile").fill("+8613912345678");
  await page.getByLabel("Contact email").fill("li@example.com");
  await page.getByLabel("Web URL").fill("https://trade.example.com");
  await page
    .getByLabel("Cover", { exact: true })
    .setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Save and continue" }).click();
  // Bad input is explained and everything typed is kept.
  await expect(page.getByText("Use a version like 1.0.1.")).toBeVisible();
  await expect(page.getByLabel("Service name")).toHaveValue(serviceName);
  await expect(page.getByLabel("Contact email")).toHaveValue("li@example.com");

  await page.getByLabel("Version", { exact: true }).fill("1.0.0");
  if (!js)
    await page
      .getByLabel("Cover", { exact: true })
      .setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).toHaveURL(/step=packages/);
  const appId = new URL(page.url()).searchParams.get("appId");
  expect(appId).toMatch(/^\d+$/);

  // Step 2: a package; a bad name is refused and the other fields stay.
  await expect(page.getByText("No chaincode packages yet.")).toBeVisible();
  // A Fabric service runs one Node.js chaincode (docs/decisions/069): the step says so.
  await expect(page.getByTestId("one-chaincode")).toContainText("one Node.js chaincode");
  await page.getByLabel("Package name").fill("1bad");
  await page.getByLabel("Package version").fill("1.0.0");
  await page.getByLabel("Init parameters").fill("initLedger,genesis");
  await page.getByLabel("Main function path").fill("asset/index.js");
  await page
    .getByLabel("Chaincode zip")
    .setInputFiles({ name: "asset.zip", mimeType: "application/zip", buffer: chaincodeZip() });
  await page.getByRole("button", { name: "Upload package" }).click();
  await expect(
    page.getByText("Start with a letter or underscore; 4-16 letters, digits or underscores.").first(),
  ).toBeVisible();
  await expect(page.getByLabel("Main function path")).toHaveValue("asset/index.js");
  await page.getByLabel("Package name").fill("asset_cc");
  await page
    .getByLabel("Chaincode zip")
    .setInputFiles({ name: "asset.zip", mimeType: "application/zip", buffer: chaincodeZip() });
  await page.getByRole("button", { name: "Upload package" }).click();
  await expect(page.getByTestId("wizard-item")).toHaveCount(1);
  await expect(page.getByTestId("wizard-item")).toContainText("asset_cc");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=functions/);

  // Step 3: a function; FUNC with a space is refused.
  await page.getByLabel("Function name").fill("Create asset");
  await page.getByLabel("FUNC", { exact: true }).fill("create asset");
  await page.getByLabel("Input parameter format").fill('{"id":"string"}');
  await page.getByLabel("Output parameter format").fill('{"ok":"boolean"}');
  await page.getByRole("button", { name: "Add function" }).click();
  await expect(page.getByText("Only letters, digits and underscores (no Chinese, spaces or symbols).")).toBeVisible();
  await expect(page.getByLabel("Function name")).toHaveValue("Create asset");
  await page.getByLabel("FUNC", { exact: true }).fill("createAsset");
  await page.getByRole("button", { name: "Add function" }).click();
  await expect(page.getByTestId("wizard-item")).toHaveCount(1);

  // A reload in the middle keeps everything.
  await page.reload();
  if (js) await ready(page);
  await expect(page.getByTestId("wizard-item")).toContainText("createAsset");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=roles/);

  // A second device: a new browser context logged in as the same user resumes at the saved step.
  const other = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    javaScriptEnabled: js,
    locale: "en-US",
  });
  const second = await other.newPage();
  await logInAs(second, user.userName, js);
  await second.goto(`${WIZARD}?appState=add&appId=${appId}`);
  await expect(second).toHaveURL(/step=roles/);
  if (js) await ready(second);

  // Step 4: a role needs a function.
  await second.getByLabel("Role name").fill("Bank");
  await second.getByLabel("Role description").fill("Issues letters of credit");
  await second.getByRole("button", { name: "Add role" }).click();
  await expect(second.getByText("Choose at least one function.")).toBeVisible();
  await expect(second.getByLabel("Role name")).toHaveValue("Bank");
  await second.getByLabel(/Create asset/).check();
  await second.getByRole("button", { name: "Add role" }).click();
  await expect(second.getByTestId("wizard-item")).toHaveCount(1);
  // The role was added: its form is empty again for the next one.
  await expect(second.getByLabel("Role name")).toHaveValue("");
  await expect(second.getByLabel("Role description")).toHaveValue("");
  await expect(second.getByLabel(/Create asset/)).not.toBeChecked();
  await second.getByRole("button", { name: "Next" }).click();
  await expect(second).toHaveURL(/step=nodes/);

  // Step 5: one city node in the table (its inputs open when it is chosen: with JavaScript at once, without
  // it after "Recalculate"), with its defaults, the running total, and a bookkeeping-node count over 3 refused.
  await expect(second.getByLabel("TPS · Beijing")).toBeDisabled();
  await second.getByLabel("Beijing", { exact: true }).check();
  if (!js) await second.getByRole("button", { name: "Recalculate" }).click();
  await expect(second.getByLabel("TPS · Beijing")).toBeEnabled();
  await expect(second.getByLabel("TPS · Beijing")).toHaveValue("100");
  // The defaults (100 TPS, 10 GB) for a month: 100 × $1.50 + 10 × $0.20.
  await expect(second.getByTestId("node-total")).toHaveText("$152.00");
  await second.getByLabel("Capacity (GB) · Beijing").fill("50");
  await second.getByLabel("Bookkeeping nodes · Beijing").fill("4");
  if (!js) await second.getByRole("button", { name: "Recalculate" }).click();
  await expect(second.getByTestId("node-total")).toHaveText("$160.00");
  await expect(second.getByTestId("single-node-risk")).toBeVisible();
  await expect(second.getByLabel("TPS · Shanghai")).toBeDisabled();
  await second.getByRole("button", { name: "Save and continue" }).click();
  await expect(second.getByText("At most 3 bookkeeping nodes per city node.")).toBeVisible();
  await expect(second.getByLabel("TPS · Beijing")).toHaveValue("100");
  await second.getByLabel("Bookkeeping nodes · Beijing").fill("3");
  await second.getByRole("button", { name: "Save and continue" }).click();
  await expect(second).toHaveURL(/step=certificate/);

  // Step 6: certificate mode.
  await second.getByRole("button", { name: "Save and continue" }).click();
  await expect(second.getByText("This field is required.")).toBeVisible();
  await second.getByLabel("Key trust").check();
  await second.getByRole("button", { name: "Save and continue" }).click();
  await expect(second).toHaveURL(/step=cost/);

  // Step 7: the backend's cost (Beijing monthly: 100 × $1.50 + 50 GB × $0.20 = $160.00), the agreement, submit.
  await expect(second.getByTestId("cost-total")).toHaveText("$160.00");
  await expect(second.getByText("Only one city node is chosen")).toBeVisible();
  await second.getByRole("button", { name: "Submit for review" }).click();
  await expect(second.getByText("Please accept the publishing agreement.")).toBeVisible();
  await second.getByLabel("I have read and accept the publishing agreement").check();
  await second.getByRole("button", { name: "Submit for review" }).click();
  await expect(second.getByTestId("flash")).toHaveText("Your service was submitted for initial review.");
  await expect(second.getByTestId("wizard-status")).toContainText("Status: Pending initial review");
  // No longer "Create a new service": where it is and what comes next (issue 30 item 14).
  await expect(second.getByRole("heading", { level: 1 })).toHaveText(/: progress$/);
  await expect(second.getByTestId("wizard-progress").locator('[aria-current="step"]')).toContainText("Initial review");
  await expect(second.getByTestId("wizard-progress")).toContainText("within 3 days");
  await other.close();

  // The first device sees the submitted service too, no longer editable.
  await page.goto(`${WIZARD}?appState=add&appId=${appId}&step=roles`);
  await expect(page.getByTestId("wizard-status")).toContainText("Pending initial review");

  // On to running: the operator's initial review, the test job on the uploaded zip, the final review.
  await switchUser(page, OPERATOR.userName, OPERATOR.password);
  const item = () => page.getByTestId("review-item").filter({ has: page.getByRole("heading", { name: serviceName }) });
  await page.goto(reviewQueue("initial", serviceName));
  await decideInQueue(page, item(), "Approve");
  await expect(page.getByTestId("flash")).toHaveText("The service was approved.");
  await expect(async () => {
    await page.goto(reviewQueue("final", serviceName));
    await expect(item()).toContainText("All checks passed.", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await decideInQueue(page, item(), "Approve");
  await expect(page.getByTestId("flash")).toHaveText("The service was approved.");

  // The publisher pays the publish bill from a balance, and the deploy job puts the service on its node.
  const { captchaKey } = await api(request, "/anon/captcha/create", {});
  const { token } = await api(request, "/main/user/login", {
    username: user.userName,
    password: PASSWORD,
    captchaKey,
    captcha: CAPTCHA,
  });
  await api(request, "/test/fixtures", { grantCents: 20_000 }, token);
  await switchUser(page, user.userName, PASSWORD);
  await page.goto(`/g/home/PermissionedServices/PublishedServices?name=${encodeURIComponent(serviceName)}`);
  await expect(page.getByTestId("service-row").getByTestId("status")).toHaveText("To be paid");
  await page.getByTestId("service-row").getByRole("link", { name: "Pay", exact: true }).click();
  await page.getByRole("button", { name: "Pay $160.00" }).click();
  await expect(page.getByTestId("flash")).toHaveText("The publish bill was paid. The service is being deployed.");
  await expect(async () => {
    await page.goto(`/g/home/PermissionedServices/PublishedServices?name=${encodeURIComponent(serviceName)}`);
    await expect(page.getByTestId("service-row").getByTestId("status")).toHaveText("Running", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
});

test("another user's draft is not found and an unknown appState is a bad request", async ({
  page,
  request,
}, testInfo) => {
  const js = testInfo.project.use.javaScriptEnabled !== false;
  const user = await createActiveUser(request, uniqueUser(testInfo, "wizb"));
  await logInAs(page, user.userName, js);
  const res = await page.goto(`${WIZARD}?appState=add&appId=1&step=basic`);
  // appId 1 is the first service created in this run (another user's) or none at all: either way not found.
  expect(res?.status()).toBe(404);
  const bad = await page.goto(`${WIZARD}?appState=nope`);
  expect(bad?.status()).toBe(400);
});

test("with a saved draft, unpaid bills still send the publisher home: the backend refuses the draft and its saves", async ({
  page,
  request,
}, testInfo) => {
  const js = testInfo.project.use.javaScriptEnabled !== false;
  const user = await createActiveUser(request, uniqueUser(testInfo, "wizu"));
  const wizard = await wizardApi(request, user.userName);
  const { appId } = await wizard("saveBasic", {
    appState: "add",
    basic: basicInfo(user.userName, "Unpaid"),
    cover: await wizard.upload("cover", "c.png", PNG),
  });
  await logInAs(page, user.userName, js);
  const basicStep = `${WIZARD}?appState=add&appId=${appId}&step=basic`;
  await page.goto(basicStep);
  await expect(page.getByTestId("wizard-step")).toHaveText("Basic information");

  // A weekly traffic bill falls due while the step is open: saving it sends the publisher home.
  await api(
    request,
    "/test/fixtures",
    { grantCents: 1_000, bills: [{ billType: 3, cycle: 99, totalCents: 300 }] },
    wizard.token,
  );
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).toHaveURL(/\/g\/home\/index\?blocked=newService&/);
  await expect(page.getByTestId("flash")).toHaveText("You have unpaid bills. Please pay them before you continue.");
  await expect(page.getByTestId("blocked-panel")).toContainText("$3.00");
  // And so does opening the draft again.
  await page.goto(basicStep);
  await expect(page).toHaveURL(/\/g\/home\/index\?blocked=newService&/);
  await expect(page.getByTestId("flash")).toHaveText("You have unpaid bills. Please pay them before you continue.");
  await expect(page.getByTestId("blocked-panel")).toContainText("$3.00");
});

test("the cover is served to its owner only, privately cached and revalidated by its ETag", async ({
  page,
  request,
  browser,
}, testInfo) => {
  const js = testInfo.project.use.javaScriptEnabled !== false;
  const owner = await createActiveUser(request, uniqueUser(testInfo, "wizc"));
  const ownerApi = await wizardApi(request, owner.userName);
  const { appId } = await ownerApi("saveBasic", {
    appState: "add",
    basic: basicInfo(owner.userName, "Cover"),
    cover: await ownerApi.upload("cover", "c.png", PNG),
  });
  await logInAs(page, owner.userName, js);
  await page.goto(`${WIZARD}?appState=add&appId=${appId}&step=basic`);
  const src = await page.getByTestId("cover-preview").getAttribute("src");
  expect(src).toMatch(new RegExp(`^${WIZARD}/cover\\?appId=${appId}&v=\\d+$`));
  // The page carries the cover's address, not its bytes.
  expect(await page.content()).not.toContain(PNG.toString("base64").slice(0, 16));

  const image = await page.request.get(src!);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/png");
  expect(image.headers()["cache-control"]).toBe("private, no-cache");
  expect(Buffer.from(await image.body()).equals(PNG)).toBe(true);
  const etag = image.headers()["etag"];
  expect(etag).toMatch(/^"cover-\d+"$/);
  const again = await page.request.get(src!, { headers: { "If-None-Match": etag } });
  expect(again.status()).toBe(304);

  const other = await createActiveUser(request, uniqueUser(testInfo, "wizo"));
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    javaScriptEnabled: js,
    locale: "en-US",
  });
  const otherPage = await context.newPage();
  await logInAs(otherPage, other.userName, js);
  expect((await otherPage.request.get(src!)).status()).toBe(404);
  expect((await otherPage.request.get(src!, { headers: { "If-None-Match": etag } })).status()).toBe(404);
  await context.close();
});

test("a file refused by its bytes or its size is explained at its field, and what was typed stays (docs/decisions/023)", async ({
  page,
  request,
}, testInfo) => {
  const js = testInfo.project.use.javaScriptEnabled !== false;
  const user = await createActiveUser(request, uniqueUser(testInfo, "wizf"));
  const api = await wizardApi(request, user.userName);
  const { appId } = await api("saveBasic", {
    appState: "add",
    basic: basicInfo(user.userName, "Files"),
    cover: await api.upload("cover", "c.png", PNG),
  });
  await logInAs(page, user.userName, js);
  await page.goto(`${WIZARD}?appState=add&appId=${appId}&step=basic`);
  if (js) await ready(page);

  // An HTML page named .pdf: the name passes, the bytes do not.
  await page.getByLabel("Attachment name").fill("Whitepaper");
  await page.getByLabel("Attachment file").setInputFiles({
    name: "paper.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("<!DOCTYPE html><html><body><script>alert(1)</script></body></html>"),
  });
  await page.getByRole("button", { name: "Upload attachment" }).click();
  await expect(
    page.getByText("The file's content does not match its type (doc, docx, wps, pdf, txt, zip, rar, tar, jar)."),
  ).toBeVisible();
  await expect(page.getByLabel("Attachment name")).toHaveValue("Whitepaper");
  await expect(page.getByText("No attachments yet.")).toBeVisible();

  // A cover over 5 MB: cut off while it streams, and the size message shown with the form as typed.
  await page.getByLabel("Introduction").fill("Banks share trade documents.");
  const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 1024)]);
  await page
    .getByLabel("Cover", { exact: true })
    .setInputFiles({ name: "big.png", mimeType: "image/png", buffer: big });
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page.getByText("The cover must be at most 5 MB.")).toBeVisible();
  await expect(page.getByLabel("Introduction")).toHaveValue("Banks share trade documents.");
  await expect(page).toHaveURL(/step=basic/);

  // A chaincode zip with an entry outside its folder is refused at upload, not later in the test job.
  await page.goto(`${WIZARD}?appState=add&appId=${appId}&step=packages`);
  if (js) await ready(page);
  await page.getByLabel("Package name").fill("asset_cc");
  await page.getByLabel("Package version").fill("1.0.0");
  await page.getByLabel("Main function path").fill("asset/index.js");
  await page.getByLabel("Chaincode zip").setInputFiles({
    name: "asset.zip",
    mimeType: "application/zip",
    buffer: chaincodeZip({ "../../escape.go": new TextEncoder().encode("package x\n") }),
  });
  await page.getByRole("button", { name: "Upload package" }).click();
  await expect(page.getByText("The zip has entries outside its folder (../ or absolute paths).")).toBeVisible();
  await expect(page.getByLabel("Package name")).toHaveValue("asset_cc");
  await expect(page.getByText("No chaincode packages yet.")).toBeVisible();
});

test("a package that roles depend on is deleted only after those roles, each after confirming", async ({
  page,
  request,
}, testInfo) => {
  const js = testInfo.project.use.javaScriptEnabled !== false;
  const user = await createActiveUser(request, uniqueUser(testInfo, "wizd"));
  // Build the draft through the /vueapi protocol, then delete through the pages.
  const api = await wizardApi(request, user.userName);
  const { appId } = await api("saveBasic", {
    appState: "add",
    basic: basicInfo(user.userName, "Del"),
    cover: await api.upload("cover", "c.png", PNG),
  });
  await api("addPackage", {
    appState: "add",
    appId,
    pkg: { name: "asset_cc", version: "1.0.0", language: "node", mainPath: "lib/chaincode.js" },
    file: await api.upload("chaincode", "a.zip", chaincodeZip()),
  });
  const d1 = (await api("draft", { appState: "add", appId })).draft;
  await api("addFunction", {
    appState: "add",
    appId,
    fn: {
      name: "Create",
      packageId: String(d1.packages[0].packageId),
      funcType: "1",
      func: "create",
      parentId: "top",
      inputFormat: "i",
      outputFormat: "o",
    },
  });
  const d2 = (await api("draft", { appState: "add", appId })).draft;
  await api("addRole", {
    appState: "add",
    appId,
    role: { name: "Bank", description: "b", functionIds: [String(d2.functions[0].functionId)] },
  });
  for (const from of ["packages", "functions", "roles"]) await api("advance", { appState: "add", appId, from });

  await logInAs(page, user.userName, js);
  await page.goto(`${WIZARD}?appState=add&appId=${appId}&step=packages`);
  await page.getByRole("link", { name: "Delete asset_cc" }).click();
  await expect(page.getByRole("heading", { name: "Delete asset_cc?" })).toBeVisible();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByTestId("flash")).toHaveText(
    "Roles are built on this package's functions: delete those roles first.",
  );
  await expect(page.getByTestId("wizard-item")).toHaveCount(1);

  await page.goto(`${WIZARD}?appState=add&appId=${appId}&step=roles`);
  await page.getByRole("link", { name: "Delete Bank" }).click();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByTestId("flash")).toHaveText("Deleted.");
  await expect(page.getByText("No roles yet.")).toBeVisible();

  await page.goto(`${WIZARD}?appState=add&appId=${appId}&step=packages`);
  await page.getByRole("link", { name: "Delete asset_cc" }).click();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByTestId("flash")).toHaveText("Deleted.");
  await expect(page.getByText("No chaincode packages yet.")).toBeVisible();
});
