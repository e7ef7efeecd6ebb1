import type { Handlers } from "../http/router";
import type { JobHandler } from "../jobs/runner";

/** The /vueapi handlers of this domain, by path (contract/payments.ts). */
export const paymentHandlers = {} satisfies Partial<Handlers>;

/** The background jobs of this domain, by kind. */
export const paymentJobs: Record<string, JobHandler> = {};
