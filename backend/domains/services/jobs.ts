import { and, asc, count, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import { VerState } from "#contract/service-status.ts";
import type { Finding } from "#contract/services.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { appFunctions, appNodes, appTransitions, appVersions, apps, chaincodePackages } from "./tables.ts";
import billing from "#backend/domains/billing/index.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { cityNodes } from "#backend/db/tables.ts";
import type { FileStore } from "#backend/kit/storage.ts";
import { schedule, type JobEntry, type JobHandler, type JobOwner } from "#backend/jobs/runner.ts";
import {
  inspectPackage,
  normaliseLanguage,
  solidityFilesOfPackage,
  solidityFindings,
  storeReport,
  suggestionFor,
} from "./inspect.ts";
import { PUBLISH_PAYMENT_WINDOW_MS } from "./machine.ts";
import { cycleDays, DAY_MS } from "#contract/config-upgrade-codes.ts";
import { languageRun } from "#contract/service-codes.ts";
import chain from "#backend/domains/chain/index.ts";
import { deployOnServiceChain, type ChainDeployment } from "./chain.ts";
import { deployOnFabricPeer, type FabricDeployFailure } from "./fabric-deploy.ts";
import { fabricTestFindings } from "./fabric-test.ts";
import { applyTransition } from "./machine.ts";

/**
 * The service lifecycle's background jobs (backend/jobs/runner.ts; docs/decisions/005, 012):
 * - service.test    10 → 15 testPass or 11 testFail, after inspecting the packages for real;
 * - service.deploy  24 → 25 deploySuccess (node resources booked; a FISCO BCOS or CITA service's Solidity
 *                   contracts deployed on its own chain, docs/decisions/038) or 26 deployFail ("Insufficient
 *                   resources", or the chain's or compiler's reason);
 * - service.expire  23 → 1 when the publish bill is still unpaid 3 days after the final approval.
 * Each is scheduled with a dedupe key per version and attempt, and each handler locks the version and
 * does nothing when the version has left the state it works on, so it never runs twice.
 */
export const JOB_TEST = "service.test";
export const JOB_DEPLOY = "service.deploy";
export const JOB_EXPIRE = "service.expire";

/** How many times the version entered `state` (the attempt number of the job that works on it). */
async function attemptOf(tx: Tx | Db, verId: number, state: number): Promise<number> {
  const [{ n }] = await tx
    .select({ n: count() })
    .from(appTransitions)
    .where(and(eq(appTransitions.verId, verId), eq(appTransitions.toState, state)));
  return n;
}

export async function scheduleTest(tx: Tx, verId: number, now: Date) {
  const attempt = await attemptOf(tx, verId, VerState.PENDING_TEST);
  await schedule(tx, JOB_TEST, { verId }, { runAt: now, dedupeKey: `service.test:${verId}:${attempt}` });
}

export async function scheduleDeploy(tx: Tx, verId: number, now: Date) {
  const attempt = await attemptOf(tx, verId, VerState.PENDING_PUBLISH);
  await schedule(tx, JOB_DEPLOY, { verId }, { runAt: now, dedupeKey: `service.deploy:${verId}:${attempt}` });
}

export async function scheduleExpiry(tx: Tx, verId: number, billId: number, approvedAt: Date) {
  await schedule(
    tx,
    JOB_EXPIRE,
    { verId, billId },
    {
      runAt: new Date(approvedAt.getTime() + PUBLISH_PAYMENT_WINDOW_MS + 1000),
      dedupeKey: `service.expire:${verId}:${billId}`,
    },
  );
}

const verIdOf = (payload: Record<string, unknown>) => {
  const id = Number(payload.verId);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error("job payload without verId");
  return id;
};

/** Locks the version; undefined when it is not (or no longer) in `state`. */
async function lockedAt(tx: Tx, verId: number, state: number) {
  const [version] = await tx.select().from(appVersions).where(eq(appVersions.id, verId)).for("update");
  return version && version.verState === state ? version : undefined;
}

/** The test job: every package of the version is inspected (backend/domains/services/inspect.ts). */
export const runTest: JobHandler = async (payload, services) => {
  const verId = verIdOf(payload);
  // A Fabric service's Node.js chaincode is checked and run on a throwaway channel first, outside the transaction.
  const onPeer = await fabricTestFindings(verId, services);
  await services.db.transaction((tx) =>
    testInTx(tx, verId, services.now(), services.files, !!services.env.fabricPeerEndpoint, onPeer),
  );
};

/**
 * The test of one version inside `tx` (the job's work; the demo data uses it too). `onPeer`: the findings of the
 * Fabric run of its Node.js package (fabric-test.ts), by package id.
 */
export async function testInTx(
  tx: Tx,
  verId: number,
  now: Date,
  store: FileStore,
  fabricConnected = false,
  onPeer: ReadonlyMap<number, Finding[]> = new Map(),
) {
  {
    const version = await lockedAt(tx, verId, VerState.PENDING_TEST);
    if (!version) return;
    const packages = await tx
      .select()
      .from(chaincodePackages)
      .where(eq(chaincodePackages.verId, verId))
      .orderBy(asc(chaincodePackages.id));
    const [{ framework }] = await tx.select({ framework: apps.framework }).from(apps).where(eq(apps.id, version.appId));
    const functions = await tx
      .select({ packageId: appFunctions.packageId, func: appFunctions.func })
      .from(appFunctions)
      .where(eq(appFunctions.verId, verId));
    const findings: Finding[] = [];
    if (packages.length === 0) findings.push({ key: "report.packageMissing", params: {} });
    // A Fabric channel runs one chaincode (docs/decisions/064): one Node.js package per Fabric service.
    const nodePackages = packages.filter((p) => normaliseLanguage(p.language) === "node");
    if (framework === "fabric" && nodePackages.length > 1)
      findings.push({
        key: "report.oneChaincode",
        params: { packages: nodePackages.map((p) => p.name).join(", ") },
      });
    for (const pkg of packages) {
      const file = await store.read(tx, pkg.fileId);
      const funcs = functions.filter((f) => f.packageId === pkg.id).map((f) => f.func);
      if (!file) {
        findings.push({ key: "report.zipInvalid", params: { package: pkg.name } });
        continue;
      }
      const found = inspectPackage(new Uint8Array(file.bytes), {
        name: pkg.name,
        language: pkg.language,
        mainPath: pkg.mainPath,
        funcs,
      });
      findings.push(...found);
      // A language that cannot run for the framework fails the test (docs/decisions/052); Solidity packages
      // (FISCO BCOS, CITA, XuperChain) are compiled for real and their FUNCs read from the ABI (034).
      if (found.length) continue;
      const language = normaliseLanguage(pkg.language);
      if (!languageRun(framework, language, fabricConnected))
        findings.push({ key: "report.languageFramework", params: { package: pkg.name, language, framework } });
      else if (language === "solidity")
        findings.push(
          ...solidityFindings(
            { name: pkg.name, funcs },
            await chain.api.compile(solidityFilesOfPackage(new Uint8Array(file.bytes))),
          ),
        );
      else findings.push(...(onPeer.get(pkg.id) ?? []));
    }
    const report = storeReport(findings, suggestionFor(findings));
    await applyTransition(tx, {
      verId,
      event: findings.length === 0 ? "testPass" : "testFail",
      actor: "system",
      actorId: null,
      now,
      set: { testReport: report },
    });
  }
}

/** Versions whose bookings hold resources: deploying, running, deactivated (§8 "Insufficient resources"). */
const HOLDING = [VerState.PENDING_PUBLISH, VerState.RUNNING, VerState.DEACTIVATED, VerState.DEACTIVATED_BY_OPERATOR];

/** What is left on a city node: its TPS and capacity minus what other versions booked. */
export async function availableOn(tx: Tx | Db, cityNodeId: number, exceptVerId: number) {
  const [node] = await tx.select().from(cityNodes).where(eq(cityNodes.id, cityNodeId));
  const [used] = await tx
    .select({
      tps: sql<string>`coalesce(sum(${appNodes.tps}), 0)`,
      capacity: sql<string>`coalesce(sum(${appNodes.capacityGb}), 0)`,
    })
    .from(appNodes)
    .innerJoin(appVersions, eq(appVersions.id, appNodes.verId))
    .where(
      and(
        eq(appNodes.cityNodeId, cityNodeId),
        isNotNull(appNodes.bookedAt),
        ne(appNodes.verId, exceptVerId),
        inArray(appVersions.verState, HOLDING),
      ),
    );
  return { node, tps: node.availableTps - Number(used.tps), capacityGb: node.capacityGb - Number(used.capacity) };
}

/**
 * The deploy job: in one transaction, locks the city nodes of the version (in id order, so two deployments
 * never overbook a node), checks what each has left, and either books them all with their addresses and
 * moves to 25, or books nothing and moves to 26 with the reasons and a suggestion.
 */
export const runDeploy: JobHandler = async (payload, services) => {
  const verId = verIdOf(payload);
  // A FISCO BCOS or CITA service's contracts are deployed on its own chain first, outside the transaction.
  const onChain = (await deployOnServiceChain(verId, services)) ?? (await deployOnFabricPeer(verId, services));
  await services.db.transaction((tx) => deployInTx(tx, verId, services.now(), onChain));
};

/**
 * The deployment of one version inside `tx` (the job's work; the demo data uses it too). `onChain`: the
 * outcome of its deployment on the service's own chain (docs/decisions/038), null when it has none.
 */
export async function deployInTx(
  tx: Tx,
  verId: number,
  now: Date,
  onChain: ChainDeployment | FabricDeployFailure | null = null,
) {
  {
    const version = await lockedAt(tx, verId, VerState.PENDING_PUBLISH);
    if (!version) return;
    const [app] = await tx.select().from(apps).where(eq(apps.id, version.appId));
    const wanted = await tx.select().from(appNodes).where(eq(appNodes.verId, verId)).orderBy(asc(appNodes.cityNodeId));
    if (wanted.length > 0) {
      await tx
        .select({ id: cityNodes.id })
        .from(cityNodes)
        .where(
          inArray(
            cityNodes.id,
            wanted.map((w) => w.cityNodeId),
          ),
        )
        .orderBy(asc(cityNodes.id))
        .for("update");
    }
    const findings: Finding[] = [];
    if (wanted.length === 0) findings.push({ key: "report.noNodes", params: {} });
    if (onChain && !onChain.ok)
      findings.push(
        "finding" in onChain && onChain.finding
          ? onChain.finding
          : { key: "report.chainFailed", params: { reason: onChain.reason } },
      );
    const codes = new Map<number, string>();
    for (const w of wanted) {
      const left = await availableOn(tx, w.cityNodeId, verId);
      codes.set(w.cityNodeId, left.node.code);
      if (w.tps > left.tps || w.capacityGb > left.capacityGb) {
        findings.push({
          key: "report.insufficientResources",
          params: {
            node: left.node.name,
            tps: String(w.tps),
            tpsLeft: String(Math.max(0, left.tps)),
            capacityGb: String(w.capacityGb),
            capacityLeft: String(Math.max(0, left.capacityGb)),
          },
        });
      }
    }
    if (findings.length > 0) {
      const first = findings[0].key;
      const suggestion: Finding = {
        key:
          first === "report.noNodes"
            ? "report.suggest.nodes"
            : first === "report.chainFailed"
              ? "report.suggest.chain"
              : first === "report.fabricNetworkFailed" || first === "report.fabricVersionMismatch"
                ? "report.suggest.fabricNetwork"
                : "report.suggest.resources",
        params:
          first === "report.fabricNetworkFailed" || first === "report.fabricVersionMismatch" ? findings[0].params : {},
      };
      await applyTransition(tx, {
        verId,
        event: "deployFail",
        actor: "system",
        actorId: null,
        now,
        set: { deployReport: storeReport(findings, suggestion) },
      });
      return;
    }
    // Each booked city node is a node of the service (docs/decisions/052): on an EVM service, an endpoint on its
    // one chain; no per-node address is made up.
    const deployed = [];
    for (const w of wanted) {
      await tx
        .update(appNodes)
        .set({ bookedAt: now })
        .where(and(eq(appNodes.verId, verId), eq(appNodes.cityNodeId, w.cityNodeId)));
      deployed.push({ cityNodeId: w.cityNodeId, code: codes.get(w.cityNodeId) ?? String(w.cityNodeId) });
    }
    await applyTransition(tx, {
      verId,
      event: "deploySuccess",
      actor: "system",
      actorId: null,
      now,
      set: {
        publishedAt: now,
        deployReport: {
          passed: true,
          reasons: [],
          nodes: deployed,
          ...(onChain?.ok
            ? {
                chain: {
                  name: onChain.chainName,
                  chainId: onChain.chainId,
                  contracts: onChain.contracts.map(({ abi: _abi, ...c }) => c),
                },
              }
            : {}),
        },
      },
    });
    // The first period of the payment cycle was paid with the publish bill; it starts when the service runs
    // (a later version of a running service keeps the cycle; docs/decisions/036).
    const cycle = app.cycleEnd
      ? {}
      : { cycleStart: now, cycleEnd: new Date(now.getTime() + cycleDays(app.paymentCycle) * DAY_MS) };
    await tx
      .update(apps)
      .set({ currentVerId: verId, updatedAt: now, ...cycle })
      .where(eq(apps.id, app.id));
  }
}

/** Payment expiry: 3 days after the final approval an unpaid publish bill expires (§4 10) and the version goes back to 1. */
export const runExpire: JobHandler = async (payload, services) => {
  const verId = verIdOf(payload);
  const billId = Number(payload.billId);
  await services.db.transaction(async (tx) => {
    const version = await lockedAt(tx, verId, VerState.TO_BE_PAID);
    if (!version || version.billId !== billId) return;
    const [bill] = await tx.select().from(bills).where(eq(bills.id, billId)).for("update");
    // The billing area's hourly expiry may have marked the bill expired (10) first; the version still goes back.
    if (!bill || ![1, 5, 10].includes(bill.payState)) return;
    const now = services.now();
    await billing.api.expireBill(tx, billId);
    await applyTransition(tx, { verId, event: "expire", actor: "system", actorId: null, now, set: { billState: 10 } });
  });
};

/** Whom a job of a version concerns: the publisher, told when it dies (docs/decisions/005). */
async function publisherOf(payload: Record<string, unknown>, db: Db): Promise<JobOwner | null> {
  const verId = Number(payload.verId);
  if (!Number.isSafeInteger(verId) || verId <= 0) return null;
  const [row] = await db
    .select({ userId: apps.userId, name: apps.name, version: appVersions.version })
    .from(appVersions)
    .innerJoin(apps, eq(apps.id, appVersions.appId))
    .where(eq(appVersions.id, verId));
  return row ? { userId: row.userId, subject: `${row.name} ${row.version}` } : null;
}

export const serviceJobs: Record<string, JobEntry> = {
  [JOB_TEST]: { run: runTest, ownerOf: publisherOf },
  [JOB_DEPLOY]: { run: runDeploy, ownerOf: publisherOf },
  [JOB_EXPIRE]: { run: runExpire, ownerOf: publisherOf },
};
