import { and, eq, inArray } from "drizzle-orm";
import { VerState } from "#contract/service-status.ts";
import type { JobHandler } from "#backend/jobs/runner.ts";
import inbox from "#backend/domains/inbox/index.ts";
import { normaliseLanguage } from "./inspect.ts";
import { appVersions, apps, chaincodePackages } from "./tables.ts";

/**
 * The one-time job of docs/decisions/069 (scheduled by its migration with a dedupe key): on an upgraded database,
 * the publisher of each running Fabric service whose current version's chaincode is Go or Java (which no embedded
 * network here runs) is told, in their inbox, that the service keeps its state: it stays Running with its bookings
 * and bills, and no chaincode runs until a Fabric network is connected (FABRIC_PEER_ENDPOINT). Nothing else
 * changes. Where a network is connected the job tells no one (its admin installs the chaincode there). All the
 * notices are written in one transaction, so a retry never sends one twice.
 */
export const JOB_FABRIC_GO_JAVA_NOTICE = "service.fabricGoJavaNotice";

/** Whether a Fabric version's chaincode is only Go or Java: it runs only on a connected Fabric network. */
export const awaitsFabricNetwork = (framework: string, languages: string[]) =>
  framework === "fabric" &&
  languages.length > 0 &&
  languages.every((l) => ["go", "java"].includes(normaliseLanguage(l)));

export const runFabricGoJavaNotice: JobHandler = async (_payload, deps) => {
  if (deps.env.fabricPeerEndpoint) return;
  const rows = await deps.db
    .select({
      appId: apps.id,
      userId: apps.userId,
      name: apps.name,
      version: appVersions.version,
      language: chaincodePackages.language,
    })
    .from(apps)
    .innerJoin(appVersions, eq(appVersions.id, apps.currentVerId))
    .innerJoin(chaincodePackages, eq(chaincodePackages.verId, appVersions.id))
    .where(and(eq(apps.framework, "fabric"), inArray(appVersions.verState, [VerState.RUNNING])));
  const byApp = new Map<number, { userId: number; name: string; version: string; languages: string[] }>();
  for (const r of rows) {
    const seen = byApp.get(r.appId) ?? { userId: r.userId, name: r.name, version: r.version, languages: [] };
    seen.languages.push(r.language);
    byApp.set(r.appId, seen);
  }
  const now = deps.now();
  const notices = [...byApp.entries()]
    .filter(([, s]) => awaitsFabricNetwork("fabric", s.languages))
    .map(([appId, s]) => ({
      userId: s.userId,
      textKey: "messages.service.awaitsFabricNetwork",
      params: {
        name: s.name,
        version: s.version,
        languages: [...new Set(s.languages.map(normaliseLanguage))].join(", "),
      },
      ref: { kind: "service" as const, id: appId },
      at: now,
    }));
  await deps.db.transaction((tx) => inbox.api.notifyAll(tx, notices));
};
