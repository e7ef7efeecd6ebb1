import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, root, startPortal } from "./support.ts";

/**
 * Production is not a test bench (docs/decisions/020): a production start without a payment configuration,
 * or asking for the sandbox without DEMO=1, stops before listening with a plain message; the demo shows
 * test mode on every page and serves the sandbox; a Stripe server serves its webhook and no sandbox.
 */

/** Starts the built server and waits for it to exit by itself; answers its exit code and everything it printed. */
async function startExpectingExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-refused-"));
  const inherited = { ...process.env };
  for (const name of [
    "DATABASE_URL",
    "VUEAPI_URL",
    "DEMO",
    "SEED_DEMO",
    "PAYMENT_PROVIDER",
    "TEST_CAPTCHA",
    "TEST_FIXTURES",
  ])
    delete inherited[name];
  const child = spawn(process.execPath, [path.join(root, "server/index.js"), "build/index.js"], {
    cwd: root,
    env: {
      ...inherited,
      HOST: "127.0.0.1",
      PORT: String(await freePort()),
      FABRIC_GATEWAY_PORT: "0",
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const kill = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      clearTimeout(kill);
      rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, output });
    }),
  );
}

const BANNER = "Test mode — no real money.";

describe("a production server refuses to start as a test bench", () => {
  it("without any configuration: exit 1 and what to set, no stack trace", async () => {
    const { code, output } = await startExpectingExit({ NODE_ENV: "production" });
    expect(code).toBe(1);
    expect(output).toContain(
      "[server] not started: Invalid backend environment:\n" +
        "  - PAYMENT_PROVIDER: a production server needs a real payment provider: set PAYMENT_PROVIDER=stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, " +
        "or DEMO=1 to run the demo (sandbox payments in test mode, demo accounts)",
    );
    expect(output).not.toMatch(/\n\s+at /);
  }, 90_000);

  it("asked for the sandbox without DEMO=1, or with a test captcha: exit 1", async () => {
    const sandbox = await startExpectingExit({ NODE_ENV: "production", PAYMENT_PROVIDER: "sandbox" });
    expect(sandbox.code).toBe(1);
    expect(sandbox.output).toContain(
      "PAYMENT_PROVIDER: the sandbox provider takes no real money and is refused when NODE_ENV=production",
    );
    const captcha = await startExpectingExit({ NODE_ENV: "production", DEMO: "1", TEST_CAPTCHA: "x" });
    expect(captcha.code).toBe(1);
    expect(captcha.output).toContain("TEST_CAPTCHA must not be set when NODE_ENV=production");
  }, 90_000);
});

describe("what a production server serves", () => {
  it("the demo (DEMO=1): test mode on every page and on the sandbox checkout", async () => {
    const portal = await startPortal({ NODE_ENV: "production", DEMO: "1", COOKIE_SECURE: "0" });
    try {
      for (const page of ["/g/main/index", "/g/main/Login/Logins"]) {
        const html = await (await fetch(`${portal.base}${page}`)).text();
        expect(html, page).toContain(BANNER);
      }
      const sandbox = await fetch(`${portal.base}/sandbox-pay/checkout/cs_nosuchcheckout0000`);
      expect(sandbox.status).toBe(404);
      const html = await sandbox.text();
      expect(html).toContain("This checkout does not exist");
      expect(html).toContain(BANNER);
    } finally {
      await portal.stop();
    }
  }, 180_000);

  it("with Stripe: no banner, no sandbox, the webhook refuses an unsigned call", async () => {
    const portal = await startPortal({
      NODE_ENV: "production",
      COOKIE_SECURE: "0",
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_51ServerConfigTest",
      STRIPE_WEBHOOK_SECRET: "whsec_ServerConfigTest0123",
      PUBLIC_URL: "https://portal.example.com",
    });
    try {
      expect(await (await fetch(`${portal.base}/g/main/index`)).text()).not.toContain(BANNER);
      const sandbox = await fetch(`${portal.base}/sandbox-pay/checkout/cs_nosuchcheckout0000`, { redirect: "manual" });
      expect(sandbox.status).toBe(302);
      expect(sandbox.headers.get("Location")).toBe("/g/main/index");
      const webhook = await fetch(`${portal.base}/payments/stripe/webhook`, {
        method: "POST",
        body: "{}",
        headers: { "Content-Type": "application/json" },
      });
      expect(webhook.status).toBe(400);
      expect(await webhook.json()).toEqual({ error: "the Stripe-Signature header is missing" });
    } finally {
      await portal.stop();
    }
  }, 180_000);
});
