import QRCode from "qrcode";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect, test } from "./fixtures.ts";
import { custodyAccountWithGas, enabledProject, userWithBalance } from "./public-chain-support.ts";
import { api, logInAs } from "./services-support.ts";
import { fillLogin, PASSWORD } from "./support.ts";

/**
 * DDC certificates and account binding (issue 18; docs/decisions/045), with JavaScript on and off: a DDC minted
 * from the mint form (a real ERC-721 token, its owner read on chain), protected by a QR-code password, opened
 * from its QR code (the SVG's target URL read and checked against the code itself); an address bound by pasting
 * a signature made with viem, after a visitor's login that comes back to the page, and unbound from the profile.
 */

/** The smallest valid PNG (1×1, grey). */
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108000000003a7e9b550000000a49444154789c6360000000020001e221bc330000000049454e44ae426082",
  "hex",
);

test("mints a DDC, protects it with a QR-code password and opens its ddc-view from the QR code", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const user = await userWithBalance(request, "ddc", testInfo, 2_000);
  const projectId = await enabledProject(request, user.token, `DDC ${testInfo.project.name}`);
  const accountId = await custodyAccountWithGas(request, user.token, projectId, "Issuer");
  const account = await api(request, "/sys/opc/account/detail", { accountId }, user.token);
  await logInAs(page, user.userName, PASSWORD);

  await page.goto("/g/home/DDC");
  await expect(page.getByTestId("empty")).toBeVisible();
  await page.getByTestId("ddc-new").click();
  await expect(page.getByRole("heading", { name: "Mint a DDC" })).toBeVisible();
  // Without a name the form says so at the field and keeps what was typed.
  await page.getByLabel("Chain account").selectOption(String(accountId));
  await page.getByLabel("Description").fill("Awarded for the e2e course");
  await page.getByLabel("Metadata").fill("grade=A\nyear=2026");
  await page.locator('input[name="file"]').setInputFiles({ name: "diploma.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Mint", exact: true }).click();
  await expect(page.getByText("This field is required.").first()).toBeVisible();
  await expect(page.getByLabel("Metadata")).toHaveValue("grade=A\nyear=2026");

  await page.getByLabel("Name", { exact: true }).fill("E2E diploma 毕业证书");
  await page.locator('input[name="file"]').setInputFiles({ name: "diploma.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Mint", exact: true }).click();
  await expect(page.getByTestId("flash")).toHaveText('DDC "E2E diploma 毕业证书" minted.');
  await expect(page.getByTestId("ddc-status")).toHaveText("Minted");
  await expect(page.getByTestId("ddc-owner")).toHaveText(account.address);
  await expect(page.getByTestId("ddc-contract")).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByTestId("ddc-history-row")).toHaveCount(1);

  // A QR-code password (SPEC §3).
  await page.getByLabel("Set a password").fill("open-sesame");
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByTestId("flash")).toHaveText("QR-code password saved.");
  await expect(page.getByTestId("ddc-password-state")).toHaveText("The public view asks for a password.");

  // The QR code: an SVG of this site's ddc-view URL (the code itself is checked against the URL it names).
  await page.getByTestId("ddc-qr-link").click();
  const figure = page.getByTestId("ddc-qr");
  await expect(figure.locator("svg")).toBeVisible();
  const url = (await figure.getAttribute("data-url"))!;
  expect(url).toMatch(/\/g\/main\/ddc-view\?ddcId=\d+$/);
  const expected = await QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  const drawn = await figure.locator("svg path").evaluateAll((paths) => paths.map((p) => p.getAttribute("d")));
  expect(drawn).toEqual([...expected.matchAll(/ d="([^"]+)"/g)].map((m) => m[1]));
  await expect(page.getByTestId("ddc-qr-target")).toHaveAttribute("href", url);

  // A visitor opens it: the password first (a wrong one is refused), then the details and the file.
  await page.context().clearCookies();
  await page.goto(url);
  await expect(page.getByTestId("ddc-locked")).toBeVisible();
  await expect(page.getByTestId("ddc-view-details")).toHaveCount(0);
  await page.getByLabel("QR-code password").fill("wrong-guess");
  await page.getByRole("button", { name: "Show details" }).click();
  await expect(page.getByText("Wrong QR-code password.")).toBeVisible();
  await page.getByLabel("QR-code password").fill("open-sesame");
  await page.getByRole("button", { name: "Show details" }).click();
  await expect(page.getByTestId("ddc-view-details")).toBeVisible();
  await expect(page.getByTestId("ddc-view-owner")).toHaveText(account.address);
  await expect(page.getByTestId("ddc-metadata")).toContainText("grade");
  await expect(page.getByTestId("ddc-history-row")).toHaveCount(1);
  const file = await page.request.get(
    new URL((await page.getByTestId("ddc-view-file").getAttribute("href"))!, url).toString(),
  );
  expect(file.headers()["content-type"]).toBe("image/png");
  expect(Buffer.from(await file.body()).equals(PNG)).toBe(true);
  // The browser keeps its pass: a reload shows the details without asking again.
  await page.goto(url);
  await expect(page.getByTestId("ddc-view-details")).toBeVisible();
  // On a phone the history is a card per event, nothing clipped, an address on at most two lines (issue 30 item 12).
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("ddc-history-row")).toBeHidden();
  const card = page.getByTestId("ddc-history-card");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(account.address);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  const to = card.locator("dd").first();
  const box = (await to.boundingBox())!;
  const lineHeight = await to.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  expect(box.height).toBeLessThanOrEqual(2 * lineHeight + 1);
});

