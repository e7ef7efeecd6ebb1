import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { jobs, messages } from "#backend/db/tables.ts";
import { domains } from "#backend/index.ts";
import { jobRegistry, MAX_ATTEMPTS, schedule } from "#backend/jobs/runner.ts";
import { newWorker, thisProcess, workerLabel } from "#backend/jobs/worker.ts";
import { TEST_JOB } from "#backend/domains/operations/jobs.ts";
import { callVueapi, inProcessVueapi, insertedUser, sessionOf } from "./in-process.ts";

// docs/decisions/005: leases, heartbeats, orphans of ended processes, the dead-letter list and its retry.
// The service runs in this process with a clock the test moves (whether a job is due); leases run on the
// database's clock, so the lease tests use real, short leases. Two runners with other identities play two
// processes on other hosts.
let clock = new Date();
const service = inProcessVueapi("jobs", { SEED_DEMO: "0", TEST_FIXTURES: "1", JOBS_INTERVAL_MS: "0" }, () => clock);
let ownerId: number;
let operatorId: number;
const ownerName = `jobowner${Date.now().toString(36)}`;

const newUser = (userName: string, role?: string) => insertedUser(service, userName, role);

async function post(p: string, body: object, as: number) {
  return callVueapi(service, p, body, await sessionOf(service, as));
}

async function testJob(body: object = {}): Promise<number> {
  const res = await post("/test/jobs", body, ownerId);
  expect(res.code, JSON.stringify(res)).toBe(0);
  return res.data.jobId;
}

const row = async (id: number) => (await service.services.db.select().from(jobs).where(eq(jobs.id, id)))[0];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(25);
  }
}

beforeAll(async () => {
  ownerId = await newUser(ownerName);
  operatorId = await newUser(`jobop${Date.now().toString(36)}`, "operator");
});

describe("leases and heartbeats", () => {
  it("a running job's short lease is renewed by its heartbeat: another process cannot take it while it runs", async () => {
    const jobId = await testJob({ durationsMs: [3_500] });
    const a = service.jobRunner({ worker: newWorker({ host: "host-a" }), leaseMs: 1_000, heartbeatMs: 100 });
    const b = service.jobRunner({ worker: newWorker({ host: "host-b" }), leaseMs: 1_000, heartbeatMs: 100 });
    const running = a.runJob(jobId);
    await until(async () => (await row(jobId)).lockedBy === a.label);
    const firstLease = (await row(jobId)).lockedUntil!;
    // The lease is short (no 5-minute claim) ...
    expect(firstLease.getTime() - Date.now()).toBeLessThanOrEqual(1_000 + 200);
    // ... yet for more than two leases the other process finds the job taken.
    const started = Date.now();
    while (Date.now() - started < 2_500) {
      expect(await b.runJob(jobId)).toBe(false);
      await sleep(100);
    }
    expect((await row(jobId)).lockedUntil!.getTime()).toBeGreaterThan(firstLease.getTime());
    expect(await running).toBe(true);
    expect(await row(jobId)).toMatchObject({ attempts: 1, lockedBy: null, lockedUntil: null, lastError: null });
    expect((await row(jobId)).doneAt).not.toBeNull();
  });

  it("without a heartbeat the lease lapses and another process takes the job (a job whose lease has expired is free)", async () => {
    const jobId = await testJob({ durationsMs: [3_000, 0] });
    const stalled = service.jobRunner({ worker: newWorker({ host: "host-a" }), leaseMs: 1_000, heartbeatMs: 60_000 });
    const other = service.jobRunner({ worker: newWorker({ host: "host-b" }), leaseMs: 1_000, heartbeatMs: 100 });
    const first = stalled.runJob(jobId);
    await until(async () => (await row(jobId)).lockedBy === stalled.label);
    expect(await other.runJob(jobId)).toBe(false);
    await sleep(1_200);
    expect(await other.runJob(jobId)).toBe(true);
    expect(await row(jobId)).toMatchObject({ attempts: 2, lockedBy: null });
    expect((await row(jobId)).doneAt).not.toBeNull();
    // The first run ends later; it no longer holds the job, so it changes nothing.
    await first;
    expect(await row(jobId)).toMatchObject({ attempts: 2, lockedBy: null, lastError: null });
  });

  it("the job loop's stop clears the heartbeats and does not wait for a job that hangs longer than the grace", async () => {
    const jobId = await testJob({ durationsMs: [5_000] });
    const runner = service.jobRunner({ worker: newWorker(), leaseMs: 300, heartbeatMs: 50, stopGraceMs: 200 });
    const stop = runner.start(60_000);
    await until(async () => (await row(jobId)).lockedBy === runner.label);
    const stopping = Date.now();
    await stop();
    // Well under the job's 5 s: the stop waited for the grace, not for the job (a loaded machine may take seconds).
    expect(Date.now() - stopping).toBeLessThan(4_000);
    const left = (await row(jobId)).lockedUntil!;
    await sleep(300);
    // No heartbeat after the stop: the lease is where it was and lapses.
    expect((await row(jobId)).lockedUntil!.getTime()).toBe(left.getTime());
    await until(async () => (await row(jobId)).lockedUntil!.getTime() < Date.now());
    // Finish it here so no other test meets it.
    const finisher = service.jobRunner({ worker: newWorker({ host: "host-c" }) });
    await service.services.db.update(jobs).set({ payload: { ownerId } }).where(eq(jobs.id, jobId));
    expect(await finisher.runJob(jobId)).toBe(true);
  });
});

