import { generateKeyPairSync, sign } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { api, apiToken, logInAs, OPERATOR, publisherWithService } from "./services-support.ts";
import { createActiveUser, decideInQueue, PASSWORD, uniqueUser } from "./support.ts";

// Participation end to end, with JavaScript on and off (projects js and nojs): an invitation link, an
// application with an uploaded public key, the publisher's and the operator's approvals, the work-order
// job, the participant's confirmation, the certificate download and the access parameters; a rejection.

async function serviceWithInvitation(
  request: Parameters<typeof publisherWithService>[0],
  testInfo: Parameters<typeof uniqueUser>[0],
) {
  const pub = await publisherWithService(request, "pp", testInfo, { verState: 25, nodeCount: 2 });
  await api(request, "/test/participation/service", { appId: pub.appId, certificateMode: 3 }, pub.token);
  const link = await api(request, "/sys/chainAppInfo/invite", { appVerId: pub.appVerId, language: "en" }, pub.token);
  return { ...pub, link: link.path as string };
}

/** The participant opens the link, chooses the first role and a node the service runs on, and pastes a real key and signature. */
async function applyWithPublicKey(page: Page, link: string) {
  await page.goto(link);
  await expect(page).toHaveURL(/\/g\/home\/ParticipatedServices\/ServicesDetail\?types=1/);
  await expect(page.getByRole("heading", { name: "Apply to join" })).toBeVisible();
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const testData = `e2e test data ${Date.now()}`;
  await page.getByRole("radio").first().check();
  await page
    .getByRole("checkbox", { name: /no order/ })
    .first()
    .check();
  await page.getByLabel("Public key (PEM)").fill(publicKey.export({ type: "spki", format: "pem" }) as string);
  await page.getByLabel("Test data", { exact: true }).fill(testData);
  // First a signature of other data: "Public key test failed", with what was typed kept.
  await page
    .getByLabel("Signature of the test data (base64)")
    .fill(sign("sha256", Buffer.from("other data"), privateKey).toString("base64"));
  await page.getByRole("button", { name: "Submit application" }).click();
  await expect(page.getByTestId("form-error")).toContainText("Public key test failed");
  await expect(page.getByLabel("Test data", { exact: true })).toHaveValue(testData);
  await page
    .getByLabel("Signature of the test data (base64)")
    .fill(sign("sha256", Buffer.from(testData), privateKey).toString("base64"));
  await page.getByRole("button", { name: "Submit application" }).click();
  await expect(page.getByText("Your application was sent to the publisher.")).toBeVisible();
  await expect(page.getByTestId("participation").getByTestId("audit-state")).toHaveText("Pending review");
}

