import { createHash } from "node:crypto";
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import type { UploadKind } from "#contract/uploads.ts";
import { users } from "#backend/db/tables.ts";
import { openDatabase } from "#backend/db/client.ts";
import { readBackendEnv } from "#backend/env.ts";
import { MANUAL_TREE, shippedPage, writeManual } from "#backend/domains/docs/manual.ts";
import { createVueapi } from "#backend/index.ts";
import { issueToken, markSecondFactorPassed, sha256 } from "#backend/http/auth.ts";
import { demoTotpSecret, passSecondFactor } from "../support/second-factor.ts";
import { PASSWORD, registration, uniqueName } from "./client.ts";
import { madeDataDir } from "./made-dirs.ts";

/**
 * The /vueapi service in the test's own process (the tests that move the clock, run due jobs themselves or
 * reach into the database), over a fresh embedded database in a new DATA_DIR. tests/backend/client.ts is
 * the other way in: over HTTP to the server of global-setup.ts.
 */
export type Vueapi = Awaited<ReturnType<typeof createVueapi>>;
export type Reply<T = any> = { code: number; message: string; data: T };

/** The password of the seeded demo accounts. */
export const DEMO_PASSWORD = "Demo12!@pass";

/**
 * Opens the service on a new PGlite database: NODE_ENV test, RATE_LIMITS off (only the login locks count),
 * plus `vars` (TEST_CAPTCHA, DEMO, RATE_LIMITS, ...); `now` is the clock the test moves. Pass `DATABASE_URL: process.env.DATABASE_URL` to run on the
 * PostgreSQL of the environment instead.
 */
/**
 * Every service of a run on one PostgreSQL shares the test server's secret (tests/backend/global-setup.ts), as
 * processes on one database must in production: what one seals (a chain's treasury key) another opens.
 */
process.env.SESSION_SECRET ??= "backend-test-secret";

/**
 * What the template's postgresql.conf gets beside initdb's: a buffer pool of 16 MB instead of 128. PGlite sets up
 * the whole pool at each start, which took two-thirds of opening a test's database (about 0.7 of 1.05 CPU-seconds,
 * docs/decisions/088); a test's database is a few MB beyond the catalogues. Tests only: a server's database keeps
 * initdb's settings.
 */
const TEMPLATE_CONF =
  "\n# The backend tests' databases (tests/backend/in-process.ts): a small buffer pool starts faster.\nshared_buffers = 16MB\n";

/**
 * A freshly migrated embedded database, made once per set of migrations and copied into each new DATA_DIR: opening
 * PGlite and applying every migration took about 4 s of each in-process file's set-up. The copy is what the
 * migrations would have made (the test server of global-setup.ts and migrations.test.ts still migrate from empty),
 * with TEMPLATE_CONF's settings and the shipped manual written (each start still brings it up to date, docs/manual.ts).
 */
export async function migratedPgdata(): Promise<string> {
  const migrations = path.resolve(process.cwd(), "backend/db/migrations");
  const key = createHash("sha256")
    .update(readFileSync(path.join(migrations, "meta/_journal.json")))
    .update(readFileSync(path.resolve(process.cwd(), "node_modules/@electric-sql/pglite/package.json")))
    .update(TEMPLATE_CONF)
    .update(JSON.stringify(MANUAL_TREE.map((node) => [node, shippedPage(node.key)])))
    .digest("hex")
    .slice(0, 16);
  const template = path.join(tmpdir(), `bsn-pgdata-template-${key}`);
  if (existsSync(template)) return template;
  const scratch = mkdtempSync(path.join(tmpdir(), "bsn-pgdata-scratch-"));
  const database = await openDatabase(readBackendEnv({ ...process.env, DATABASE_URL: undefined, DATA_DIR: scratch }));
  try {
    // The shipped manual too, as the docs domain writes it at a first start (a second of each start otherwise).
    await writeManual({ db: database.db, now: () => new Date() });
  } finally {
    await database.close();
  }
  appendFileSync(path.join(scratch, "pgdata", "postgresql.conf"), TEMPLATE_CONF);
  try {
    // A rename is atomic: another process that made the same template first wins, and this copy is dropped.
    renameSync(path.join(scratch, "pgdata"), template);
  } catch (error) {
    if (!existsSync(template)) throw error;
  }
  rmSync(scratch, { recursive: true, force: true });
  return template;
}

