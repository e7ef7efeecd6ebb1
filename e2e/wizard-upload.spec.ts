import { randomBytes } from "node:crypto";
import type { Page, Request } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { createActiveUser, uniqueUser } from "./support.ts";
import { basicInfo, chaincodeZip, logInAs, PNG, WIZARD, wizardApi } from "./wizard-support.ts";

/*
 * Upload progress (docs/decisions/011): with JavaScript a form with a chosen file is sent by XMLHttpRequest
 * as a Remix data request. Without JavaScript the plain multipart post is covered by wizard.spec.ts.
 */
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "upload progress needs JavaScript");

const ROUTE_ID = "routes/g.home.PermissionedServices.PublishedServices_.NewServices";
const MB = 1024 * 1024;

/** A chaincode zip of about `mb` MB: random (incompressible) bytes, stored without compression. */
function bigChaincodeZip(mb: number) {
  return chaincodeZip({ "asset/testdata/blob.bin": new Uint8Array(randomBytes(mb * MB)) }, { level: 0 });
}

/** The upload itself: an XMLHttpRequest (Remix's own submissions use fetch) to the route's action as a data request. */
const isUpload = (r: Request) =>
  r.resourceType() === "xhr" && r.method() === "POST" && new URL(r.url()).searchParams.get("_data") === ROUTE_ID;

/** Slow the browser's uploads down (bytes per second), so the progress can be seen; -1 lifts the limit. */
async function limitUpload(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

/** A user with a saved basic step, logged in and on the packages step. */
async function onPackagesStep(
  page: Page,
  request: Parameters<typeof createActiveUser>[0],
  testInfo: Parameters<typeof uniqueUser>[0],
  prefix: string,
  beforeOpening?: () => Promise<unknown>,
) {
  const user = await createActiveUser(request, uniqueUser(testInfo, prefix));
  const api = await wizardApi(request, user.userName);
  const { appId } = await api("saveBasic", {
    appState: "add",
    basic: basicInfo(user.userName, "Up"),
    cover: await api.upload("cover", "c.png", PNG),
  });
  await logInAs(page, user.userName, true);
  await beforeOpening?.();
  // Without waiting for the page's scripts, which beforeOpening may hold back.
  await page.goto(`${WIZARD}?appState=add&appId=${appId}&step=packages`, {
    waitUntil: beforeOpening ? "commit" : "load",
  });
  return { api, appId: appId as number };
}

async function fillPackage(page: Page, name: string, zip: Buffer) {
  await page.getByLabel("Package name").fill(name);
  await page.getByLabel("Package version").fill("1.0.0");
  await page.getByLabel("Init parameters").fill("owner,amount");
  await page.getByLabel("Main function path").fill("asset/index.js");
  await page.getByLabel("Chaincode zip").setInputFiles({ name: "asset.zip", mimeType: "application/zip", buffer: zip });
}

test("a chaincode zip of a few MB uploads with a progress bar, then is listed", async ({ page, request }, testInfo) => {
  await onPackagesStep(page, request, testInfo, "upl");
  const zip = bigChaincodeZip(4);
  expect(zip.byteLength).toBeGreaterThan(4 * MB);
  await fillPackage(page, "asset_cc", zip);
  // The page is not loaded again: the answer is followed inside the app.
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
  await limitUpload(page, 1.5 * MB);

  const sent = page.waitForRequest(isUpload);
  await page.getByRole("button", { name: "Upload package" }).click();
  await sent;
  const bar = page.getByRole("progressbar", { name: "Uploading asset.zip" });
  await expect(bar).toBeVisible();
  await expect(page.getByTestId("upload-progress")).toContainText(/\d+% · [\d.]+ (B|KB|MB) of 4\.\d MB sent/);
  await expect
    .poll(() => bar.evaluate((el) => (el as HTMLProgressElement).value), { timeout: 15_000 })
    .toBeGreaterThan(0);
  await expect(page.getByRole("button", { name: "Working…" })).toBeDisabled();

  await expect(page.getByTestId("wizard-item")).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId("wizard-item")).toContainText("asset_cc");
  await expect(page.getByTestId("wizard-item")).toContainText("4.0 MB");
  await expect(page.getByTestId("flash")).toHaveText("Saved.");
  await expect(page.getByTestId("upload-progress")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  await expect(page).toHaveURL(/step=packages/);
});

test("a package name the server refuses comes back at its field, with every other field and the file kept", async ({
  page,
  request,
}, testInfo) => {
  const { api, appId } = await onPackagesStep(page, request, testInfo, "upn");
  // Valid for the browser's checks, refused by the backend: the name is taken (case-insensitively).
  await api("addPackage", {
    appState: "add",
    appId,
    pkg: { name: "asset_cc", version: "1.0.0", language: "node", mainPath: "lib/chaincode.js" },
    file: await api.upload("chaincode", "a.zip", chaincodeZip()),
  });
  await page.reload();
  await expect(page.getByTestId("wizard-item")).toHaveCount(1);
  await fillPackage(page, "ASSET_CC", bigChaincodeZip(1));

  const answered = page.waitForResponse((r) => isUpload(r.request()));
  await page.getByRole("button", { name: "Upload package" }).click();
  expect((await answered).status()).toBe(400);
  await expect(page.getByText("A chaincode package with this name already exists in this version.")).toBeVisible();
  await expect(page.getByLabel("Package name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Package name")).toHaveValue("ASSET_CC");
  await expect(page.getByLabel("Package version")).toHaveValue("1.0.0");
  await expect(page.getByLabel("Init parameters")).toHaveValue("owner,amount");
  await expect(page.getByLabel("Main function path")).toHaveValue("asset/index.js");
  expect(await page.getByLabel("Chaincode zip").evaluate((el) => (el as HTMLInputElement).files?.[0]?.name)).toBe(
    "asset.zip",
  );
  await expect(page.getByTestId("upload-progress")).toHaveCount(0);
  await expect(page.getByTestId("wizard-item")).toHaveCount(1);

  // Only the name needs changing: the kept file goes up again.
  await page.getByLabel("Package name").fill("asset_cc2");
  await page.getByRole("button", { name: "Upload package" }).click();
  await expect(page.getByTestId("wizard-item")).toHaveCount(2);
  await expect(page.getByTestId("wizard-item").nth(1)).toContainText("asset_cc2");
});

test("cancelling an upload stops it and saves nothing", async ({ page, request }, testInfo) => {
  await onPackagesStep(page, request, testInfo, "upc");
  await fillPackage(page, "asset_cc", bigChaincodeZip(3));
  await limitUpload(page, 256 * 1024);
  await page.getByRole("button", { name: "Upload package" }).click();
  await expect(page.getByRole("progressbar", { name: "Uploading asset.zip" })).toBeVisible();
  await page.getByRole("button", { name: "Cancel upload" }).click();
  await expect(page.getByTestId("upload-cancelled")).toHaveText("Upload cancelled. Nothing was saved.");
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Upload package" })).toBeEnabled();
  await expect(page.getByLabel("Package name")).toHaveValue("asset_cc");
  await limitUpload(page, -1);
  await page.reload();
  await expect(page.getByText("No chaincode packages yet.")).toBeVisible();
});

test("an attachment on the basic step uploads the same way", async ({ page, request }, testInfo) => {
  const { appId } = await onPackagesStep(page, request, testInfo, "upa");
  await page.goto(`${WIZARD}?appState=add&appId=${appId}&step=basic`);
  await page.getByLabel("Attachment name").fill("Whitepaper");
  await page.getByLabel("Attachment file").setInputFiles({
    name: "paper.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("A consortium chain for trade.\n".repeat(40_000)),
  });
  const answered = page.waitForResponse((r) => isUpload(r.request()));
  await page.getByRole("button", { name: "Upload attachment" }).click();
  expect((await answered).status()).toBe(204);
  await expect(page.getByTestId("wizard-item")).toContainText("Whitepaper");
  await expect(page.getByTestId("flash")).toHaveText("Saved.");
});

test("a file input is a drop area with JavaScript: a dropped file becomes the input's file, and its name and size show", async ({
  page,
  request,
}, testInfo) => {
  await onPackagesStep(page, request, testInfo, "drp");
  const area = page.getByTestId("file-drop");
  await expect(area).toContainText("Drop a file here");
  await page
    .getByLabel("Chaincode zip")
    .setInputFiles({ name: "chosen.zip", mimeType: "application/zip", buffer: Buffer.alloc(2048) });
  await expect(page.getByTestId("file-drop-chosen")).toHaveText("chosen.zip (2.0 KB)");
  const zip = chaincodeZip();
  const dropped = await page.evaluateHandle(
    (bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], "dropped.zip", { type: "application/zip" }));
      return transfer;
    },
    [...zip],
  );
  await area.dispatchEvent("drop", { dataTransfer: dropped });
  await expect(page.getByTestId("file-drop-chosen")).toHaveText(
    `dropped.zip (${zip.byteLength < 1024 ? `${zip.byteLength} B` : `${(zip.byteLength / 1024).toFixed(1)} KB`})`,
  );
  expect(await page.getByLabel("Chaincode zip").evaluate((input: HTMLInputElement) => input.files?.[0]?.name)).toBe(
    "dropped.zip",
  );
  // The dropped file is what the form sends.
  await page.getByLabel("Package name").fill("dropped_cc");
  await page.getByLabel("Package version").fill("1.0.0");
  await page.getByLabel("Init parameters").fill("owner");
  await page.getByLabel("Main function path").fill("asset/index.js");
  await page.getByRole("button", { name: "Upload package" }).click();
  await expect(page.getByTestId("wizard-item")).toHaveCount(1);
  await expect(page.getByTestId("wizard-item")).toContainText("dropped_cc");
});