/** The publisher's decision on ParticipationManagement/View, confirmed (a dialog with JavaScript, a confirm step without). */
async function publisherDecides(
  page: Page,
  applicant: string,
  decision: "Approve" | "Reject",
  comments: string,
  js: boolean,
) {
  await page.goto("/g/home/ParticipationManagement");
  const row = page.getByTestId("manage-list").getByRole("row", { name: new RegExp(applicant) });
  await row.getByRole("link", { name: "View", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Participation request" })).toBeVisible();
  await page.getByLabel("Review comments").fill(comments);
  await page.getByRole("button", { name: decision }).click();
  if (js) await page.getByRole("alertdialog").getByRole("button", { name: "Confirm" }).click();
  else await page.getByTestId("confirm-step").getByRole("button", { name: "Confirm" }).click();
  await expect(
    page.getByText(decision === "Approve" ? "The request was approved." : "The request was rejected."),
  ).toBeVisible();
}

test("a participant joins by invitation with an uploaded public key, is approved, confirms and gets access", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(120_000);
  const svc = await serviceWithInvitation(request, testInfo);
  const participant = await createActiveUser(request, uniqueUser(testInfo, "pj"));

  await logInAs(page, participant.userName, PASSWORD);
  await applyWithPublicKey(page, svc.link);
  const detailUrl = page.url();

  await logInAs(page, svc.user.userName, PASSWORD);
  await publisherDecides(page, participant.userName, "Approve", "Welcome", javaScriptEnabled);

  await logInAs(page, OPERATOR.userName, OPERATOR.password);
  await page.goto("/g/home/operations/Participations");
  const item = page.getByTestId("join-review-item").filter({ hasText: participant.userName });
  await decideInQueue(page, item, "Approve");
  await expect(page.getByText("The request was approved.")).toBeVisible();

  // The work-order job provisions the nodes (the server runs due jobs every 500 ms).
  await logInAs(page, participant.userName, PASSWORD);
  await expect
    .poll(
      async () => {
        await page.goto(detailUrl.replace(/types=1/, "types=2"));
        return page.getByRole("button", { name: "Confirm participation" }).count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  await page.getByRole("button", { name: "Confirm participation" }).click();
  await expect(page.getByText("You now participate in this service.")).toBeVisible();
  await expect(page.getByTestId("participation").getByTestId("audit-state")).toHaveText("Participated");
  await expect(page.getByTestId("timeline")).toContainText("Welcome");

  await page.goto("/g/home/ParticipatedServices");
  await expect(page.getByTestId("participated-list")).toContainText(svc.name);
  await expect(page.getByTestId("participated-list").getByTestId("list-status")).toHaveText("Confirmed");
  await page.getByTestId("participated-list").getByRole("link", { name: "Access", exact: true }).click();
  await expect(page.getByTestId("user-code")).toHaveText(/^UC[0-9A-F]{12}$/);
  // A real endpoint per node on the service's chain, with the participant's own key (docs/decisions/052).
  await expect(page.getByTestId("gateways")).toContainText(/\/chain\/service\/[a-z0-9-]+\/[A-Za-z0-9_-]{43}/);
  await expect(page.getByTestId("gateways")).not.toContainText(".example");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("download-certificate").click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/-cert\.pem$/);
  const pem = await download.createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(Buffer.from(c));
    return Buffer.concat(chunks).toString("utf8");
  });
  expect(pem).toContain("BEGIN CERTIFICATE");

  await page.goto("/g/home/MyCertificates");
  await expect(page.getByTestId("certificate-row").filter({ hasText: svc.name })).toContainText("Upload public key");
  await expect(
    page.getByTestId("certificate-row").filter({ hasText: svc.name }).getByTestId("certificate-status"),
  ).toHaveText("Valid");
});

test("a rejected application shows the comments and hides the detail", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(90_000);
  const svc = await serviceWithInvitation(request, testInfo);
  const participant = await createActiveUser(request, uniqueUser(testInfo, "pr"));
  await logInAs(page, participant.userName, PASSWORD);
  await applyWithPublicKey(page, svc.link);
  const detailUrl = page.url().replace(/types=1/, "types=2");

  await logInAs(page, svc.user.userName, PASSWORD);
  // Rejecting without comments is refused.
  await page.goto("/g/home/ParticipationManagement");
  await page
    .getByTestId("manage-list")
    .getByRole("row", { name: new RegExp(participant.userName) })
    .getByRole("link", { name: "View", exact: true })
    .click();
  await page.getByRole("button", { name: "Reject" }).click();
  if (javaScriptEnabled) await page.getByRole("alertdialog").getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("This field is required.")).toBeVisible();
  await publisherDecides(
    page,
    participant.userName,
    "Reject",
    "Your company is not a member of the consortium",
    javaScriptEnabled,
  );

  await logInAs(page, participant.userName, PASSWORD);
  await page.goto(detailUrl);
  await expect(page.getByTestId("detail-hidden")).toBeVisible();
  await expect(page.getByTestId("rejection-comments")).toContainText("Your company is not a member of the consortium");
  await expect(page.getByTestId("participation").getByText("Role and function permissions")).toHaveCount(0);
  await page.goto("/g/home/ParticipatedServices?status=rejected");
  await expect(page.getByTestId("participated-list").getByTestId("list-status")).toHaveText("Not approved");
  await page.goto("/g/home/ParticipatedServices/JOIN?a=999999&b=APPXXXX&c=badtoken&d=1&e=en");
  await expect(page.getByTestId("join-invalid")).toContainText("Tokens invalid");
});

