import { count, desc, eq, isNotNull } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { jobs, users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import { retryDeadJob } from "#backend/jobs/runner.ts";

/** A job's payload in words for operators: "verId 12, billId 3". */
export function targetOf(payload: Record<string, unknown>): string {
  return Object.entries(payload)
    .map(([key, value]) => `${key} ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(", ")
    .slice(0, 300);
}

/** POST /sys/ops/jobs/failedList: the dead jobs, the latest first (operators). */
export async function failedList(input: Payload<"/sys/ops/jobs/failedList">, { deps }: SignedInContext) {
  const db = deps.db;
  const [{ total }] = await db.select({ total: count() }).from(jobs).where(isNotNull(jobs.deadAt));
  const list = await db
    .select({ job: jobs, owner: users.userName })
    .from(jobs)
    .leftJoin(users, eq(users.id, jobs.ownerId))
    .where(isNotNull(jobs.deadAt))
    .orderBy(desc(jobs.deadAt), desc(jobs.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const rows = list.map(({ job, owner }) => ({
    jobId: job.id,
    kind: job.kind,
    target: targetOf(job.payload),
    attempts: job.attempts,
    lastError: job.lastError,
    deadAt: job.deadAt!.toISOString(),
    createdAt: job.createdAt.toISOString(),
    owner,
    retries: job.retries,
    retriedAt: job.retriedAt?.toISOString() ?? null,
  }));
  return { page: { rows, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/** POST /sys/ops/jobs/retry: a dead job runs again now with all its attempts; the retry is recorded (operators). */
export async function retry(input: Payload<"/sys/ops/jobs/retry">, { deps, user }: SignedInContext) {
  const retried = await retryDeadJob(deps.db, input.jobId, user.id, deps.now());
  if (retried) return { jobId: retried.id, kind: retried.kind };
  const [exists] = await deps.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.id, input.jobId));
  throw new ApiError(exists ? Msg.JOB_NOT_FAILED : Msg.NOT_FOUND);
}
