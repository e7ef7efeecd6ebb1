import type { Handlers } from "../http/router";
import type { JobHandler } from "../jobs/runner";

/** The /vueapi handlers of this domain, by path (contract/billing.ts). */
export const billingHandlers = {} satisfies Partial<Handlers>;

/** The background jobs of this domain, by kind. */
export const billingJobs: Record<string, JobHandler> = {};
