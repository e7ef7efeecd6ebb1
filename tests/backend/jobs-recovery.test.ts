import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import {
  callAt,
  loginAt,
  registerAndActivate,
  startedDataDir,
  startServer,
  stopServer,
  type Server,
} from "./server-process.ts";

/**
 * docs/decisions/005: a server killed with SIGKILL while it runs a job, then started again on the same data:
 * the new process sees on start that the process holding the job has ended (it holds the DATA_DIR lock, and
 * the holder's pid is gone from this host) and runs the job at once, instead of waiting out its lease.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-jobs-recovery-"));
// A ten-minute job lease: the restarted server, however long it takes to boot on a loaded machine, cannot find the
// job free by lease within the test's 10 s; only its take-over of an ended holder's jobs runs it in time (with the
// default 30 s lease, a slow boot once let the job through by lease, hiding a broken take-over: docs/decisions/105).
const JOBS = { TEST_FIXTURES: "1", SEED_DEMO: "0", JOBS_INTERVAL_MS: "200", JOBS_LEASE_MS: "600000" };
const started: Server[] = [];

afterAll(async () => {
  for (const server of started) await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
});

async function status(server: Server, token: string, jobId: number) {
  const res = await callAt<{ state: string; attempts: number; lockedBy: string | null; lastError: string | null }>(
    server,
    "/test/jobs/status",
    { jobId },
    token,
  );
  expect(res.code, JSON.stringify(res)).toBe(0);
  return res.data;
}

it(
  "kill -9 during a job, restart: the job runs to the end within seconds, not after its lease",
  { timeout: 240_000 },
  async () => {
    // A data directory a server has started on before (migrated, the demo seeded): the test is about the next starts.
    const first = await startServer(await startedDataDir(dataDir), JOBS);
    started.push(first);
    const userName = await registerAndActivate(first);
    const token = (await loginAt(first, userName)).data.token;
    // Its first attempt takes ten minutes, a second one a moment; it starts in this server's process.
    const created = await callAt<{ jobId: number }>(
      first,
      "/test/jobs",
      { durationsMs: [600_000, 300], run: "start" },
      token,
    );
    expect(created.code, JSON.stringify(created)).toBe(0);
    const jobId = created.data.jobId;
    await expect
      .poll(async () => (await status(first, token, jobId)).state, { timeout: 5_000, interval: 50 })
      .toBe("running");
    const running = await status(first, token, jobId);
    expect(running.attempts).toBe(1);
    expect(running.lockedBy).toMatch(new RegExp(`:${first.pid}:[0-9a-f]+$`));

    await stopServer(first, "SIGKILL");

    const second = await startServer(dataDir, JOBS);
    started.push(second);
    const restarted = Date.now();
    let now = await status(second, token, jobId);
    while (now.state !== "done") {
      expect(Date.now() - restarted, `still ${JSON.stringify(now)}`).toBeLessThan(10_000);
      await new Promise((r) => setTimeout(r, 100));
      now = await status(second, token, jobId);
    }
    // Done well within the ten-minute lease the killed process held: taken up at start, run once more.
    expect(now).toMatchObject({ state: "done", attempts: 2, lockedBy: null, lastError: null });
  },
);
