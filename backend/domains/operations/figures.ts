import { count, isNotNull } from "drizzle-orm";
import type { Db } from "#backend/db/client.ts";
import { jobs } from "#backend/db/tables.ts";

/** The failed-jobs queue: dead jobs waiting for an operator's retry, as its list shows. */
export async function failedJobsWaiting(db: Db) {
  const [row] = await db.select({ n: count() }).from(jobs).where(isNotNull(jobs.deadAt));
  return { FailedJobs: row.n };
}
