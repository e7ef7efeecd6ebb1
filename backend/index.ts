import { CLIENT_ADDRESS_HEADER, fail } from "#contract/envelope.ts";
import { Msg } from "#contract/messages.ts";
import { openDatabase } from "./db/client.ts";
import type { Deps } from "./deps.ts";
import accounts from "./domains/accounts/index.ts";
import activity from "./domains/activity/index.ts";
import alerts from "./domains/alerts/index.ts";
import search from "./domains/search/index.ts";
import audit from "./domains/audit/index.ts";
import billing from "./domains/billing/index.ts";
import chain from "./domains/chain/index.ts";
import contracts from "./domains/contracts/index.ts";
import inbox from "./domains/inbox/index.ts";
import invoices from "./domains/invoices/index.ts";
import operations from "./domains/operations/index.ts";
import participation from "./domains/participation/index.ts";
import payments from "./domains/payments/index.ts";
import platform from "./domains/platform/index.ts";
import prices from "./domains/prices/index.ts";
import profile from "./domains/profile/index.ts";
import publicChain from "./domains/public-chain/index.ts";
import ipfs from "./domains/ipfs/index.ts";
import crossChain from "./domains/cross-chain/index.ts";
import did from "./domains/did/index.ts";
import ddc from "./domains/ddc/index.ts";
import community from "./domains/community/index.ts";
import ide from "./domains/ide/index.ts";
import support from "./domains/support/index.ts";
import services from "./domains/services/index.ts";
import store from "./domains/store/index.ts";
import testServices from "./domains/test-services/index.ts";
import serviceWizard from "./domains/service-wizard/index.ts";
import docs from "./domains/docs/index.ts";
import legal from "./domains/legal/index.ts";
import market from "./domains/market/index.ts";
import dedicatedNodes from "./domains/dedicated-nodes/index.ts";
import fabric from "./domains/fabric/index.ts";
import { readBackendEnv, type BackendEnv } from "./env.ts";
import { createDrain } from "./http/drain.ts";
import { guardDoor } from "./kit/door-guard.ts";
import { doorRatesOf, stopDoorRatesOf } from "./kit/door-rate.ts";
import { BodyTooLargeError, declaresMoreThan, discardRest, limitRequest, readLimited } from "./kit/body-limit.ts";
import { createRouter, type Caller, type DownloadHandlers, type Handlers, type JsonAnswer } from "./http/router.ts";
import { SessionCache } from "./http/session-cache.ts";
import { CONSTANT_DATA_TTL_MS, ConstantData } from "./kit/constant-data.ts";
import { createJobRunner, jobRegistry, type RunnerOptions } from "./jobs/runner.ts";
import { answerBackups } from "./kit/backup.ts";
import { lockDataDirOrExit } from "./kit/data-dir-lock.ts";
import type { Domain, Endpoint } from "./kit/domain.ts";
import { Limits } from "./kit/rate-limit.ts";
import { migrateFileBytes } from "./kit/file-migration.ts";
import { engineHolders } from "./kit/engine-owner.ts";
import { createFileStore, openBlobStore } from "./kit/storage.ts";
import type { UploadRule } from "./kit/uploads.ts";
import type { UploadKind } from "#contract/uploads.ts";
import { Mailer } from "./mail.ts";
import { seedDemoData } from "./seed.ts";

/**
 * The domains of the backend, in the order their start hooks and demo seeders run (docs/decisions/018).
 * To add a domain: copy backend/domains/_template, add one line here, add its contract/<name>.ts to
 * contract/paths.ts.
 */
export const domains: readonly Domain[] = [
  platform,
  accounts,
  inbox,
  billing,
  chain,
  payments,
  profile,
  invoices,
  services,
  serviceWizard,
  participation,
  store,
  publicChain,
  contracts,
  testServices,
  ipfs,
  did,
  ddc,
  community,
  ide,
  support,
  docs,
  legal,
  market,
  crossChain,
  dedicatedNodes,
  fabric,
  prices,
  operations,
  activity,
  alerts,
  audit,
  search,
];

/** Every /vueapi path of contract/paths.ts and the handler that answers it (test fixtures included: they refuse themselves unless TEST_FIXTURES=1). */
const handlers = Object.assign({}, ...domains.flatMap((d) => [d.handlers ?? {}, d.fixtures ?? {}])) as Handlers;

/** Every background job kind and its handler (backend/jobs/runner.ts); the fixture kinds only with TEST_FIXTURES=1. */
const jobsOf = (env: BackendEnv) =>
  jobRegistry(domains.flatMap((d) => Object.entries({ ...d.jobs, ...(env.testFixtures ? d.fixtureJobs : {}) })));

