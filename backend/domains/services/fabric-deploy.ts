import { and, asc, eq } from "drizzle-orm";
import { VerState } from "#contract/service-status.ts";
import type { Deps } from "#backend/deps.ts";
import fabric, { ChaincodeRefused } from "#backend/domains/fabric/index.ts";
import { appVersions, apps, chaincodePackages } from "./tables.ts";

/**
 * The Fabric part of deploying version `verId` (docs/decisions/064, 065): a Fabric service's Node.js chaincode is
 * installed on its channel of the embedded peer (the package check, then Init on the first install, an upgrade on
 * a new version), named by the service's app code and versioned by the service's version, so a participant's
 * client names the same chaincode as it would on a connected network. Null when there is nothing to install here
 * (not Fabric, or no Node.js package); else the reason why not. A version already installed with the same package (a
 * job run again) is kept as it is. With a connected Fabric network (FABRIC_PEER_ENDPOINT, docs/decisions/068) nothing
 * is installed: its admin installs the chaincode, and the deployment goes on only when it answers there; else the
 * failure carries the report's finding `report.fabricNetworkFailed`, or `report.fabricVersionMismatch` when the
 * channel's committed definition (its `_lifecycle`) is of another version than the service's.
 */
export async function deployOnFabricPeer(
  verId: number,
  deps: Deps,
  states: readonly number[] = [VerState.PENDING_PUBLISH],
): Promise<FabricDeployFailure | null> {
  const [row] = await deps.db
    .select({
      id: apps.id,
      name: apps.name,
      appCode: apps.appCode,
      framework: apps.framework,
      version: appVersions.version,
      state: appVersions.verState,
    })
    .from(appVersions)
    .innerJoin(apps, eq(apps.id, appVersions.appId))
    .where(eq(appVersions.id, verId));
  if (!row || row.framework !== "fabric" || !states.includes(row.state)) return null;
  const network = deps.env.fabricNetwork;
  if (network) {
    const checked = await fabric.api.checkConnected(deps, row).catch((error: unknown) => ({
      ok: false as const,
      reason: error instanceof Error ? error.message : String(error),
    }));
    if (!checked || checked.ok) return null;
    const chaincode = row.appCode.toLowerCase();
    const params = { chaincode, version: row.version, channel: chaincode, endpoint: network.endpoint };
    // Answers, but the channel committed another version of it: its own finding, naming both versions.
    const mismatch = "mismatch" in checked ? checked.mismatch : undefined;
    if (mismatch)
      return {
        ok: false,
        reason: checked.reason,
        finding: {
          key: "report.fabricVersionMismatch",
          params: { ...params, committed: mismatch.committed, sequence: String(mismatch.sequence) },
        },
      };
    return {
      ok: false,
      reason: checked.reason,
      finding: { key: "report.fabricNetworkFailed", params: { ...params, reason: checked.reason } },
    };
  }
  const [pkg] = await deps.db
    .select()
    .from(chaincodePackages)
    .where(and(eq(chaincodePackages.verId, verId), eq(chaincodePackages.language, "node")))
    .orderBy(asc(chaincodePackages.id))
    .limit(1);
  if (!pkg) return null;
  const file = await deps.files.read(deps.db, pkg.fileId);
  if (!file) return { ok: false, reason: `the package ${pkg.name} is missing` };
  try {
    await fabric.api.installChaincode(deps, {
      appCode: row.appCode,
      name: row.appCode.toLowerCase(),
      version: row.version,
      packageZip: new Uint8Array(file.bytes),
      initArgs: initArgsOf(pkg.initParams),
    });
    return null;
  } catch (error) {
    if (error instanceof ChaincodeRefused) return { ok: false, reason: error.problems.join("; ") };
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** Why the Fabric part failed; `finding`: the deploy report's own finding for it (else report.chainFailed). */
export type FabricDeployFailure = {
  ok: false;
  reason: string;
  finding?: { key: string; params: Record<string, string> };
};

/** A package's init parameters (comma-separated, as the wizard takes them) as Init's arguments, or none. */
export function initArgsOf(initParams: string): string[] | undefined {
  const args = initParams.trim() === "" ? [] : initParams.split(",").map((p) => p.trim());
  return args.length ? args : undefined;
}
