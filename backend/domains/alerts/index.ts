import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { alertJobs, scheduleCheck } from "./check.ts";
import { stopWatchingFlushes, watchFlushes } from "./flush.ts";
import { alertHistory, alertSettingsOf, saveAlertSettings } from "./handlers.ts";
import { fireInTx } from "./tell.ts";
import { webhookJobs } from "./webhook.ts";
import {
  deleteWebhook,
  rotateWebhookSecret,
  saveWebhook,
  sendTestEvent,
  webhookDeliveries,
  webhookDueNow,
  webhookOf,
} from "./webhook-handlers.ts";

/**
 * Alerts before limits bite (issue 35 §1, docs/decisions/087, 090; contract/alerts.ts): a monthly budget for all
 * bills, a balance to stay above, a public-chain project's daily requests, a chain account's gas, an IPFS service's
 * capacity and weekly traffic, and the end of a dedicated-node project's or consortium service's paid period, told
 * once per threshold and period through the Message center (and mail by role) and the account's webhook (ADR 092).
 */
export default defineDomain({
  name: "alerts",
  handlers: handlersOf({
    "/sys/alerts/settings": alertSettingsOf,
    "/sys/alerts/save": saveAlertSettings,
    "/sys/alerts/history": alertHistory,
    "/sys/alerts/webhook": webhookOf,
    "/sys/alerts/webhook/save": saveWebhook,
    "/sys/alerts/webhook/rotate": rotateWebhookSecret,
    "/sys/alerts/webhook/delete": deleteWebhook,
    "/sys/alerts/webhook/test": sendTestEvent,
    "/sys/alerts/webhook/deliveries": webhookDeliveries,
  }),
  fixtures: handlersOf({ "/test/alerts/webhookDue": webhookDueNow }),
  jobs: { ...alertJobs, ...webhookJobs },
  schedules: [(db, now) => scheduleCheck(db, now)],
  // The meters' flushes of this process are watched for thresholds crossed (./flush.ts) until the domain stops.
  start: (deps) => watchFlushes(deps),
  stop: (deps) => stopWatchingFlushes(deps),
  api: {
    /**
     * Records an alert a domain found itself (the gas watch of the public chain) and tells it, in the caller's
     * transaction, once per threshold and period; answers 1 when it told.
     */
    fireInTx,
  },
});
