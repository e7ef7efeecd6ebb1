import { afterAll, inject } from "vitest";
import { rememberCompilations } from "#backend/domains/chain/compile.ts";
import { runWorkersFromBundles } from "#backend/kit/worker.ts";
import { removeMadeDataDirs } from "./made-dirs.ts";

/**
 * What the backend tests' process asks of the backend it runs from the sources, for the services it opens itself
 * (docs/decisions/088): worker threads from the bundles global-setup.ts made of the same sources for this run,
 * instead of each through tsx's loader; and a Solidity compilation done once answered again from memory (the demo
 * data of every service compiles the same sample contracts).
 */
runWorkersFromBundles(inject("workerBundles"));
rememberCompilations();
// Registered before the file's own hooks, so it runs after them (hooks after tests run last-registered first): the
// file's services are closed by then.
afterAll(removeMadeDataDirs);
