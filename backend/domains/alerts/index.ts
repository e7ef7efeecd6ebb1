import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { alertJobs, scheduleCheck } from "./check.ts";
import { alertHistory, alertSettingsOf, saveAlertSettings } from "./handlers.ts";

/**
 * Alerts before limits bite (issue 35 §1, docs/decisions/087; contract/alerts.ts): a monthly budget for all bills
 * and a balance to stay above, told once per threshold and period through the Message center (and mail by role).
 */
export default defineDomain({
  name: "alerts",
  handlers: handlersOf({
    "/sys/alerts/settings": alertSettingsOf,
    "/sys/alerts/save": saveAlertSettings,
    "/sys/alerts/history": alertHistory,
  }),
  jobs: alertJobs,
  schedules: [(db, now) => scheduleCheck(db, now)],
});