/** Every upload kind (contract/uploads.ts) and the rule of the domain that owns it; a kind is owned once. */
const uploadRules = new Map<UploadKind, UploadRule>();
for (const [kind, rule] of domains.flatMap((d) => Object.entries(d.uploads ?? {}) as [UploadKind, UploadRule][])) {
  if (uploadRules.has(kind)) throw new Error(`upload kind ${kind} is declared twice`);
  uploadRules.set(kind, rule);
}

/** Every download kind (contract/downloads.ts) and the handler of the domain that answers it; a kind is answered once. */
const downloadHandlers: Partial<DownloadHandlers> = {};
for (const [kind, handler] of domains.flatMap((d) => Object.entries(d.downloads ?? {}))) {
  if (kind in downloadHandlers) throw new Error(`download kind ${kind} is declared twice`);
  (downloadHandlers as Record<string, unknown>)[kind] = handler;
}

/** Every HTTP endpoint outside the /vueapi envelope, by path prefix (served by the door route). */
export const endpoints: readonly Endpoint[] = domains.flatMap((d) => d.endpoints ?? []);

type Started = Promise<{
  handle: (request: Request, caller?: Caller) => Promise<Response>;
  callJson: (path: string, headers: Headers, bodyText: string, caller?: Caller) => Promise<JsonAnswer>;
  deps: Deps;
  health: () => Promise<Record<string, unknown>>;
}>;
// Kept on globalThis so that re-evaluating this module (remix dev rebuilds) reuses the open database.
const holder = globalThis as typeof globalThis & { __bsnVueapi?: Started };
/** The configuration of the backend started in this process, once it is (which endpoints it serves depends on it). */
const startedEnv = globalThis as typeof globalThis & { __bsnBackendEnv?: BackendEnv };

/** A /vueapi service over its own database; `now` lets tests move the clock. */
export async function createVueapi(env: BackendEnv, now: () => Date = () => new Date()) {
  // A door's rate in RATE_LIMITS must name a rated endpoint (docs/decisions/067): a typo stops the start.
  for (const path of env.rateLimits.doors.keys())
    if (!endpoints.some((e) => e.path === path && e.ratePerMinute !== null))
      throw new Error(
        `RATE_LIMITS: no rated door "${path}" (doors: ${endpoints
          .filter((e) => e.ratePerMinute !== null)
          .map((e) => e.path)
          .join(", ")})`,
      );
  const database = await openDatabase(env);
  // The blob store of stored files (docs/decisions/053); bytes still in old rows move there first.
  const blobs = await openBlobStore(env, database.db);
  await migrateFileBytes(database.db, blobs);
  const deps: Deps = {
    db: database.db,
    env,
    mailer: new Mailer(env),
    limits: new Limits(database.db, env.rateLimits, now),
    files: createFileStore(
      database.db,
      blobs,
      domains.flatMap((d) => (d.namesBlob ? [d.namesBlob] : [])),
    ),
    now,
    sessions: new SessionCache(),
    constants: new ConstantData(env.databaseUrl ? CONSTANT_DATA_TTL_MS : Number.POSITIVE_INFINITY),
  };
  for (const domain of domains) await domain.start?.(deps);
  if (env.seedDemo) await seedDemoData(deps, domains);
  // Recurring jobs are scheduled once (their dedupe keys make this a no-op when they exist).
  for (const schedule of domains.flatMap((d) => d.schedules ?? [])) await schedule(deps.db, now());
  const registry = jobsOf(env);
  const runner = createJobRunner(deps, registry);
  const router = createRouter(deps, handlers, uploadRules, downloadHandlers);
  return {
    handle: (request: Request, caller?: Caller) => router(request, caller),
    /** A JSON call of the portal in this process, without a Request or a Response (docs/decisions/114). */
    callJson: router.callJson,
    /** The endpoints outside /vueapi (webhooks, the sandbox checkout), as the door route serves them. */
    serveEndpoint: (request: Request) => serveEndpoint(request, deps),
    services: deps,
    /** Runs the jobs due now (tests call this after moving the clock). */
    runJobs: () => runner.runDue(),
    /** The job runner of this process; tests make others (another worker, other lease times) with `jobRunner(options)`. */
    jobs: runner,
    jobRunner: (options: RunnerOptions) => createJobRunner(deps, registry, options),
    /** What each domain adds to /healthz. */
    health: () => healthOf(deps),
    close: async () => {
      for (const domain of [...domains].reverse()) await domain.stop?.(deps);
      await stopDoorRatesOf(deps.db);
      await blobs.close();
      await database.close();
    },
  };
}