export async function openVueapi(
  name: string,
  vars: Record<string, string | undefined>,
  now?: () => Date,
): Promise<Vueapi> {
  // A data directory made here is removed when the process exits; one the caller gives (a restart) is theirs.
  const dataDir = vars.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), `bsn-${name}-`));
  if (!vars.DATA_DIR && !vars.DATABASE_URL)
    cpSync(await migratedPgdata(), path.join(dataDir, "pgdata"), { recursive: true });
  const env = readBackendEnv({
    ...process.env,
    DATABASE_URL: undefined,
    DATA_DIR: dataDir,
    NODE_ENV: "test",
    RATE_LIMITS: "off",
    // The Fabric gateway on a free port: many services of a run are open at once.
    FABRIC_GATEWAY_PORT: "0",
    ...vars,
  });
  // Removed once the test file ends (./made-dirs.ts).
  if (!vars.DATA_DIR) madeDataDir(dataDir);
  return createVueapi(env, now);
}

/**
 * A database of its own on the suite's PostgreSQL server (DATABASE_URL), for a file whose records would disturb
 * the others' on the shared database (a clock held still, or pages the security fuzzer may change as an
 * operator); undefined without DATABASE_URL (each in-process service then has its own PGlite anyway).
 */
export async function ownDatabase(url: string | undefined): Promise<string | undefined> {
  if (!url) return undefined;
  const { default: pg } = await import("pg");
  const name = `own_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const own = new URL(url);
  own.pathname = `/${name}`;
  return own.toString();
}

/**
 * The service of one test file: opened before its tests (a `beforeAll` registered here, so it runs before
 * the file's own) and closed after them. The object stands for the service from then on.
 */
export function inProcessVueapi(name: string, vars: Record<string, string | undefined>, now?: () => Date): Vueapi {
  let opened: Vueapi | undefined;
  const current = () => {
    if (!opened) throw new Error(`the ${name} service is used before beforeAll opened it`);
    return opened;
  };
  beforeAll(async () => {
    opened = await openVueapi(name, vars, now);
  });
  afterAll(async () => {
    await opened?.close();
  });
  return {
    handle: (request, caller) => current().handle(request, caller),
    callJson: (path, headers, bodyText, caller) => current().callJson(path, headers, bodyText, caller),
    serveEndpoint: (request) => current().serveEndpoint(request),
    get services() {
      return current().services;
    },
    runJobs: () => current().runJobs(),
    get jobs() {
      return current().jobs;
    },
    jobRunner: (options) => current().jobRunner(options),
    health: () => current().health(),
    close: () => current().close(),
  };
}

/** POSTs a JSON body to a /vueapi path of the service, with a bearer token when given; answers the envelope. */
export async function callVueapi<T = any>(
  service: Vueapi,
  p: string,
  body: object = {},
  token?: string,
): Promise<Reply<T>> {
  const res = await service.handle(
    new Request(`http://test.invalid/vueapi${p}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }),
  );
  return res.json() as Promise<Reply<T>>;
}

