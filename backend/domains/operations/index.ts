import { handlersOf } from "../../http/router";
import { defineDomain } from "../../kit/domain";
import { failedJobsWaiting } from "./figures";
import { createTestJob, testJobStatus } from "./fixtures";
import { failedList, retry } from "./handlers";
import { TEST_JOB, testJob } from "./jobs";

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
