import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// One server and one fresh embedded database for the whole run; the workers inherit these from the
// main process, so they read the same outbox.
// A port the OS says is free right now (a random one once collided with a connection's local port).
process.env.E2E_PORT ??= execFileSync(process.execPath, [
  "-e",
  "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); });",
]).toString();
if (!process.env.E2E_DATA_DIR) {
  // Made here, in the runner (its workers inherit the variable), and removed when the runner exits, after the web
  // server has stopped: a run leaves no data directory behind.
  const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-e2e-"));
  process.env.E2E_DATA_DIR = dataDir;
  process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));
}
if (!process.env.E2E_TLS_DIR) {
  // A certificate for 127.0.0.1, its own trust anchor, that the web server trusts (NODE_EXTRA_CA_CERTS, read at its
  // start): e2e/alert-webhook.spec.ts serves its webhook receiver with it (docs/decisions/092).
  const tlsDir = mkdtempSync(path.join(tmpdir(), "bsn-e2e-tls-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "7",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-keyout",
      path.join(tlsDir, "key.pem"),
      "-out",
      path.join(tlsDir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  process.env.E2E_TLS_DIR = tlsDir;
  process.on("exit", () => rmSync(tlsDir, { recursive: true, force: true }));
}
export const E2E_CAPTCHA = "E2E1";
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

function defaultChromium() {
  const shell = "/usr/bin/chromium-headless-shell";
  return existsSync(shell) ? shell : "/usr/bin/chromium";
}

const chromium = {
  browserName: "chromium" as const,
  launchOptions: {
    // Debian's Chromium headless shell (scripts/test.sh installs it; the full browser where only it is installed);
    // Playwright never downloads a browser here. The shell is Chromium without its window system: the same specs
    // took a third less CPU than in the full browser's headless mode (docs/decisions/083).
    executablePath: process.env.CHROMIUM_PATH ?? defaultChromium(),
    args: [
      "--no-sandbox",
      "--headless",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  },
};

export default defineConfig({
  testDir: "e2e",
  // The chains' heights the run left, before the web server stops (docs/decisions/103).
  globalTeardown: "./e2e/global-teardown.ts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  // One retry: a spec that fails once and then passes is reported as flaky by name in the test summary
  // (scripts/test-summary.mjs), so it is seen and fixed, and a spec that fails twice fails the run.
  retries: Number(process.env.E2E_RETRIES ?? 1),
  reporter: [["list"]],
  // A trace is recorded on the retry of a failed test only: recording one for every test (DOM snapshots and
  // screencast frames of each action) cost a fifth of the run's CPU on this 2-core machine (payments and profile
  // specs, both projects: 435 against 336 CPU-seconds). A first failure still leaves its error-context.md.
  use: { baseURL, trace: "on-first-retry", locale: "en-US" },
  projects: [
    { name: "js", use: { ...chromium, javaScriptEnabled: true } },
    { name: "nojs", use: { ...chromium, javaScriptEnabled: false } },
  ],
  webServer: {
    command: "node server/index.js build/index.js",
    url: `${baseURL}/healthz`,
    // A first start migrates and seeds a fresh database, beside the backend runs (scripts/test.sh).
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      FABRIC_GATEWAY_PORT: "0",
      HOST: "127.0.0.1",
      NODE_ENV: "test",
      DATA_DIR: process.env.E2E_DATA_DIR,
      TEST_CAPTCHA: E2E_CAPTCHA,
      TEST_FIXTURES: "1",
      // The alert webhook's receiver listens on loopback with the certificate above (tests only).
      WEBHOOK_ALLOW_LOOPBACK: "1",
      NODE_EXTRA_CA_CERTS: path.join(process.env.E2E_TLS_DIR!, "cert.pem"),
      // The demo: its accounts (demooperator…) and the sandbox in test mode (docs/decisions/020).
      DEMO: "1",
      JOBS_INTERVAL_MS: "500",
      SESSION_SECRET: "e2e-secret",
      PUBLIC_URL: baseURL,
      // Real rate limits (docs/decisions/021), except for the specs' own address, which logs in hundreds of
      // times; e2e/login-limits.spec.ts names other addresses in X-Forwarded-For, believed from loopback only.
      TRUST_PROXY: "loopback",
      RATE_LIMIT_EXEMPT: "127.0.0.1",
    },
  },
});
