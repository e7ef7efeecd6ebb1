import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";

/**
 * Operations on the platform itself (backend/domains/operations, docs/decisions/005): the background jobs
 * that used up their attempts (the dead-letter list) and an operator's retry.
 */

/** A dead job as operators see it. `target` is its payload in words ("verId 12"); `owner` the user it concerns. */
export const failedJobSchema = z.object({
  jobId: z.number().int(),
  kind: z.string(),
  target: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  deadAt: z.string(),
  createdAt: z.string(),
  owner: z.string().nullable(),
  /** How many times operators retried it before, and when last. */
  retries: z.number().int(),
  retriedAt: z.string().nullable(),
});
export type FailedJob = z.infer<typeof failedJobSchema>;

export const jobRetrySchema = z.object({ jobId: z.coerce.number().int().positive() });

export const operationPaths = {
  "/sys/ops/jobs/failedList": {
    auth: "operator",
    payload: z.object(pagingFields),
    data: pageOf(failedJobSchema),
  },
  "/sys/ops/jobs/retry": {
    auth: "operator",
    payload: jobRetrySchema,
    data: z.object({ jobId: z.number().int(), kind: z.string() }),
  },
} satisfies Record<string, PathSpec>;

/* ------------------------------------------------------------------------------------------------
 * Tests only (TEST_FIXTURES=1): a job of the test kind, concerning the caller, that takes as long and fails
 * for as long as asked (backend/domains/operations/fixtures.ts).
 * ---------------------------------------------------------------------------------------------- */
export const testJobSchema = z.object({
  /** How long each attempt takes: attempt n takes durationsMs[n - 1] (the last entry for later ones). */
  durationsMs: z.array(z.number().int().min(0).max(600_000)).max(10).default([]),
  /** Every attempt fails until this long after the job was made (a dependency that is down that long). */
  failForMs: z.number().int().min(0).max(86_400_000).default(0),
  /** Attempts counted as used already (7 of 8: its next failure is its last). */
  attemptsUsed: z.number().int().min(0).max(20).default(0),
  /**
   * Where its next attempt runs: "loop" leaves it to the job loops; "wait" runs it in this process within
   * the call; "start" starts it in this process and answers at once (no other process's loop takes it first).
   */
  run: z.enum(["loop", "wait", "start"]).default("loop"),
  /** How the owner's message names the job's resource. */
  label: z.string().trim().min(1).max(50).default("test record"),
});

export const TEST_JOB_STATES = ["waiting", "running", "done", "dead"] as const;

export const operationFixturePaths = {
  "/test/jobs": {
    auth: "user",
    permission: "read",
    payload: testJobSchema,
    data: z.object({ jobId: z.number().int() }),
  },
  "/test/jobs/status": {
    auth: "user",
    permission: "read",
    payload: z.object({ jobId: z.number().int().positive() }),
    data: z.object({
      state: z.enum(TEST_JOB_STATES),
      attempts: z.number().int(),
      lockedBy: z.string().nullable(),
      lastError: z.string().nullable(),
      retries: z.number().int(),
    }),
  },
} satisfies Record<string, PathSpec>;