test("binds an address by pasting a signature made with viem, and unbinds it from the profile", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  const user = await userWithBalance(request, "bind", testInfo, 100);
  const wallet = privateKeyToAccount(generatePrivateKey());

  // A visitor is asked to log in first and comes back to the page.
  await page.context().clearCookies();
  await page.goto("/g/main/account-binding");
  await expect(page).toHaveURL(/\/g\/main\/Login\/Logins$/);
  await fillLogin(page, user.userName, PASSWORD);
  await expect(page).toHaveURL(/\/g\/main\/account-binding$/);
  await expect(page.getByTestId("bindings-empty")).toBeVisible();

  await page.getByLabel("Address", { exact: true }).fill("0x1234");
  await page.getByRole("button", { name: "Get the message to sign" }).click();
  await expect(page.getByText("Enter an address: 0x followed by 40 hexadecimal characters.")).toBeVisible();
  await page.getByLabel("Address", { exact: true }).fill(wallet.address);
  await page.getByRole("button", { name: "Get the message to sign" }).click();
  const message = await page.getByTestId("binding-message").inputValue();
  expect(message).toContain(wallet.address);
  expect(message).toContain("/g/main/account-binding");

  // A signature of another message is refused at its field; the right one binds.
  await page.getByLabel("Signature").fill(await wallet.signMessage({ message: `${message} (altered)` }));
  await page.getByRole("button", { name: "Bind address" }).click();
  await expect(page.getByText("The signature does not match the message and address.")).toBeVisible();
  await page.getByLabel("Signature").fill(await wallet.signMessage({ message }));
  await page.getByRole("button", { name: "Bind address" }).click();
  await expect(page.getByTestId("flash")).toHaveText(`Address ${wallet.address} bound to your account.`);
  await expect(page.getByTestId("binding-row")).toHaveText(new RegExp(wallet.address));

  // Listed on the profile, and unbound there (confirmed).
  await page.goto("/g/home/userCenter/information");
  const row = page.getByTestId("binding-row").filter({ hasText: wallet.address });
  await row.getByRole("button", { name: "Unbind" }).click();
  if (javaScriptEnabled) await page.getByRole("alertdialog").getByRole("button", { name: "Unbind" }).click();
  else await page.getByTestId("confirm-step").getByRole("button", { name: "Unbind" }).click();
  await expect(page.getByTestId("flash")).toHaveText("Address unbound.");
  await expect(page.getByTestId("bindings-empty")).toBeVisible();
});
