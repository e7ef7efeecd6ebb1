// Servers of the benches that start the product themselves (bench/chain.mjs, bench/ipfs.mjs): a free port,
// the built product on it (ready at /healthz), its stop, a /vueapi call that throws on a refusal, a demo
// account's sign-in, and data directories that go when the bench's process exits.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as netServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Every server started here, for the benches' clean-up. */
export const children = [];

export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = netServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });

/** The built product on a free port with `env`, once /healthz answers (at most 150 s). */
export async function serve(env) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, "server/index.js"), "build/index.js"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), FABRIC_GATEWAY_PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 150_000; ;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { base, child };
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error("server not ready in 150 s");
    await new Promise((r) => setTimeout(r, 250));
  }
}

export const stop = (child) =>
  new Promise((resolve) =>
    child.exitCode !== null ? resolve() : (child.once("exit", resolve), child.kill("SIGTERM")),
  );

export async function vueapi(base, p, body, token) {
  const res = await fetch(`${base}/vueapi${p}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (json.code !== 0) throw new Error(`${p}: ${JSON.stringify(json)}`);
  return json.data;
}

/** A fresh directory under the system's temporary folder, removed when the bench's process exits (however). */
export function benchDir(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A demo account's /vueapi token on a server started with TEST_CAPTCHA=`captcha`. */
export async function demoToken(base, username, captcha = "BENCH1") {
  const { captchaKey } = await vueapi(base, "/anon/captcha/create", {});
  const { token } = await vueapi(base, "/main/user/login", { username, password: "Demo12!@pass", captchaKey, captcha });
  return token;
}

/**
 * A new IPFS service of democompany on a test server (TEST_FIXTURES): a balance granted, the account's unpaid
 * traffic bills paid first (they block IPFS, SPEC §5), one gateway. Answers the gateway, the service and its keys by kind.
 */
export async function benchIpfsService(base, token, label) {
  await vueapi(base, "/test/fixtures", { grantCents: 1_000_000 }, token);
  const due = await vueapi(base, "/sys/system/clientInfo/h5billDue", { payType: 1 }, token);
  if (due.bills.length)
    await vueapi(
      base,
      "/sys/system/clientInfo/h5billPayMany",
      { billIds: due.bills.map((b) => b.billId), idempotencyKey: `${label}-pay-${Date.now()}` },
      token,
    );
  const [gateway] = await vueapi(base, "/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices", {}, token);
  const service = await vueapi(
    base,
    "/sys/ipfsBusiness/ipfs/create",
    {
      name: `${label} ${Date.now()}`,
      storeUnit: 1024,
      orgIds: [gateway.orgId],
      idempotencyKey: `${label}-${Date.now()}`,
    },
    token,
  );
  return { gateway, service, keyOf: (kind) => service.keys.find((k) => k.kind === kind).apiKey };
}