/** /healthz's body: each domain's report under its name (the chains' heights…). */
async function healthOf(deps: Deps): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const domain of domains) if (domain.health) out[domain.name] = await domain.health(deps);
  // In a cluster (docs/decisions/031), which worker answered.
  if (deps.env.cluster) out.cluster = { role: deps.env.cluster.role, pid: process.pid };
  // With DATABASE_URL, each embedded engine's lease: who runs it now (docs/decisions/095).
  if (deps.env.engineLink) out.engines = await engineHolders(deps);
  return out;
}

// The calls this process is answering; a shutdown waits for them before it closes the database.
const drainHolder = globalThis as typeof globalThis & { __bsnDrain?: ReturnType<typeof createDrain> };
const drain = (drainHolder.__bsnDrain ??= createDrain());
/** What a call gets once the process is shutting down (the portal shows it as a server error). */
const shuttingDownAnswer = (): JsonAnswer => ({
  status: 503,
  headers: { "Content-Type": "application/json; charset=utf-8", "Retry-After": "5" },
  body: JSON.stringify(fail(Msg.SERVER_ERROR)),
});
const shuttingDown = () => new Response(shuttingDownAnswer().body, shuttingDownAnswer());

async function start() {
  const env = readBackendEnv();
  startedEnv.__bsnBackendEnv = env;
  // One process owns the embedded data under DATA_DIR: a second one ends here, before anything is opened.
  // In a cluster (WORKERS > 1, docs/decisions/031) the owner worker holds it for the whole cluster; its peers
  // keep nothing of their own under DATA_DIR and reach the embedded engines through the owner.
  const dataDirLock = env.cluster?.role === "peer" ? undefined : await lockDataDirOrExit(env);
  const { handle, callJson, services: deps, jobs, close, health } = await createVueapi(env);
  await dataDirLock?.serve(answerBackups(deps));
  // Holding the lock of the embedded database, no other process runs jobs on it: every job another process
  // held is an orphan of a process that ended (docs/decisions/005).
  const exclusive = dataDirLock !== undefined && !env.databaseUrl;
  const stopJobs =
    deps.env.jobsIntervalMs > 0 ? jobs.start(deps.env.jobsIntervalMs, { exclusive }) : async () => undefined;
  // On SIGTERM/SIGINT (the server stops taking connections), end cleanly: no further job pass, the calls
  // under way answered, then the database closed. An open database (PGlite's timers, the pool's idle
  // connections) would otherwise keep the process alive long after the signal.
  let stopping: Promise<void> | undefined;
  const shutdown = () => {
    stopping ??= (async () => {
      await stopJobs();
      await drain.close();
      await close();
      await dataDirLock?.release();
    })().catch((error) => console.error("backend shutdown failed", error));
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
  return { handle, callJson, deps, health };
}

/** What the backend in this process reports to /healthz (started first if need be). */
export async function backendHealth(): Promise<Record<string, unknown>> {
  await startBackend();
  return (await holder.__bsnVueapi!).health();
}

/** Validates the environment, opens and migrates the database, seeds; once per process. */
export async function startBackend(): Promise<void> {
  holder.__bsnVueapi ??= start();
  try {
    await holder.__bsnVueapi;
  } catch (error) {
    holder.__bsnVueapi = undefined;
    throw error;
  }
}

/**
 * The /vueapi service as a fetch-style handler, for a request that arrived over HTTP (app/routes/vueapi.$.ts):
 * `caller.clientAddress` is the address the server entry saw for it; any client-address header it carries
 * is ignored (docs/decisions/021).
 */
export async function handleVueapi(request: Request, caller: Caller = {}): Promise<Response> {
  return drain.admit(async () => {
    await startBackend();
    return (await holder.__bsnVueapi!).handle(request, caller);
  }, shuttingDown);
}

/**
 * The /vueapi service called by the portal in this process (app/lib/transport.server.ts, ARCHITECTURE: the
 * default). Only here is the portal's CLIENT_ADDRESS_HEADER believed: a browser never reaches this function,
 * and the portal sets the header from what the server entry saw.
 */
export function handleVueapiInProcess(request: Request): Promise<Response> {
  return handleVueapi(request, { clientAddress: request.headers.get(CLIENT_ADDRESS_HEADER) });
}

/**
 * A JSON call of the portal in this process without a Request or a Response (docs/decisions/114): the path
 * (`/main/...`, without `/vueapi`), the request layer's headers and its JSON text; the same checks, drain
 * and handler as `handleVueapiInProcess`, the same answer as data. Uploads and downloads keep their Request.
 */
export function callVueapiInProcess(path: string, headers: Headers, bodyText: string): Promise<JsonAnswer> {
  return drain.admit(async () => {
    await startBackend();
    return (await holder.__bsnVueapi!).callJson(path, headers, bodyText, {
      clientAddress: headers.get(CLIENT_ADDRESS_HEADER),
    });
  }, shuttingDownAnswer);
}

/**
 * The endpoint this server serves for a path, if any (the door route asks before it hands a request over).
 * An endpoint that depends on the configuration (the sandbox checkout, a provider's webhook) is served only
 * by a backend started in this process with that configuration.
 */
export function endpointFor(
  pathname: string,
  env: BackendEnv | undefined = startedEnv.__bsnBackendEnv,
): Endpoint | undefined {
  return endpoints.find(
    (e) =>
      (pathname === e.path.replace(/\/$/, "") || pathname.startsWith(e.path)) &&
      (!e.enabled || (env !== undefined && e.enabled(env))),
  );
}

const plain = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });

