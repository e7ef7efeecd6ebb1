import { eq } from "drizzle-orm";
import { users } from "#backend/db/tables.ts";
import type { JobDefinition } from "#backend/jobs/runner.ts";

/**
 * Tests only (TEST_FIXTURES=1, registered through the domain's `fixtureJobs`): a job that takes as long as its
 * payload says and fails while the dependency it stands for is down (`failUntil`), concerning the user who
 * made it. The recovery and dead-letter tests drive the real runner with it (backend/jobs/runner.ts).
 */
export const TEST_JOB = "test.job";

const pause = (ms: number) =>
  new Promise<void>((resolve) => {
    // Unref'd: a job still sleeping never keeps a stopping process alive.
    setTimeout(resolve, ms).unref();
  });

export const testJob: JobDefinition = {
  run: async (payload, services, job) => {
    const durations = Array.isArray(payload.durationsMs)
      ? payload.durationsMs.map(Number).filter((n) => Number.isFinite(n) && n >= 0)
      : [];
    const attempt = job?.attempt ?? 1;
    const ms = durations.length > 0 ? durations[Math.min(attempt, durations.length) - 1] : 0;
    if (ms > 0) await pause(ms);
    const failUntil = Date.parse(String(payload.failUntil ?? ""));
    if (Number.isFinite(failUntil) && services.now().getTime() < failUntil) {
      throw new Error(`test dependency unavailable until ${new Date(failUntil).toISOString()}`);
    }
  },
  ownerOf: async (payload, db) => {
    const userId = Number(payload.ownerId);
    if (!Number.isSafeInteger(userId) || userId <= 0) return null;
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
    return user ? { userId: user.id, subject: String(payload.label ?? "test record") } : null;
  },
};
