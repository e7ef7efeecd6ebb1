import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, ready, test } from "./fixtures.ts";
import { createActiveUser, PASSWORD, signInOverHttp, uniqueUser } from "./support.ts";

// The alert webhook (issue 35 §1, docs/decisions/092), with JavaScript on and off: a refused address comes back at its
// field with what was typed; a good one is saved and its secret shown; a test event reaches a local HTTPS receiver
// (its certificate trusted by the server through NODE_EXTRA_CA_CERTS, playwright.config.ts) signed with that secret,
// and is listed as delivered.

let receiver: Server;
let hookUrl = "";
const received: { body: string; signature: string }[] = [];

test.beforeAll(async () => {
  const dir = process.env.E2E_TLS_DIR!;
  receiver = createServer(
    { cert: readFileSync(path.join(dir, "cert.pem")), key: readFileSync(path.join(dir, "key.pem")) },
    (req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c));
      req.on("end", () => {
        received.push({ body, signature: String(req.headers["x-bsn-signature"]) });
        res.writeHead(200).end();
      });
    },
  );
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/bsn`;
});

test.afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

test("a webhook is saved, shows its secret and receives a signed test event", async ({ page, request }, testInfo) => {
  const js = testInfo.project.use.javaScriptEnabled !== false;
  const { userName } = await createActiveUser(request, uniqueUser(testInfo, "whk"));
  await signInOverHttp(page, userName, PASSWORD);
  await page.goto("/g/home/userCenter/Alerts");
  if (js) await ready(page);
  await expect(page.getByTestId("webhook-test-mode")).toBeVisible();
  await expect(page.getByTestId("deliveries-empty")).toHaveText("No delivery yet.");

  const url = page.getByLabel("Webhook address (https://)");
  const error = page.locator(`[id="${await url.getAttribute("id")}-error"]`);
  // Refused by the form's schema (with JavaScript) or the action: http.
  await url.fill("http://hooks.example.com/bsn");
  await page.getByRole("button", { name: "Save webhook" }).click();
  await expect(error).toHaveText("The address must start with https://.");
  await expect(url).toHaveValue("http://hooks.example.com/bsn");
  // Refused by the server only: a private address.
  await url.fill("https://10.0.0.7/bsn");
  await page.getByRole("button", { name: "Save webhook" }).click();
  await expect(error).toHaveText("Private network addresses are not allowed.");
  await expect(url).toHaveValue("https://10.0.0.7/bsn");

  await url.fill(hookUrl);
  await page.getByRole("button", { name: "Save webhook" }).click();
  await expect(page.getByTestId("flash")).toHaveText("The webhook was saved.");
  await expect(url).toHaveValue(hookUrl);
  const secret = await page.getByTestId("webhook-secret").inputValue();
  expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);

  const before = received.length;
  await page.getByRole("button", { name: "Send a test event" }).click();
  await expect(page.getByTestId("flash")).toHaveText("A test event is on its way; its delivery is listed below.");
  await expect
    .poll(async () => {
      await page.reload();
      return page.getByTestId("delivery-status").first().textContent();
    })
    .toBe("Delivered");
  await expect(page.getByTestId("delivery-event").first()).toHaveText("Test event");
  await expect(page.getByTestId("delivery-answer").first()).toHaveText("HTTP 200");
  const mine = received.slice(before).find((r) => JSON.parse(r.body).event === "test")!;
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(mine.signature)!;
  expect(createHmac("sha256", secret!).update(`${t}.${mine.body}`).digest("hex")).toBe(v1);
});
