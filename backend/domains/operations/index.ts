import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { failedJobsWaiting } from "./figures.ts";
import { createTestJob, testJobStatus } from "./fixtures.ts";
import { failedList, retry } from "./handlers.ts";
import { TEST_JOB, testJob } from "./jobs.ts";

/**
 * Operations on the platform itself: the failed (dead) background jobs and their retry (contract/operations.ts;
 * the runner is the kernel's backend/jobs/runner.ts; docs/decisions/005).
 */
export default defineDomain({
  name: "operations",
  handlers: handlersOf({
    "/sys/ops/jobs/failedList": failedList,
    "/sys/ops/jobs/retry": retry,
  }),
  api: { failedJobsWaiting },
  fixtures: handlersOf({
    "/test/jobs": createTestJob,
    "/test/jobs/status": testJobStatus,
  }),
  fixtureJobs: { [TEST_JOB]: testJob },
});
