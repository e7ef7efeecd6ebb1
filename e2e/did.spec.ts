import { expect, test } from "./fixtures.ts";
import { api, apiToken, logInAs, OPERATOR } from "./services-support.ts";

/**
 * The DID service (issue 18; docs/decisions/043), with JavaScript on and off: a certified enterprise (the demo's
 * democompany) creates a DID (a refused form keeps what was typed), receives the platform's enterprise certified
 * credential, and verifies it pasted, altered and uploaded as a file. An operator revokes a platform-issued
 * credential from Operations → Platform credentials (confirmed first).
 */

const DID = "/g/home/DID";

test("a credential goes from issue to verify", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await logInAs(page, "democompany", "Demo12!@pass");
  await page.goto(DID);
  await expect(page.getByRole("heading", { name: "DID service", level: 1 })).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Console menu" }).getByRole("link", { name: "DID", exact: true }),
  ).toBeVisible();

  // A DID: first "held by me" without a key (refused at the field, the name kept), then a key the portal holds.
  await page.getByRole("link", { name: "Create a DID" }).click();
  await expect(page.getByRole("heading", { name: "Create a DID", level: 1 })).toBeVisible();
  const label = `Company key ${testInfo.project.name} ${Date.now()}`;
  await page.getByLabel("Name").fill(label);
  await page.getByLabel(/^Held by me/).check();
  await page.getByRole("button", { name: "Create DID" }).click();
  await expect(page.getByText("Paste your public key: you chose to hold the private key yourself.")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue(label);
  await page.getByLabel(/^Held by the portal/).check();
  await page.getByRole("button", { name: "Create DID" }).click();
  await expect(page.getByRole("heading", { name: `DID ${label}` })).toBeVisible();
  const did = (await page.getByTestId("did-value").innerText()).trim();
  expect(did).toMatch(/^did:key:z6Mk/);
  await expect(page.getByTestId("did-document")).toContainText(did);

  // The platform's enterprise certified credential, to that DID.
  await page.goto(`${DID}/Credentials`);
  await page.getByLabel("Issue it to").selectOption({ label: `${label} · ${did}` });
  await page.getByRole("button", { name: "Get the credential" }).click();
  await expect(page.getByText("The platform issued your enterprise certified credential.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Enterprise certified credential", level: 1 })).toBeVisible();
  await expect(page.getByTestId("credential-issuer")).toHaveText(/^did:web:127\.0\.0\.1%3A\d+$/);
  const jwt = (await page.getByTestId("credential-jwt").inputValue()).trim();
  expect(jwt.split(".")).toHaveLength(3);

  // Verify it pasted.
  await page.goto(`${DID}/Verify`);
  await expect(page.getByRole("heading", { name: "Verify a credential", level: 1 })).toBeVisible();
  await page.getByLabel("Credential (JWT)").fill(jwt);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  const result = page.getByTestId("verify-result");
  await expect(result.getByText("Verified", { exact: true })).toBeVisible();
  await expect(result.getByTestId("verify-subject")).toHaveText(did);
  await expect(result.getByTestId("verify-revocation")).toHaveText("Not revoked");
  await expect(result.getByTestId("claims")).toContainText("Demo Chain Technology Co., Ltd.");

  // Altered: the signature no longer matches.
  const [h, p, s] = jwt.split(".");
  const claims = JSON.parse(Buffer.from(p, "base64url").toString());
  claims.vc.credentialSubject.enterprise.name = "Mallory Ltd.";
  await page
    .getByLabel("Credential (JWT)")
    .fill(`${h}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${s}`);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page.getByTestId("verify-reason")).toHaveText(
    "The signature does not match the issuer's key: the credential was altered or not signed by its issuer.",
  );
  await expect(page.getByTestId("verify-result").getByText("Not verified")).toBeVisible();

  // Uploaded as a file (the textarea empty).
  await page.getByLabel("Credential (JWT)").fill("");
  await page
    .getByLabel("Or a file")
    .setInputFiles({ name: "credential.jwt", mimeType: "application/octet-stream", buffer: Buffer.from(jwt) });
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page.getByTestId("verify-result").getByText("Verified", { exact: true })).toBeVisible();
  await expect(page.getByTestId("verify-subject")).toHaveText(did);
});