test("a file chosen before the page's JavaScript has loaded is kept when the drop area appears around it", async ({
  page,
  request,
}, testInfo) => {
  // The scripts wait until the file is chosen: a slow connection, where people pick a file from the server's page.
  let release!: () => void;
  const scriptsMayLoad = new Promise<void>((resolve) => (release = resolve));
  const holdScripts = () =>
    page.route("**/build/**/*.js", async (route) => {
      await scriptsMayLoad;
      await route.continue();
    });
  await onPackagesStep(page, request, testInfo, "early", holdScripts);
  await expect(page.getByLabel("Chaincode zip")).toBeAttached();
  await expect(page.getByTestId("file-drop")).toHaveCount(0);
  await fillPackage(page, "early_cc", chaincodeZip());
  release();
  // Hydrated: the drop area stands around the same input and names the file chosen before it existed.
  await expect(page.getByTestId("file-drop-chosen")).toHaveText(/^asset\.zip \(/);
  expect(await page.getByLabel("Chaincode zip").evaluate((input: HTMLInputElement) => input.files?.[0]?.name)).toBe(
    "asset.zip",
  );
  await page.getByRole("button", { name: "Upload package" }).click();
  await expect(page.getByTestId("wizard-item")).toHaveCount(1);
  await expect(page.getByTestId("wizard-item")).toContainText("early_cc");
});
