import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { exportActivity, keysSeen, listActivity } from "./handlers.ts";

/**
 * Team activity, read side (issue 33 "who did what", docs/decisions/079; contract/activity.ts). Entries are
 * written by the router after every successful change in an account's name (backend/kit/activity.ts,
 * contract/activity-rules.ts) into the kernel's team_activity table (backend/db/tables.ts).
 */
export default defineDomain({
  name: "activity",
  handlers: handlersOf({
    "/sys/team/activity": listActivity,
    "/sys/team/activityExport": exportActivity,
    "/sys/team/keysSeen": keysSeen,
  }),
});
