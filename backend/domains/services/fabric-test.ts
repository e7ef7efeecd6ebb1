import { asc, eq } from "drizzle-orm";
import { VerState } from "#contract/service-status.ts";
import type { Finding } from "#contract/services.ts";
import type { Deps } from "#backend/deps.ts";
import fabric from "#backend/domains/fabric/index.ts";
import { initArgsOf } from "./fabric-deploy.ts";
import { inspectPackage, normaliseLanguage } from "./inspect.ts";
import { appFunctions, appVersions, apps, chaincodePackages } from "./tables.ts";

/**
 * The Fabric part of the test job (docs/decisions/069), run before its transaction as the deploy job runs
 * `deployOnFabricPeer`: a Fabric service's one Node.js package that passes the zip inspection gets the package
 * check (a declared dependency other than fabric-shim / fabric-contract-api is refused, by name) and, unless a
 * Fabric network is connected (its admin installs there), is installed with its init parameters on a throwaway
 * channel of the embedded peer, which is dropped after: a failing Init fails the test instead of the deploy after
 * payment. The findings per package id, for `testInTx`; empty when there is nothing to run (not Fabric, not
 * pending test, no Node.js package, or more than one: `testInTx` refuses those).
 */
export async function fabricTestFindings(verId: number, deps: Deps): Promise<Map<number, Finding[]>> {
  const out = new Map<number, Finding[]>();
  const [row] = await deps.db
    .select({ framework: apps.framework, state: appVersions.verState })
    .from(appVersions)
    .innerJoin(apps, eq(apps.id, appVersions.appId))
    .where(eq(appVersions.id, verId));
  if (!row || row.framework !== "fabric" || row.state !== VerState.PENDING_TEST) return out;
  const packages = (
    await deps.db
      .select()
      .from(chaincodePackages)
      .where(eq(chaincodePackages.verId, verId))
      .orderBy(asc(chaincodePackages.id))
  ).filter((p) => normaliseLanguage(p.language) === "node");
  if (packages.length !== 1) return out;
  const pkg = packages[0]!;
  const file = await deps.files.read(deps.db, pkg.fileId);
  if (!file) return out;
  const bytes = new Uint8Array(file.bytes);
  const funcs = (
    await deps.db
      .select({ packageId: appFunctions.packageId, func: appFunctions.func })
      .from(appFunctions)
      .where(eq(appFunctions.verId, verId))
  )
    .filter((f) => f.packageId === pkg.id)
    .map((f) => f.func);
  if (inspectPackage(bytes, { name: pkg.name, language: pkg.language, mainPath: pkg.mainPath, funcs }).length)
    return out;
  const check = fabric.api.checkPackage(bytes);
  if (!check.ok) {
    out.set(pkg.id, [
      { key: "report.chaincodeRefused", params: { package: pkg.name, problems: check.problems.join("; ") } },
    ]);
    return out;
  }
  if (deps.env.fabricPeerEndpoint) return out;
  const trial = await fabric.api.trialInstall(deps, { packageZip: bytes, initArgs: initArgsOf(pkg.initParams) });
  if (!trial.ok) {
    const init = trial.problems.find((p) => p.startsWith("Init "));
    out.set(pkg.id, [
      init
        ? {
            key: "report.chaincodeInitFailed",
            params: { package: pkg.name, message: init.replace(/^Init failed: /, "") },
          }
        : { key: "report.chaincodeRefused", params: { package: pkg.name, problems: trial.problems.join("; ") } },
    ]);
  }
  return out;
}
