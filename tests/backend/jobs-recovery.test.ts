import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { activeUser, call, type Server } from "./client";
import { startBuiltServer } from "./server-process";

/**
 * docs/decisions/005: a server killed with SIGKILL while it runs a job, then started again on the same data
 * (the same embedded DATA_DIR, or the same DATABASE_URL): the new process sees on start that the process
 * holding the job has ended on this host and runs the job at once, instead of waiting out its lease.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-jobs-recovery-"));
const started: ChildProcess[] = [];

/** The built server on the shared data. */
async function startServer(): Promise<{ child: ChildProcess; server: Server }> {
  const testCaptcha = "JOBS1";
  const { child, baseUrl } = await startBuiltServer({
    DATA_DIR: dataDir,
    TEST_CAPTCHA: testCaptcha,
    TEST_FIXTURES: "1",
    SEED_DEMO: "0",
    JOBS_INTERVAL_MS: "200",
    SESSION_SECRET: "jobs-recovery-secret",
    PAYMENT_WEBHOOK_SECRET: "jobs-recovery-webhook-secret",
  });
  started.push(child);
  return { child, server: { baseUrl, dataDir, testCaptcha } };
}

afterAll(async () => {
  for (const child of started) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(force);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function status(server: Server, token: string, jobId: number) {
  const res = await call<{ state: string; attempts: number; lockedBy: string | null; lastError: string | null }>("/test/jobs/status", { jobId }, token, server);
  expect(res.code, JSON.stringify(res)).toBe(0);
  return res.data;
}

it("kill -9 during a job, restart: the job runs to the end within seconds, not after its lease", { timeout: 240_000 }, async () => {
  const first = await startServer();
  const user = await activeUser("jobkill", first.server);
  // Its first attempt takes ten minutes, a second one a moment; it starts in this server's process.
  const created = await call("/test/jobs", { durationsMs: [600_000, 300], run: "start" }, user.token, first.server);
  expect(created.code, JSON.stringify(created)).toBe(0);
  const jobId: number = created.data.jobId;
  await expect.poll(async () => (await status(first.server, user.token, jobId)).state, { timeout: 5_000, interval: 50 }).toBe("running");
  const running = await status(first.server, user.token, jobId);
  expect(running.attempts).toBe(1);
  expect(running.lockedBy).toMatch(new RegExp(`:${first.child.pid}:[0-9a-f]+$`));

  first.child.kill("SIGKILL");
  await new Promise((resolve) => first.child.once("exit", resolve));

  const second = await startServer();
  const restarted = Date.now();
  let now = await status(second.server, user.token, jobId);
  while (now.state !== "done") {
    expect(Date.now() - restarted, `still ${JSON.stringify(now)}`).toBeLessThan(10_000);
    await new Promise((r) => setTimeout(r, 100));
    now = await status(second.server, user.token, jobId);
  }
  // Done well within the 30-second lease the killed process held: taken up at start, run once more.
  expect(Date.now() - restarted).toBeLessThan(10_000);
  expect(now).toMatchObject({ state: "done", attempts: 2, lockedBy: null, lastError: null });
});
