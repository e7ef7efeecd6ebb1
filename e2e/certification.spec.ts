import type { APIRequestContext } from "@playwright/test";
import { expect, ready, test } from "./fixtures.ts";
import { logInAs, OPERATOR } from "./services-support.ts";
import {
  activationLink,
  CAPTCHA,
  decideInQueue,
  PASSWORD,
  signInOverHttp,
  uniqueUser,
  waitForMail,
} from "./support.ts";

// Enterprise certification reviewed by operations (issue 31 item 3; docs/decisions/071), with JavaScript on and
// off: an enterprise registers (pending review), an operator rejects it with a reason, the user reads the reason
// and submits again with a new licence, the operator approves.

const PAGE = "/g/home/userCenter/certification";
const QUEUE = "/g/home/operations/Certifications";
// A 1x1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

async function post(request: APIRequestContext, p: string, data: unknown) {
  const res = await request.post(`/vueapi${p}`, { data });
  expect(res.status(), p).toBe(200);
  return (await res.json()) as { code: number; message: string; data: any };
}

/** An activated enterprise registered through the /vueapi protocol with its licence: pending review. */
async function enterprise(request: APIRequestContext, userName: string, companyName: string) {
  const email = `${userName}@example.com`;
  const uploaded = await request.post("/vueapi/upload/licence", {
    headers: { "Content-Type": "application/octet-stream", "X-File-Name": "licence.png" },
    data: PNG,
  });
  const licence = (await uploaded.json()) as { code: number; data: { uploadId: string } };
  expect(licence.code, JSON.stringify(licence)).toBe(0);
  const captcha = await post(request, "/anon/captcha/create", {});
  const registered = await post(request, "/anon/user/register", {
    payload: {
      userType: "2",
      userName,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      realName: "测试企业",
      email,
      captchaKey: captcha.data.captchaKey,
      captcha: CAPTCHA,
      agreeTerms: "on",
      agreePrivacy: "on",
      companyName,
      companyAddress: "1 Chang'an Avenue, Beijing",
      contactName: "Han Meimei",
      country: "China",
      creditCode: "91110000MA01ABCDEX",
    },
    licence: { uploadId: licence.data.uploadId },
  });
  expect(registered.code, JSON.stringify(registered)).toBe(0);
  const token = new URL(activationLink(await waitForMail(email, /UserActivation/))).searchParams.get("token");
  expect((await post(request, "/anon/user/activate", { token })).code).toBe(0);
}

test("an enterprise's certification is rejected with a reason, submitted again and approved", async ({
  page,
  browser,
  javaScriptEnabled,
  baseURL,
}, testInfo) => {
  const userName = uniqueUser(testInfo, "cert");
  const company = `Cert ${userName} Ltd`;
  await enterprise(page.request, userName, company);
  await signInOverHttp(page, userName, PASSWORD);
  await expect(page).toHaveURL(/\/g\/home\//);
  await page.goto(PAGE);
  await expect(page.getByTestId("cert-state")).toHaveText("Pending review");

  const context = await browser.newContext({ javaScriptEnabled, baseURL, locale: "en-US" });
  const operator = await context.newPage();
  const item = () =>
    operator.getByTestId("cert-review").filter({ has: operator.getByRole("heading", { name: company }) });
  try {
    await logInAs(operator, OPERATOR.userName, OPERATOR.password);
    await expect(operator).toHaveURL(/\/g\/home\//);
    await operator.goto(QUEUE);
    if (javaScriptEnabled) await ready(operator);
    await expect(item()).toContainText("91110000MA01ABCDEX");
    await expect(item()).toContainText("passes GB 32100");
    await expect(item().getByTestId("cert-licence")).toContainText("licence.png");
    await item().getByLabel("Reason").fill("The licence image is unreadable.");
    await decideInQueue(operator, item(), "Reject", { inMenu: true });
    await expect(operator.getByTestId("flash")).toContainText("rejected");
    await expect(item()).toHaveCount(0);

    // The user reads the reason and answers with a corrected code and a new licence.
    await page.goto(PAGE);
    if (javaScriptEnabled) await ready(page);
    await expect(page.getByTestId("cert-state")).toHaveText("Rejected");
    await expect(page.getByTestId("cert-reason")).toContainText("The licence image is unreadable.");
    // A wrong check digit is refused at its field, what was typed kept.
    await page.getByLabel("Unified credit code").fill("91110000MA01ABCDEY");
    await page
      .getByLabel("Business licence")
      .setInputFiles({ name: "licence2.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: "Submit for review" }).click();
    await expect(page.getByText("This unified social credit code fails its check digit")).toBeVisible();
    await expect(page.getByLabel("Unified credit code")).toHaveValue("91110000MA01ABCDEY");
    await page.getByLabel("Unified credit code").fill("91110108MA01D1DT0D");
    await page
      .getByLabel("Business licence")
      .setInputFiles({ name: "licence2.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: "Submit for review" }).click();
    await expect(page.getByTestId("flash")).toContainText("submitted for review");
    await expect(page.getByTestId("cert-state")).toHaveText("Pending review");

    await operator.goto(QUEUE);
    if (javaScriptEnabled) await ready(operator);
    await expect(item()).toContainText("91110108MA01D1DT0D");
    await decideInQueue(operator, item(), "Approve");
    await expect(operator.getByTestId("flash")).toContainText("approved");
  } finally {
    await context.close();
  }
  await page.goto(PAGE);
  await expect(page.getByTestId("cert-state")).toHaveText("Approved");
});
