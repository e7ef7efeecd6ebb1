import type { Handlers } from "../http/router";
import type { JobHandler } from "../jobs/runner";

/** The /vueapi handlers of this domain, by path (contract/profile.ts). */
export const profileHandlers = {} satisfies Partial<Handlers>;

/** The background jobs of this domain, by kind. */
export const profileJobs: Record<string, JobHandler> = {};
