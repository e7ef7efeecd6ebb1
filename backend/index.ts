import { fail } from "../contract/envelope";
import { Msg } from "../contract/messages";
import { openDatabase } from "./db/client";
import type { Deps } from "./deps";
import accounts from "./domains/accounts";
import billing from "./domains/billing";
import inbox from "./domains/inbox";
import invoices from "./domains/invoices";
import participation from "./domains/participation";
import payments from "./domains/payments";
import platform from "./domains/platform";
import profile from "./domains/profile";
import services from "./domains/services";
import store from "./domains/store";
import wizard from "./domains/wizard";
import { readBackendEnv, type BackendEnv } from "./env";
import { createDrain } from "./http/drain";
import { createRouter, type Handlers } from "./http/router";
import { runDueJobs, startJobLoop, type JobRegistry } from "./jobs/runner";
import { BodyTooLargeError, declaresMoreThan, discardRest, limitRequest } from "./kit/body-limit";
import type { Domain, Endpoint } from "./kit/domain";
import { databaseFileStore } from "./kit/storage";
import type { UploadRule } from "./kit/uploads";
import type { UploadKind } from "../contract/uploads";
import { Mailer } from "./mail";
import { seedDemoData } from "./seed";

/**
 * The domains of the backend, in the order their start hooks and demo seeders run (docs/decisions/018).
 * To add a domain: copy backend/domains/_template, add one line here, add its contract/<name>.ts to
 * contract/paths.ts.
 */
export const domains: readonly Domain[] = [platform, accounts, inbox, billing, payments, profile, invoices, services, wizard, participation, store];

/** Every /vueapi path of contract/paths.ts and the handler that answers it (test fixtures included: they refuse themselves unless TEST_FIXTURES=1). */
const handlers = Object.assign({}, ...domains.flatMap((d) => [d.handlers ?? {}, d.fixtures ?? {}])) as Handlers;

/** Every background job kind and its handler (backend/jobs/runner.ts). */
const jobRegistry: JobRegistry = new Map(domains.flatMap((d) => Object.entries(d.jobs ?? {})));

/** Every upload kind (contract/uploads.ts) and the rule of the domain that owns it; a kind is owned once. */
const uploadRules = new Map<UploadKind, UploadRule>();
for (const [kind, rule] of domains.flatMap((d) => Object.entries(d.uploads ?? {}) as [UploadKind, UploadRule][])) {
  if (uploadRules.has(kind)) throw new Error(`upload kind ${kind} is declared twice`);
  uploadRules.set(kind, rule);
}

/** Every HTTP endpoint outside the /vueapi envelope, by path prefix (served by the door route). */
export const endpoints: readonly Endpoint[] = domains.flatMap((d) => d.endpoints ?? []);

type Started = Promise<{ handle: (request: Request) => Promise<Response>; deps: Deps }>;
// Kept on globalThis so that re-evaluating this module (remix dev rebuilds) reuses the open database.
const holder = globalThis as typeof globalThis & { __bsnVueapi?: Started };

/** A /vueapi service over its own database; `now` lets tests move the clock. */
export async function createVueapi(env: BackendEnv, now: () => Date = () => new Date()) {
  const database = await openDatabase(env);
  const deps: Deps = { db: database.db, env, mailer: new Mailer(env), files: databaseFileStore, now };
  for (const domain of domains) await domain.start?.(deps);
  if (env.seedDemo) await seedDemoData(deps, domains);
  // Recurring jobs are scheduled once (their dedupe keys make this a no-op when they exist).
  for (const schedule of domains.flatMap((d) => d.schedules ?? [])) await schedule(deps.db, now());
  return {
    handle: createRouter(deps, handlers, uploadRules),
    services: deps,
    /** Runs the jobs due now (tests call this after moving the clock). */
    runJobs: () => runDueJobs(deps, jobRegistry),
    close: database.close,
  };
}

// The calls this process is answering; a shutdown waits for them before it closes the database.
const drainHolder = globalThis as typeof globalThis & { __bsnDrain?: ReturnType<typeof createDrain> };
const drain = (drainHolder.__bsnDrain ??= createDrain());
/** What a call gets once the process is shutting down (the portal shows it as a server error). */
const shuttingDown = () => new Response(JSON.stringify(fail(Msg.SERVER_ERROR)), { status: 503, headers: { "Content-Type": "application/json; charset=utf-8", "Retry-After": "5" } });

async function start() {
  const { handle, services: deps, close } = await createVueapi(readBackendEnv());
  const stopJobs = deps.env.jobsIntervalMs > 0 ? startJobLoop(deps, jobRegistry, deps.env.jobsIntervalMs) : async () => undefined;
  // On SIGTERM/SIGINT (the server stops taking connections), end cleanly: no further job pass, the calls
  // under way answered, then the database closed. An open database (PGlite's timers, the pool's idle
  // connections) would otherwise keep the process alive long after the signal.
  let stopping: Promise<void> | undefined;
  const shutdown = () => {
    stopping ??= (async () => {
      await stopJobs();
      await drain.close();
      await close();
    })().catch((error) => console.error("backend shutdown failed", error));
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
  return { handle, deps };
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

/** The /vueapi service as a fetch-style handler (ARCHITECTURE: mounted in the portal's process by default). */
export async function handleVueapi(request: Request): Promise<Response> {
  return drain.admit(async () => {
    await startBackend();
    return (await holder.__bsnVueapi!).handle(request);
  }, shuttingDown);
}

/** The endpoint registered for a path, if any (the door route asks before it hands a request over). */
export function endpointFor(pathname: string): Endpoint | undefined {
  return endpoints.find((e) => pathname === e.path.replace(/\/$/, "") || pathname.startsWith(e.path));
}

/**
 * The registered endpoints outside the /vueapi envelope (payment webhooks and the sandbox checkout today):
 * the method is checked and the body limit enforced from the declaration before the domain sees the request.
 */
export async function handleEndpoint(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const endpoint = endpointFor(url.pathname);
  if (!endpoint) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  if (!(endpoint.methods as readonly string[]).includes(request.method)) {
    return new Response("Method not allowed", { status: 405, headers: { Allow: endpoint.methods.join(", "), "Content-Type": "text/plain; charset=utf-8" } });
  }
  const tooLarge = () => new Response("Payload too large", { status: 413, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  if (declaresMoreThan(request, endpoint.bodyLimitBytes)) {
    discardRest(request.body);
    return tooLarge();
  }
  // The body is counted while the endpoint reads it: past the limit its read fails and the answer is a 413,
  // whatever the endpoint made of the failure.
  const limited = limitRequest(request, endpoint.bodyLimitBytes);
  return drain.admit(async () => {
    await startBackend();
    try {
      const response = await endpoint.handle(limited.request, (await holder.__bsnVueapi!).deps);
      if (!limited.exceeded()) return response;
    } catch (error) {
      if (!limited.exceeded() && !(error instanceof BodyTooLargeError)) throw error;
    }
    discardRest(limited.rest());
    return tooLarge();
  }, shuttingDown);
}
