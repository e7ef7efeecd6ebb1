import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import type { testJobSchema } from "#contract/operations.ts";
import { jobs } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { createJobRunner, jobRegistry, schedule } from "#backend/jobs/runner.ts";
import { TEST_JOB, testJob } from "./jobs.ts";

/**
 * /test/jobs (tests only, TEST_FIXTURES=1): a job of the test kind concerning the caller, due now. With `run`
 * "wait" its next attempt runs in this process through the real runner within the call (a job with its
 * attempts nearly used up and a dependency still down is dead when the call answers); with "start" it starts
 * here and the call answers at once (the job is running in this process, e.g. to kill the process).
 */
export async function createTestJob(input: z.output<typeof testJobSchema>, { deps, user }: SignedInContext) {
  if (!deps.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  const now = deps.now();
  const payload = {
    ownerId: user.id,
    label: input.label,
    durationsMs: input.durationsMs,
    ...(input.failForMs > 0 ? { failUntil: new Date(now.getTime() + input.failForMs).toISOString() } : {}),
  };
  // A job run here is made due only later, so no job loop (of any process) takes it first; the claim makes it due.
  const here = input.run !== "loop";
  const created = await schedule(deps.db, TEST_JOB, payload, {
    runAt: here ? new Date(now.getTime() + 86_400_000) : now,
    createdAt: now,
    attemptsUsed: input.attemptsUsed,
  });
  if (!created) throw new ApiError(Msg.SERVER_ERROR);
  if (!here) return { jobId: created.id };
  const running = createJobRunner(deps, jobRegistry([[TEST_JOB, testJob]])).runJob(created.id);
  if (input.run === "wait") await running;
  else running.catch((error) => console.error("test job failed to run", error));
  return { jobId: created.id };
}

/** /test/jobs/status (tests only): where one of the caller's own test jobs stands. */
export async function testJobStatus(input: { jobId: number }, { deps, user }: SignedInContext) {
  if (!deps.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  const [job] = await deps.db
    .select()
    .from(jobs)
    .where(
      and(eq(jobs.id, input.jobId), eq(jobs.kind, TEST_JOB), sql`(${jobs.payload} ->> 'ownerId')::int = ${user.id}`),
    );
  if (!job) throw new ApiError(Msg.NOT_FOUND);
  const running = job.lockedBy !== null && job.lockedUntil !== null && job.lockedUntil.getTime() > Date.now();
  const state = job.doneAt ? "done" : job.deadAt ? "dead" : running ? "running" : "waiting";
  return {
    state,
    attempts: job.attempts,
    lockedBy: job.lockedBy,
    lastError: job.lastError,
    retries: job.retries,
  } as const;
}
