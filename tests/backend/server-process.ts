import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, inject } from "vitest";
import { freePort } from "../server/support.ts";
import { PASSWORD, registration, uniqueName, type Envelope } from "./client.ts";

/**
 * Servers of the built app started by the test itself on a DATA_DIR of its choosing, with the embedded
 * database (the tests of the DATA_DIR lock and of backups: tests/backend/data-dir-lock.test.ts, backup.test.ts).
 * They answer the test captcha of the run, so `registration()` of client.ts works against them.
 */
const root = path.resolve(__dirname, "../..");

export type Server = { child: ChildProcess; pid: number; baseUrl: string; dataDir: string; stderr: () => string };
export type Exit = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** The server's environment: the embedded defaults below, then `extra` (e.g. jobs on, test fixtures). */
function serverEnv(dataDir: string, port: number, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    FABRIC_GATEWAY_PORT: "0",
    HOST: "127.0.0.1",
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    TEST_CAPTCHA: inject("testCaptcha"),
    // No background jobs: nothing writes to the database unless the test asks.
    JOBS_INTERVAL_MS: "0",
    // The demo accounts, which these tests log in with (docs/decisions/020).
    DEMO: "1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  // The embedded default, its secrets generated into DATA_DIR (so that a backup must carry them).
  for (const name of ["DATABASE_URL", "SESSION_SECRET", "PAYMENT_WEBHOOK_SECRET", "SEED_DEMO", "VUEAPI_URL"])
    delete env[name];
  return { ...env, ...extra };
}

/** Spawns the built server (server/index.js) on DATA_DIR; `exited` resolves when it ends. */
export async function spawnServer(dataDir: string, extra: Record<string, string> = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, "server/index.js"), "build/index.js"], {
    cwd: root,
    env: serverEnv(dataDir, port, extra),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Exit>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, port, baseUrl: `http://127.0.0.1:${port}`, exited, stderr: () => stderr };
}

/** A server that has become ready (GET /healthz) on DATA_DIR. */
export async function startServer(dataDir: string, extra: Record<string, string> = {}): Promise<Server> {
  const spawned = await spawnServer(dataDir, extra);
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (spawned.child.exitCode !== null)
      throw new Error(`the server exited with ${spawned.child.exitCode}: ${spawned.stderr()}`);
    try {
      if ((await fetch(`${spawned.baseUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server on ${dataDir} was not ready in 150 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child: spawned.child, pid: spawned.child.pid!, baseUrl: spawned.baseUrl, dataDir, stderr: spawned.stderr };
}

/** Ends a server: SIGTERM (clean shutdown) or SIGKILL (a crash); waits until it is gone. */
export async function stopServer(server: Server | undefined, signal: "SIGTERM" | "SIGKILL" = "SIGTERM") {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill(signal);
  const force = setTimeout(() => server.child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(force);
}

/**
 * Fills the empty folder `dataDir` with a copy of a data directory as the first start of the built server leaves
 * it (migrated, the demo seeded, its secrets made; stopped cleanly), for a test about something after that first
 * start: a start on the copy skips the migrations and the seeding, most of a first start's work. The original is
 * made once per build and set of migrations in the temporary directory and shared by the run's files (the
 * migrations from empty are still run by the suite's server, global-setup.ts, and migrations.test.ts). Every copy
 * has the original's secrets.
 */
export async function startedDataDir(dataDir: string): Promise<string> {
  const key = createHash("sha256")
    .update(readFileSync(path.join(root, "build/index.js")))
    .update(readFileSync(path.join(root, "server/index.js")))
    .update(readFileSync(path.join(root, "backend/db/migrations/meta/_journal.json")))
    .digest("hex")
    .slice(0, 16);
  const original = path.join(tmpdir(), `bsn-started-data-${key}`);
  if (!existsSync(original)) {
    const scratch = mkdtempSync(path.join(tmpdir(), "bsn-started-scratch-"));
    await stopServer(await startServer(scratch));
    try {
      // A rename is atomic: another process that made the same original first wins, and this one is dropped.
      renameSync(scratch, original);
    } catch (error) {
      if (!existsSync(original)) throw error;
    }
    rmSync(scratch, { recursive: true, force: true });
  }
  cpSync(original, dataDir, { recursive: true });
  return dataDir;
}

/** POSTs a /vueapi path of that server. */
export async function callAt<T = any>(
  server: Server,
  p: string,
  body: object = {},
  token?: string,
): Promise<Envelope<T>> {
  const res = await fetch(`${server.baseUrl}/vueapi${p}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ userLanguage: "en", ...body }),
  });
  return res.json() as Promise<Envelope<T>>;
}

export async function loginAt(server: Server, username: string, password = PASSWORD) {
  const captchaKey = (await callAt<{ captchaKey: string }>(server, "/anon/captcha/create")).data.captchaKey;
  return callAt<{ token: string }>(server, "/main/user/login", {
    username,
    password,
    captchaKey,
    captcha: inject("testCaptcha"),
  });
}

/** Registers a user and activates it from the mail in the server's outbox: two acknowledged writes. */
export async function registerAndActivate(server: Server): Promise<string> {
  const userName = uniqueName("lock");
  const captchaKey = (await callAt<{ captchaKey: string }>(server, "/anon/captcha/create")).data.captchaKey;
  const registered = await callAt(server, "/anon/user/register", {
    payload: { ...registration(userName), captchaKey },
  });
  expect(registered.code, JSON.stringify(registered)).toBe(0);
  const outbox = path.join(server.dataDir, "outbox");
  const mail = readdirSync(outbox)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(path.join(outbox, f), "utf8")) as { to: string; text: string })
    .find((m) => m.to === `${userName}@example.com`);
  const token = mail?.text.match(/UserActivation\?token=([A-Za-z0-9_-]+)/)?.[1];
  expect(token, `activation mail of ${userName}`).toBeTruthy();
  const activated = await callAt(server, "/anon/user/activate", { token });
  expect(activated.code, JSON.stringify(activated)).toBe(0);
  return userName;
}

/** Every file under a folder with its size, modification time and content hash. */
export function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const file = path.join(dir, rel, name);
      const stat = statSync(file);
      if (stat.isDirectory()) {
        out[path.join(rel, name) + "/"] = String(stat.mtimeMs);
        walk(path.join(rel, name));
      } else {
        out[path.join(rel, name)] =
          `${stat.size} ${stat.mtimeMs} ${createHash("sha1").update(readFileSync(file)).digest("hex")}`;
      }
    }
  };
  if (existsSync(dir)) walk("");
  return out;
}