test("an order left unpaid past its deadline says so, and paying re-issues and pays it", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const svc = await serviceWithInvitation(request, testInfo);
  const participant = await createActiveUser(request, uniqueUser(testInfo, "po"));
  const token = await apiToken(request, participant.userName);
  // The application through the API (the form is tested above): a node the service runs on and one to order.
  const link = new URL(svc.link, "http://x").searchParams;
  const { ticket } = await api(
    request,
    "/sys/chainAppInfo/applyJoinApp",
    { appId: svc.appId, token: link.get("c"), expiry: link.get("d"), language: link.get("e") },
    token,
  );
  const condition = { appId: svc.appId, ticket };
  const roles = (
    await api(
      request,
      "/sys/chainAppInfo/queryRolesForAppList",
      { page: { pageSize: 999, pageIndex: 1, condition } },
      token,
    )
  ).page.rows;
  const cities = (
    await api(
      request,
      "/sys/chainAppInfo/queryReleaseCitysForAppList",
      { page: { pageSize: 50, pageIndex: 1, condition } },
      token,
    )
  ).page.rows;
  const toOrder = cities.find((c: { released: boolean }) => !c.released);
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const joined = await api(
    request,
    "/sys/chainAppInfo/joinApp",
    {
      ...condition,
      roleId: roles[0].roleId,
      cityNodeIds: [cities.find((c: { released: boolean }) => c.released).cityNodeId, toOrder.cityNodeId],
      certificateMode: 3,
      publicKey: publicKey.export({ type: "spki", format: "pem" }),
      testData: "order test",
      signature: sign("sha256", Buffer.from("order test"), privateKey).toString("base64"),
    },
    token,
  );
  const ref = { appJoinAuditId: joined.appJoinAuditId };
  await api(request, "/sys/chainAppInfo/auditAppJoined", { ...ref, auditState: 1 }, svc.token);
  expect(
    (
      await api(
        request,
        "/sys/ops/participations/decide",
        { ...ref, decision: "approve" },
        await apiToken(request, OPERATOR.userName, OPERATOR.password),
      )
    ).auditState,
  ).toBe(5);
  await api(request, "/test/participation/order", ref, token);
  await api(request, "/test/fixtures", { grantCents: toOrder.orderCents }, token);
  const view = await api(request, "/sys/chainAppInfo/view", { appId: svc.appId, ...ref }, token);

  await logInAs(page, participant.userName, PASSWORD);
  const query = new URLSearchParams({
    types: "2",
    appCode: view.appCode,
    appId: String(svc.appId),
    auditState: "5",
    appJoinAuditId: String(ref.appJoinAuditId),
    ifJoIn: "1",
  });
  await page.goto(`/g/home/ParticipatedServices/ServicesDetail?${query}`);
  const panel = page.getByTestId("order-expired");
  await expect(panel.getByRole("heading", { name: "Order expired — pay to re-issue" })).toBeVisible();
  await expect(panel).toContainText(
    `Bill ${view.participation.order.billNo} was not paid before its deadline and has expired`,
  );
  await panel.getByRole("button", { name: /^Pay .+ from the balance$/ }).click();
  await expect(
    page.getByText(
      "The order had expired: a new order bill was issued at the current prices and paid; the nodes are being prepared.",
    ),
  ).toBeVisible();
  await expect(page.getByTestId("timeline")).toContainText("Order re-issued");
  await expect(page.getByTestId("order-expired")).toHaveCount(0);
});
