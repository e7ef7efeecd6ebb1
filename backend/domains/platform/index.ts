import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { seedPlatform, setCityNodePrices } from "./catalogue.ts";
import { dismissChecklist, seedDemoChecklists } from "./checklist.ts";
import { homeDashboard, opsQueueCounts } from "./dashboard.ts";
import { homeSummary, listCityNodes, mailDesktopLink } from "./handlers.ts";
import { platformJobs, scheduleBlobSweep, scheduleUploadSweep } from "./jobs.ts";

/**
 * Platform data (the city-node catalogue, SPEC §3), the console home's summary (contract/platform.ts) and
 * the hourly sweep of uploads nobody claimed (docs/decisions/023).
 */
export default defineDomain({
  name: "platform",
  handlers: handlersOf({
    "/anon/platform/cityNodes": listCityNodes,
    "/anon/platform/desktopLink": mailDesktopLink,
    "/main/home/summary": homeSummary,
    "/main/home/dashboard": homeDashboard,
    "/main/home/checklist/dismiss": dismissChecklist,
    "/sys/ops/queues/waiting": opsQueueCounts,
  }),
  // The catalogue is upserted at every start, so its changes reach existing databases.
  start: (deps) => seedPlatform(deps),
  seedDemo: seedDemoChecklists,
  jobs: platformJobs,
  schedules: [scheduleUploadSweep, scheduleBlobSweep],
  api: { setCityNodePrices },
});