describe("orphans of ended processes on this host", () => {
  let sleeper: ReturnType<typeof spawn>;
  afterAll(() => {
    sleeper?.kill("SIGKILL");
  });

  it("are taken up at once; a live holder's and another host's jobs wait for their leases, unless the database is this process's alone", async () => {
    const gonePid = spawnSync(process.execPath, ["-e", ""]).pid!;
    sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    const holders = {
      gone: workerLabel(newWorker({ pid: gonePid })),
      earlierLifeOfMyPid: workerLabel(newWorker({ pid: process.pid })),
      alive: workerLabel(newWorker({ pid: sleeper.pid! })),
      otherHost: workerLabel(newWorker({ host: `${thisProcess.host}-other`, pid: gonePid })),
    };
    const ids: Record<string, number> = {};
    for (const [name, lockedBy] of Object.entries(holders)) {
      const made = await schedule(
        service.services.db,
        TEST_JOB,
        { ownerId },
        { runAt: new Date(clock.getTime() + 86_400_000) },
      );
      ids[name] = made!.id;
      await service.services.db
        .update(jobs)
        .set({ lockedBy, lockedUntil: new Date(Date.now() + 60_000), attempts: 1 })
        .where(eq(jobs.id, made!.id));
    }
    expect(await service.jobRunner({}).reclaimOrphans()).toBe(2);
    for (const name of ["gone", "earlierLifeOfMyPid"]) {
      expect(await row(ids[name]), name).toMatchObject({ lockedBy: null, lockedUntil: null, attempts: 1 });
      expect((await row(ids[name])).lastError).toMatch(/^interrupted: process \d+ on .+ ended while running it$/);
    }
    for (const name of ["alive", "otherHost"])
      expect((await row(ids[name])).lockedBy, name).toBe(holders[name as keyof typeof holders]);
    // A process holding the DATA_DIR lock of the embedded database is the only one that can run its jobs:
    // every job another process holds is an orphan.
    expect(await service.jobRunner({}).reclaimOrphans(true)).toBe(2);
    for (const name of ["alive", "otherHost"]) expect((await row(ids[name])).lockedBy, name).toBeNull();
    await service.services.db.delete(jobs).where(eq(jobs.kind, TEST_JOB));
  });
});

