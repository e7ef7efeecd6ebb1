import { inject } from "vitest";
import { runWorkersFromBundles } from "#backend/kit/worker.ts";

/**
 * What the backend tests' process asks of the backend it runs from the sources, for the services it opens itself
 * (docs/decisions/085): worker threads from the bundles global-setup.ts made of the same sources for this run,
 * instead of each through tsx's loader.
 */
runWorkersFromBundles(inject("workerBundles"));