/** POSTs `body` to the service's download path of `kind` (docs/decisions/053); answers the response (bytes, or the envelope of a refusal). */
export function downloadVueapi(
  service: Vueapi,
  kind: string,
  body: object = {},
  token?: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return service.handle(
    new Request(`http://test.invalid/vueapi/download/${kind}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: JSON.stringify(body),
    }),
  );
}

/** The bytes of a download that must succeed (200, not the envelope). */
export async function downloadedBytes(service: Vueapi, kind: string, body: object = {}, token?: string) {
  const res = await downloadVueapi(service, kind, body, token);
  if (res.status !== 200 || (res.headers.get("Content-Type") ?? "").startsWith("application/json"))
    throw new Error(`download ${kind} answered ${res.status}: ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

/** The envelope of a refused download (its message says why). */
export async function refusedDownload(service: Vueapi, kind: string, body: object = {}, token?: string) {
  const res = await downloadVueapi(service, kind, body, token);
  if (!(res.headers.get("Content-Type") ?? "").startsWith("application/json"))
    throw new Error(`download ${kind} was not refused: ${res.status}`);
  return (await res.json()) as Reply;
}

/** Streams `bytes` to the service's upload path of `kind` as the portal does (docs/decisions/023); answers the envelope. */
export async function uploadVueapi<T = any>(
  service: Vueapi,
  kind: UploadKind,
  name: string,
  bytes: Uint8Array,
  token?: string,
): Promise<Reply<T>> {
  const res = await service.handle(
    new Request(`http://test.invalid/vueapi/upload/${kind}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/octet-stream",
        "X-File-Name": encodeURIComponent(name),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: Buffer.from(bytes),
    }),
  );
  return res.json() as Promise<Reply<T>>;
}

/** The secrets demo operators enrolled here (by data directory and username), for their next logins. */
const enrolledSecrets = new Map<string, string>();

/** Logs in with a fresh captcha answered by the service's TEST_CAPTCHA; answers the token. */
export async function loginToken(service: Vueapi, username: string, password = DEMO_PASSWORD): Promise<string> {
  const captchaKey = (await callVueapi(service, "/anon/captcha/create")).data.captchaKey;
  const res = await callVueapi(service, "/main/user/login", {
    username,
    password,
    captchaKey,
    captcha: service.services.env.testCaptcha,
  });
  expect(res.code, JSON.stringify(res)).toBe(0);
  // A demo operator passes the second step with its documented demo secret, at the service's clock; an operator
  // who has not enrolled yet (made by operator:create, or a database of a release before docs/decisions/022)
  // enrols first through the paths, as at its first login, and its secret is kept for its next logins.
  const clock = () => service.services.now().getTime();
  const token = res.data.token as string;
  if (res.data.secondFactor === "enrol") {
    const enrolment = await callVueapi(service, "/main/mfa/enrolment", {}, token);
    expect(enrolment.code, JSON.stringify(enrolment)).toBe(0);
    enrolledSecrets.set(`${service.services.env.dataDir}:${username.toLowerCase()}`, enrolment.data.secret);
    await passSecondFactor(
      enrolment.data.secret,
      (code) => callVueapi(service, "/main/mfa/confirm", { code }, token),
      clock,
      false,
    );
    return token;
  }
  const secret =
    enrolledSecrets.get(`${service.services.env.dataDir}:${username.toLowerCase()}`) ?? demoTotpSecret(username);
  if (res.data.secondFactor === "verify" && secret) {
    await passSecondFactor(secret, (code) => callVueapi(service, "/main/mfa/verify", { code }, token), clock, false);
  }
  return token;
}

/**
 * Registers a new individual user through the API and activates it in the database (at the service's
 * clock, with `set` for other columns, e.g. userType); the caller logs in with `password`.
 */
export async function registeredUser(service: Vueapi, prefix: string, set: Partial<typeof users.$inferInsert> = {}) {
  const userName = uniqueName(prefix);
  const captchaKey = (await callVueapi(service, "/anon/captcha/create")).data.captchaKey;
  const reg = await callVueapi(service, "/anon/user/register", {
    payload: { ...registration(userName, { captcha: service.services.env.testCaptcha }), captchaKey },
  });
  expect(reg.code, JSON.stringify(reg)).toBe(0);
  await service.services.db
    .update(users)
    .set({ activatedAt: service.services.now(), ...set })
    .where(eq(users.userName, userName));
  return { userName, password: PASSWORD };
}

/** A user inserted straight into the service's database, activated at the service's clock; answers its id. */
export async function insertedUser(service: Vueapi, userName: string, role = "user"): Promise<number> {
  const [row] = await service.services.db
    .insert(users)
    .values({
      userName,
      passwordHash: "x",
      realName: "测试",
      email: `${userName}@example.com`,
      userType: 1,
      role,
      activatedAt: service.services.now(),
    })
    .returning({ id: users.id });
  return row.id;
}

/**
 * A session of the user `userId` made in the database, as a login would; an operator's session has passed
 * its second factor (docs/decisions/022; that step itself is tested in operator-auth.test.ts).
 */
export async function sessionOf(service: Vueapi, userId: number): Promise<string> {
  const token = await issueToken(service.services, userId);
  const [row] = await service.services.db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  if (row?.role === "operator")
    await markSecondFactorPassed(service.services.db, sha256(token), service.services.now());
  return token;
}
