import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { webcrypto } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as x509 from "@peculiar/x509";
import type { TestProject } from "vitest/node";
import { bundleBackendWorkers } from "../../scripts/worker-bundles.mjs";
import { freePort } from "../server/support.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    testCaptcha: string;
    database: "pglite" | "postgres";
    /** The server process's id (the request-limit tests read its memory in /proc). */
    serverPid: number;
    /** The bundles of the backend's workers, made for this run from the sources (tests/backend/setup-process.ts). */
    workerBundles: string;
    /**
     * A TLS certificate for 127.0.0.1 and its key (PEM) that the server trusts through NODE_EXTRA_CA_CERTS: the alert
     * webhook's tests serve HTTPS with it (the server also runs with WEBHOOK_ALLOW_LOOPBACK=1, tests only).
     */
    tlsCert: string;
    tlsKey: string;
  }
}

/**
 * Starts the real built app (portal + embedded /vueapi backend) on a fresh database: PGlite in a new
 * DATA_DIR, or the PostgreSQL of DATABASE_URL when it is set. The tests talk to it over HTTP.
 */
export default async function setup(project: TestProject) {
  const root = path.resolve(__dirname, "../..");
  if (!existsSync(path.join(root, "build/index.js"))) {
    const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (built.status !== 0) throw new Error("remix build failed");
  }
  const testCaptcha = "TEST1";
  const tls = await selfSignedTls();
  const tlsDir = mkdtempSync(path.join(tmpdir(), "bsn-backend-tls-"));
  const caFile = path.join(tlsDir, "ca.pem");
  writeFileSync(caFile, tls.cert);
  // The port is free when asked for, but the server listens only once it has booted (a minute or more on a loaded
  // machine, beside two other backend runs whose services bind ports of their own): taken by then, the server exits
  // with EADDRINUSE, and it starts again on another port, in a new data directory.
  let started: Started | undefined;
  let dataDir = "";
  for (let attempt = 1; !started; attempt++) {
    dataDir = mkdtempSync(path.join(tmpdir(), "bsn-backend-"));
    const tried = await startServer(root, await freePort(), dataDir, testCaptcha, caFile);
    if (tried.portTaken && attempt < 3) {
      console.warn(`the test server's port ${tried.baseUrl} was taken while it booted: starting it on another`);
      rmSync(dataDir, { recursive: true, force: true });
      continue;
    }
    if (tried.error) throw tried.error;
    started = tried;
  }
  const { server, baseUrl } = started;
  // The in-process services run their worker threads from bundles of the sources as they are now, made once a run
  // (docs/decisions/088). Inside the project, so that the bundles' imports of packages find node_modules.
  const workerBundles = mkdtempSync(path.join(root, "build", "test-workers-"));
  await bundleBackendWorkers(root, workerBundles);
  project.provide("baseUrl", baseUrl);
  project.provide("dataDir", dataDir);
  project.provide("testCaptcha", testCaptcha);
  project.provide("database", process.env.DATABASE_URL ? "postgres" : "pglite");
  project.provide("serverPid", server.pid ?? 0);
  project.provide("workerBundles", workerBundles);
  project.provide("tlsCert", tls.cert);
  project.provide("tlsKey", tls.key);
  return async () => {
    rmSync(workerBundles, { recursive: true, force: true });
    // The server ends on SIGTERM: it stops taking connections, answers the calls under way and closes its
    // database (backend/index.ts). Wait until it has really exited, so nothing outlives the run; one that
    // ignores SIGTERM is a bug of its own (an open handle), said here and then killed.
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      const force = setTimeout(() => {
        console.warn("the test server did not exit within 5 s of SIGTERM: killed");
        server.kill("SIGKILL");
      }, 5_000);
      await exited;
      clearTimeout(force);
    }
    // The run's database (and the files, chains and IPFS blocks beside it) is of no use once the run is over.
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(tlsDir, { recursive: true, force: true });
  };
}

/** A self-signed certificate for 127.0.0.1 that is its own trust anchor, as the DID tests make theirs. */
async function selfSignedTls() {
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const alg = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ["sign", "verify"])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: "02",
    name: "CN=127.0.0.1",
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 7 * 86_400_000),
    signingAlgorithm: alg,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.SubjectAlternativeNameExtension([{ type: "ip", value: "127.0.0.1" }]),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey("pkcs8", keys.privateKey)).toString("base64");
  return {
    cert: cert.toString("pem"),
    key: `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join("\n")}\n-----END PRIVATE KEY-----\n`,
  };
}

type Started = { server: ChildProcess; baseUrl: string; portTaken?: boolean; error?: Error };

/** Starts the server on `port` and waits until /healthz answers; says whether it failed because the port was taken. */
async function startServer(
  root: string,
  port: number,
  dataDir: string,
  testCaptcha: string,
  caFile: string,
): Promise<Started> {
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, [path.join(root, "server/index.js"), "build/index.js"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      FABRIC_GATEWAY_PORT: "0",
      HOST: "127.0.0.1",
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      TEST_CAPTCHA: testCaptcha,
      TEST_FIXTURES: "1",
      // The alert webhook's tests (docs/decisions/092): their HTTPS receiver listens on loopback with a certificate
      // this process trusts (read at its start).
      WEBHOOK_ALLOW_LOOPBACK: "1",
      NODE_EXTRA_CA_CERTS: caFile,
      // The demo accounts the tests log in with (docs/decisions/020).
      DEMO: "1",
      JOBS_INTERVAL_MS: "200",
      SESSION_SECRET: "backend-test-secret",
      // Required with DATABASE_URL (docs/decisions/007); the embedded run would generate one into DATA_DIR.
      PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
      PUBLIC_URL: baseUrl,
      // Real rate limits (docs/decisions/021), but not for the tests' own address: tests that check a limit
      // name another address in X-Forwarded-For, which this server believes from loopback only.
      TRUST_PROXY: "loopback",
      RATE_LIMIT_EXEMPT: "127.0.0.1",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  // Its errors still reach the run's output; the start's are also read for EADDRINUSE.
  let portTaken = false;
  server.stderr!.on("data", (chunk: Buffer) => {
    if (chunk.includes("EADDRINUSE")) portTaken = true;
    process.stderr.write(chunk);
  });
  // A first start migrates and seeds a fresh database: on a loaded machine (the end-to-end run and the other
  // backend run start at the same moment, scripts/test.sh) that took over two minutes.
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (server.exitCode !== null)
      return { server, baseUrl, portTaken, error: new Error(`server exited with ${server.exitCode}`) };
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) return { server, baseUrl };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      server.kill("SIGKILL");
      return { server, baseUrl, error: new Error("server did not become ready in 300 s") };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
