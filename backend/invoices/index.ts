import type { Handlers } from "../http/router";
import type { JobHandler } from "../jobs/runner";

/** The /vueapi handlers of this domain, by path (contract/invoices.ts). */
export const invoiceHandlers = {} satisfies Partial<Handlers>;

/** The background jobs of this domain, by kind. */
export const invoiceJobs: Record<string, JobHandler> = {};