/** A door's refusal of a request over its rate (docs/decisions/067): JSON-RPC on the chain doors. */
function overRate(endpoint: Endpoint, retryAfterSeconds: number): Response {
  const message = `too many requests from this address: try again in ${retryAfterSeconds} s`;
  const body = endpoint.jsonRpc
    ? { jsonrpc: "2.0", id: null, error: { code: -32005, message } }
    : { code: Msg.RATE_LIMITED, message, retryAfterSeconds };
  return new Response(JSON.stringify(body), {
    status: 429,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "Retry-After": String(retryAfterSeconds),
    },
  });
}

/**
 * Serves one request to a registered endpoint outside the /vueapi envelope: the client address's request rate
 * first (docs/decisions/067), then the method, the credential lock of a key door and the body limit from the
 * declaration before the domain sees the request.
 */
export async function serveEndpoint(request: Request, deps: Deps): Promise<Response> {
  const endpoint = endpointFor(new URL(request.url).pathname, deps.env);
  if (!endpoint) return plain(404, "Not found");
  if (endpoint.ratePerMinute !== null) {
    const rate = doorRatesOf(deps.db, deps.limits.config, deps.now).admit(
      endpoint.path,
      endpoint.ratePerMinute,
      request.headers.get(CLIENT_ADDRESS_HEADER),
    );
    if (rate.over) {
      if (request.body) discardRest(request.body);
      return overRate(endpoint, rate.retryAfterSeconds);
    }
  }
  if (!(endpoint.methods as readonly string[]).includes(request.method))
    return plain(405, "Method not allowed", { Allow: endpoint.methods.join(", ") });
  // A door that takes a credential locks out an address after ten refused ones (docs/decisions/062).
  const handle =
    endpoint.auth === "key"
      ? (r: Request) => guardDoor(r, endpoint.path, deps, (guarded) => endpoint.handle(guarded, deps))
      : (r: Request) => endpoint.handle(r, deps);
  if (!request.body) return handle(request);
  if (endpoint.streamBody) {
    // Streamed to the handler, counted while it arrives (docs/decisions/023, 039).
    if (declaresMoreThan(request, endpoint.bodyLimitBytes)) {
      discardRest(request.body);
      return plain(413, "Payload too large", { "Cache-Control": "no-store" });
    }
    const limited = limitRequest(request, endpoint.bodyLimitBytes);
    try {
      const response = await handle(limited.request);
      if (limited.exceeded()) discardRest(limited.rest());
      return response;
    } catch (error) {
      if (!limited.exceeded()) throw error;
      discardRest(limited.rest());
      return plain(413, "Payload too large", { "Cache-Control": "no-store" });
    }
  }
  // Read here within the limit, a body sent without Content-Length too (docs/decisions/023): the domain gets
  // exactly these bytes; a refused body's rest is read and thrown away so that the client gets the 413.
  let body: Uint8Array<ArrayBuffer>;
  try {
    body = await readLimited(request, endpoint.bodyLimitBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return plain(413, "Payload too large", { "Cache-Control": "no-store" });
    throw error;
  }
  return handle(new Request(request.url, { method: request.method, headers: request.headers, body }));
}

/** The door route's way to the endpoints of the backend in this process (started first if need be). */
export async function handleEndpoint(request: Request): Promise<Response> {
  return drain.admit(async () => {
    await startBackend();
    return serveEndpoint(request, (await holder.__bsnVueapi!).deps);
  }, shuttingDown);
}
