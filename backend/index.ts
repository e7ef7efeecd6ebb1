import { activate, changePassword, checkResetCode, clientInfo, login, logout, register, resetPassword, sendResetCode } from "./domains/accounts/handlers";
import { createCaptcha } from "./domains/accounts/captcha";
import { openDatabase } from "./db/client";
import { seedDemo, seedPlatform } from "./db/seed";
import { readBackendEnv, type BackendEnv } from "./env";
import { createDrain } from "./http/drain";
import { createRouter, handlersOf, type Handlers } from "./http/router";
import { Mailer } from "./mail";
import { listMessages, markRead } from "./domains/messages/handlers";
import { homeSummary, listCityNodes } from "./domains/platform/handlers";
import type { Deps } from "./deps";
import { billingHandlers, billingJobs, startBillingJobs } from "./domains/billing/index";
import { invoiceHandlers, invoiceJobs } from "./domains/invoices/index";
import { runDueJobs, startJobLoop, type JobRegistry } from "./jobs/runner";
import { checkPaymentConfig, handleSandboxPay, paymentHandlers, paymentJobs } from "./domains/payments/index";
import { profileHandlers, profileJobs } from "./domains/profile/index";
import { serviceHandlers, serviceJobs } from "./domains/services/index";
import { participationHandlers, participationJobs, setParticipationEnv } from "./domains/participation/index";
import { answerBackups } from "./kit/backup";
import { lockDataDirOrExit } from "./kit/data-dir-lock";
import { createFixtures } from "./domains/billing/fixtures";
import { serviceWizardHandlers } from "./domains/wizard/index";
import { createServiceFixture } from "./domains/services/fixtures";
import { storeHandlers } from "./domains/store/index";
import { fail } from "../contract/envelope";
import { Msg } from "../contract/messages";

/** The paths answered outside the domain folders: accounts, platform, messages and the test fixtures. */
const coreHandlers = handlersOf({
  "/anon/captcha/create": (_input, ctx) => createCaptcha(ctx.services),
  "/anon/user/register": register,
  "/anon/user/activate": activate,
  "/anon/password/sendResetCode": sendResetCode,
  "/anon/password/checkResetCode": checkResetCode,
  "/main/updateEmailPassword": resetPassword,
  "/main/user/login": login,
  "/anon/platform/cityNodes": listCityNodes,
  "/main/user/logout": logout,
  "/main/getClientInfo": clientInfo,
  "/main/updatePassword": changePassword,
  "/main/home/summary": homeSummary,
  "/sys/system/message/list": listMessages,
  "/sys/system/message/read": markRead,
  "/test/fixtures": createFixtures,
  "/test/services": createServiceFixture,
});

/** Every /vueapi path of contract/paths.ts and the handler that answers it. */
const handlers: Handlers = {
  ...coreHandlers,
  ...billingHandlers,
  ...paymentHandlers,
  ...invoiceHandlers,
  ...profileHandlers,
  ...serviceWizardHandlers,
  ...serviceHandlers,
  ...storeHandlers,
  ...participationHandlers,
};

/** Every background job kind and its handler (backend/jobs/runner.ts). */
const jobRegistry: JobRegistry = new Map(Object.entries({ ...billingJobs, ...paymentJobs, ...invoiceJobs, ...profileJobs, ...serviceJobs, ...participationJobs }));

type Started = Promise<(request: Request) => Promise<Response>>;
// The started service's dependencies, for the sandbox provider's pages (handleSandbox below).
const servicesHolder = globalThis as typeof globalThis & { __bsnServices?: Deps };
// Kept on globalThis so that re-evaluating this module (remix dev rebuilds) reuses the open database.
const holder = globalThis as typeof globalThis & { __bsnVueapi?: Started };

/** A /vueapi service over its own database; `now` lets tests move the clock. */
export async function createVueapi(env: BackendEnv, now: () => Date = () => new Date()) {
  const database = await openDatabase(env);
  setParticipationEnv(env);
  await seedPlatform(database.db);
  if (env.seedDemo) await seedDemo(database.db);
  // Recurring jobs are scheduled once (their dedupe keys make this a no-op when they exist).
  await startBillingJobs(database.db, now());
  const services: Deps = { db: database.db, env, mailer: new Mailer(env), now };
  checkPaymentConfig(services);
  return {
    handle: createRouter(services, handlers),
    services,
    /** Runs the jobs due now (tests call this after moving the clock). */
    runJobs: () => runDueJobs(services, jobRegistry),
    close: database.close,
  };
}

// The calls this process is answering; a shutdown waits for them before it closes the database.
const drainHolder = globalThis as typeof globalThis & { __bsnDrain?: ReturnType<typeof createDrain> };
const drain = (drainHolder.__bsnDrain ??= createDrain());
/** What a call gets once the process is shutting down (the portal shows it as a server error). */
const shuttingDown = () => new Response(JSON.stringify(fail(Msg.SERVER_ERROR)), { status: 503, headers: { "Content-Type": "application/json; charset=utf-8", "Retry-After": "5" } });

async function start() {
  const env = readBackendEnv();
  // One process owns the embedded data under DATA_DIR: a second one ends here, before anything is opened.
  const dataDirLock = await lockDataDirOrExit(env);
  const { handle, services, close } = await createVueapi(env);
  await dataDirLock?.serve(answerBackups(services));
  servicesHolder.__bsnServices = services;
  const stopJobs = services.env.jobsIntervalMs > 0 ? startJobLoop(services, jobRegistry, services.env.jobsIntervalMs) : async () => undefined;
  // On SIGTERM/SIGINT (the server stops taking connections, remix-serve), end cleanly: no further job pass,
  // the calls under way answered, then the database closed. An open database (PGlite's timers, the pool's
  // idle connections) would otherwise keep the process alive long after the signal.
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
  return handle;
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
    return (await holder.__bsnVueapi!)(request);
  }, shuttingDown);
}

/** The embedded sandbox payment provider's hosted pages under /sandbox-pay (docs/decisions/007). */
export async function handleSandbox(request: Request): Promise<Response> {
  return drain.admit(async () => {
    await startBackend();
    return handleSandboxPay(request, servicesHolder.__bsnServices!);
  }, shuttingDown);
}