describe("the dead-letter list", () => {
  it("a job failing MAX_ATTEMPTS times is dead with its error, its owner is told, an operator retries it and it runs", async () => {
    const jobId = await testJob({ failForMs: 86_400_000, label: "ledger export 7" });
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      expect((await row(jobId)).deadAt, `before attempt ${attempt}`).toBeNull();
      await service.runJobs();
      expect((await row(jobId)).attempts).toBe(attempt);
      clock = new Date(clock.getTime() + 2 * 3_600_000);
    }
    const dead = await row(jobId);
    expect(dead.deadAt).not.toBeNull();
    expect(dead).toMatchObject({ attempts: MAX_ATTEMPTS, lockedBy: null, ownerId });
    expect(dead.lastError).toMatch(/^Error: test dependency unavailable until /);
    // A dead job is not run again by itself.
    await service.runJobs();
    expect((await row(jobId)).attempts).toBe(MAX_ATTEMPTS);

    const told = await service.services.db
      .select()
      .from(messages)
      .where(and(eq(messages.userId, ownerId), eq(messages.textKey, "messages.jobDead")));
    expect(told).toHaveLength(1);
    expect(told[0].params).toEqual({ kind: TEST_JOB, subject: "ledger export 7", attempts: String(MAX_ATTEMPTS) });

    // Operators only: another user gets code 4.
    expect((await post("/sys/ops/jobs/failedList", {}, ownerId)).code).toBe(4);
    expect((await post("/sys/ops/jobs/retry", { jobId }, ownerId)).code).toBe(4);
    const list = await post("/sys/ops/jobs/failedList", { pageIndex: 1, pageSize: 50 }, operatorId);
    expect(list.code).toBe(0);
    const listed = list.data.page.rows.find((r: { jobId: number }) => r.jobId === jobId);
    expect(listed).toMatchObject({
      kind: TEST_JOB,
      attempts: MAX_ATTEMPTS,
      owner: ownerName,
      retries: 0,
      retriedAt: null,
      deadAt: dead.deadAt!.toISOString(),
    });
    expect(listed.target).toContain(`ownerId ${ownerId}`);
    expect(listed.lastError).toBe(dead.lastError);

    // The dependency is back; the operator retries.
    clock = new Date(clock.getTime() + 86_400_000);
    const retried = await post("/sys/ops/jobs/retry", { jobId }, operatorId);
    expect(retried).toMatchObject({ code: 0, data: { jobId, kind: TEST_JOB } });
    expect(await row(jobId)).toMatchObject({
      deadAt: null,
      attempts: 0,
      retries: 1,
      retriedBy: operatorId,
      retriedAt: clock,
      runAt: clock,
    });
    expect((await post("/sys/ops/jobs/retry", { jobId }, operatorId)).message).toBe(Msg.JOB_NOT_FAILED);
    expect((await post("/sys/ops/jobs/retry", { jobId: 987_654_321 }, operatorId)).message).toBe(Msg.NOT_FOUND);
    const again = await post("/sys/ops/jobs/failedList", {}, operatorId);
    expect(again.data.page.rows.map((r: { jobId: number }) => r.jobId)).not.toContain(jobId);

    await service.runJobs();
    const done = await row(jobId);
    expect(done.doneAt).not.toBeNull();
    expect(done).toMatchObject({ attempts: 1, lastError: null, deadAt: null });
  });

  it("a job whose process died during its last attempt is buried when next claimed, not run a ninth time", async () => {
    const jobId = await testJob();
    await service.services.db
      .update(jobs)
      .set({
        attempts: MAX_ATTEMPTS,
        lockedBy: workerLabel(newWorker({ host: "gone-host" })),
        lockedUntil: new Date(Date.now() - 1_000),
        lastError: null,
      })
      .where(eq(jobs.id, jobId));
    await service.runJobs();
    const dead = await row(jobId);
    expect(dead.deadAt).not.toBeNull();
    expect(dead).toMatchObject({
      attempts: MAX_ATTEMPTS,
      doneAt: null,
      lastError: "the process running its last attempt stopped before it finished",
    });
  });

  it('/test/jobs with run "wait" makes a dead job at once (the Playwright fixture)', async () => {
    const jobId = await testJob({ failForMs: 60_000, attemptsUsed: MAX_ATTEMPTS - 1, run: "wait" });
    expect((await post("/test/jobs/status", { jobId }, ownerId)).data).toMatchObject({
      state: "dead",
      attempts: MAX_ATTEMPTS,
    });
    // Another user does not see it.
    expect((await post("/test/jobs/status", { jobId }, operatorId)).message).toBe(Msg.NOT_FOUND);
  });
});

describe("owners and names of the registered job kinds", () => {
  const registry = jobRegistry(domains.flatMap((d) => Object.entries({ ...d.jobs, ...d.fixtureJobs })));
  const locale = (lng: string) =>
    JSON.parse(readFileSync(path.resolve(__dirname, `../../locales/${lng}/common.json`), "utf8")).jobKinds;

  it("every kind has a name in both languages (the owner's message and the failed list show it)", () => {
    expect(registry.size).toBeGreaterThan(8);
    for (const kind of registry.keys()) {
      for (const lng of ["en", "zh-CN"]) {
        const name = kind
          .split(".")
          .reduce(
            (node: Record<string, unknown> | undefined, key) => node?.[key] as Record<string, unknown> | undefined,
            locale(lng),
          );
        expect(typeof name, `${lng} jobKinds.${kind}`).toBe("string");
      }
    }
  });

  it("the jobs of a service version concern its publisher; a payload without one concerns nobody", async () => {
    const made = await post("/test/services", { verState: 5, name: "Owner lookup service" }, ownerId);
    expect(made.code, JSON.stringify(made)).toBe(0);
    for (const kind of ["service.test", "service.deploy", "service.expire"]) {
      expect(await registry.get(kind)!.ownerOf!({ verId: made.data.appVerId }, service.services.db)).toEqual({
        userId: ownerId,
        subject: expect.stringMatching(/^Owner lookup service \S+$/),
      });
      expect(await registry.get(kind)!.ownerOf!({ verId: "x" }, service.services.db)).toBeNull();
    }
    for (const kind of ["payments.poll", "payments.expire", "participation.workOrder"]) {
      expect(
        await registry.get(kind)!.ownerOf!({ paymentId: 987_654_321, joinId: 987_654_321 }, service.services.db),
        kind,
      ).toBeNull();
    }
    expect(registry.get("billing.weeklyTraffic")!.ownerOf).toBeUndefined();
  });
});
