import { and, eq, inArray } from "drizzle-orm";
import { EVM_FRAMEWORKS } from "#contract/service-codes.ts";
import { VerState } from "#contract/service-status.ts";
import type { JobHandler } from "#backend/jobs/runner.ts";
import { deployOnServiceChain } from "./chain.ts";
import { deployOnFabricPeer } from "./fabric-deploy.ts";
import { appVersions, apps } from "./tables.ts";

/**
 * The one-time job of docs/decisions/052 (scheduled by migration 0030 with a dedupe key): on an upgraded
 * database, every running (or deactivated) service of an EVM framework whose current version has Solidity
 * packages gets them deployed on its own chain, as the deploy job does at 24 → 25. Until 052 only FISCO BCOS and
 * CITA did; this gives XuperChain services theirs. Idempotent: a package already deployed keeps its contract, so a
 * run again (a retry, a second process) deploys only what is missing. A service whose package cannot deploy
 * keeps running without a contract; the job fails with its reason, so the runner retries it and, at the last
 * attempt, keeps it dead for an operator to see.
 */
export const JOB_EVM_BACKFILL = "service.evmBackfill";

const ON_CHAIN_STATES = [VerState.RUNNING, VerState.DEACTIVATED, VerState.DEACTIVATED_BY_OPERATOR];

export const runEvmBackfill: JobHandler = async (_payload, deps) => {
  const rows = await deps.db
    .select({ verId: appVersions.id, name: apps.name, version: appVersions.version })
    .from(apps)
    .innerJoin(appVersions, eq(appVersions.id, apps.currentVerId))
    .where(and(inArray(apps.framework, [...EVM_FRAMEWORKS]), inArray(appVersions.verState, ON_CHAIN_STATES)));
  const failed: string[] = [];
  for (const r of rows) {
    const outcome = await deployOnServiceChain(r.verId, deps, ON_CHAIN_STATES);
    if (outcome && !outcome.ok) failed.push(`${r.name} ${r.version}: ${outcome.reason}`);
  }
  if (failed.length) throw new Error(`not deployed on their chain:\n${failed.join("\n")}`.slice(0, 4000));
};

/**
 * The one-time job of docs/decisions/064 (scheduled by migration 0034): on an upgraded database, every running (or
 * deactivated) Fabric service whose current version has a Node.js package was booked without its chaincode
 * (docs/decisions/052, "until the peer lands"); it gets it installed on its channel of the embedded peer, as the
 * deploy job does at 24 → 25. A version already installed is kept. A package the peer refuses leaves the service
 * running without it ("Booked" on its nodes) and fails the job with the reason, for an operator to see.
 */
export const JOB_FABRIC_BACKFILL = "service.fabricBackfill";

export const runFabricBackfill: JobHandler = async (_payload, deps) => {
  // A connected Fabric network's admin installs there (docs/decisions/068): nothing to install from here.
  if (deps.env.fabricNetwork) return;
  const rows = await deps.db
    .select({ verId: appVersions.id, name: apps.name, version: appVersions.version })
    .from(apps)
    .innerJoin(appVersions, eq(appVersions.id, apps.currentVerId))
    .where(and(eq(apps.framework, "fabric"), inArray(appVersions.verState, ON_CHAIN_STATES)));
  const failed: string[] = [];
  for (const r of rows) {
    const outcome = await deployOnFabricPeer(r.verId, deps, ON_CHAIN_STATES);
    if (outcome && !outcome.ok) failed.push(`${r.name} ${r.version}: ${outcome.reason}`);
  }
  if (failed.length) throw new Error(`not installed on the Fabric peer:\n${failed.join("\n")}`.slice(0, 4000));
};