test("a publisher issues a role credential to a participant, revokes it after confirming, and it no longer verifies", async ({
  page,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(120_000);
  await logInAs(page, "democompany", "Demo12!@pass");
  // A DID whose key the portal holds, to sign with (a did:web this time).
  await page.goto(`${DID}/New`);
  const label = `Publisher key ${testInfo.project.name} ${Date.now()}`;
  await page.getByLabel("Name").fill(label);
  await page.getByLabel(/^did:web/).check();
  await page.getByRole("button", { name: "Create DID" }).click();
  const issuer = (await page.getByTestId("did-value").innerText()).trim();
  expect(issuer).toMatch(/^did:web:127\.0\.0\.1%3A\d+:users:[0-9a-f]{20}$/);

  // The demo's confirmed participant of democompany's service (demoperson, Auditor).
  await page.goto(`${DID}/Credentials`);
  await page.getByRole("link", { name: "Issue a role credential" }).click();
  await expect(page.getByRole("heading", { name: "Issue a role credential", level: 1 })).toBeVisible();
  await page.getByLabel("Signed by").selectOption({ label: `${label} · ${issuer}` });
  await page
    .getByLabel("Participant", { exact: true })
    .selectOption({ label: "demoperson · Cold-chain traceability · Auditor" });
  const subject = "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK";
  await page.getByLabel("Participant's DID").fill("not a did");
  await page.getByRole("button", { name: "Issue credential" }).click();
  await expect(page.getByText("Give a DID, e.g. did:key:z6Mk… or did:web:example.com.")).toBeVisible();
  await page.getByLabel("Participant's DID").fill(subject);
  await page.getByRole("button", { name: "Issue credential" }).click();
  await expect(page.getByText("The role credential is issued.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Service role credential", level: 1 })).toBeVisible();
  const credentialUrl = page.url();
  const jwt = (await page.getByTestId("credential-jwt").inputValue()).trim();

  const verify = async () => {
    await page.goto(`${DID}/Verify`);
    await page.getByLabel("Credential (JWT)").fill(jwt);
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    return page.getByTestId("verify-result");
  };
  const before = await verify();
  await expect(before.getByText("Verified", { exact: true })).toBeVisible();
  await expect(before.getByTestId("verify-issuer")).toHaveText(issuer);
  await expect(before.getByTestId("claims")).toContainText("Auditor");

  // Revoke, after confirming.
  await page.goto(credentialUrl);
  await page.getByRole("button", { name: "Revoke" }).click();
  const scope = javaScriptEnabled ? page.getByRole("alertdialog") : page.getByTestId("confirm-step");
  await scope.getByRole("button", { name: "Revoke the credential" }).click();
  await expect(page.getByText("The credential is revoked: its bit is set in the published status list.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Revoke" })).toHaveCount(0);

  const after = await verify();
  await expect(after.getByTestId("verify-reason")).toHaveText("The issuer has revoked this credential.");
  await expect(after.getByTestId("verify-revocation")).toHaveText("Revoked");
});

test("an operator revokes a platform-issued credential after confirming, and it no longer verifies", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(120_000);
  // democompany (a certified enterprise) gets the platform's credential for a new DID, through the API.
  const company = await apiToken(request, "democompany", "Demo12!@pass");
  const subject = await api(
    request,
    "/sys/did/identifiers/create",
    {
      label: `Ops ${testInfo.project.name} ${Date.now()}`.slice(0, 40),
      method: "key",
      custody: "portal",
      keyType: "Ed25519",
    },
    company,
  );
  const vc = await api(request, "/sys/did/credentials/requestEnterprise", { subjectDidId: subject.didId }, company);
  expect(await api(request, "/sys/did/verify", { jwt: vc.jwt }, company)).toMatchObject({ verified: true });

  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/operations");
  await page
    .getByRole("navigation", { name: "Operations" })
    .getByRole("link", { name: /^Platform credentials/ })
    .click();
  await expect(page.getByRole("heading", { name: "Platform-issued credentials", level: 2 })).toBeVisible();
  const row = page.getByTestId("ops-credential").filter({ hasText: subject.did });
  await expect(row).toContainText("Demo Chain Technology Co., Ltd.");
  await expect(row).toContainText("Valid");
  // An unknown intent is a 400.
  expect(
    (
      await page.request.post("/g/home/operations/Credentials", {
        form: { intent: "delete", credentialId: String(vc.credentialId), confirmed: "yes" },
      })
    ).status(),
  ).toBe(400);

  await row.getByRole("button", { name: "Revoke" }).click();
  const scope = javaScriptEnabled ? page.getByRole("alertdialog") : page.getByTestId("confirm-step");
  await expect(scope.getByText("Its bit is set in the platform’s published status list at once")).toBeVisible();
  await scope.getByRole("button", { name: "Revoke the credential" }).click();
  await expect(page.getByTestId("flash")).toHaveText("The credential is revoked.");
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: "Revoke" })).toHaveCount(0);
  expect(await api(request, "/sys/did/verify", { jwt: vc.jwt }, company)).toMatchObject({
    verified: false,
    reason: "revoked",
  });
});
