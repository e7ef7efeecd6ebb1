import billing from "#backend/domains/billing/index.ts";
import type { DemoSeeder } from "#backend/kit/domain.ts";
import { randomBytes } from "node:crypto";
import type { Tx } from "#backend/db/client.ts";
import { appComments } from "./tables.ts";
import { and, eq } from "drizzle-orm";
import { marketPackages } from "#backend/domains/market/tables.ts";
import type { Deps } from "#backend/deps.ts";
import { buildDraft, type DraftPackage, type DraftSpec } from "./build.ts";
import { deployOnFabricPeer } from "./fabric-deploy.ts";
import { deployInTx, testInTx } from "./jobs.ts";
import { deployOnServiceChain } from "./chain.ts";
import { createPublishBill, payPublishBill } from "./payment.ts";
import { applyTransition } from "./machine.ts";

const HOUR = 60 * 60 * 1000;

/**
 * Demo services (backend/seed.ts): democompany gets a running service that went through the whole
 * lifecycle (real zip packages tested, reviews by demooperator, publish bill paid through the ledger, two
 * city nodes booked, comments from demoperson), one suspended by operations with their comments, and one
 * approved and waiting to be paid. The running one, "Cold-chain traceability", is the chaincode market's Node.js
 * `supply_trace` on Fabric, copied from the market as the wizard's "Use in a new service" does and installed on the
 * embedded peer by the deploy job's own step (issue 28 "Existing data"; docs/decisions/064, 070); the others are
 * FISCO BCOS services whose Solidity packages really deploy on their own chain (docs/decisions/038, 052).
 */
export const seedDemoServices: DemoSeeder = async (deps, created, now, timeline) => {
  const { db, files } = deps;
  const company = created.democompany;
  if (!company) return;
  const operator = created.demooperator ?? null;
  const commenter = created.demoperson ?? company;
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR);
  const suffix = randomBytes(2).toString("hex");

  /**
   * A draft submitted, approved at the initial review, tested and approved at the final review, with its
   * publish bill (23, to be paid): `hoursAgo` of the four steps, and the reviewers' comments.
   */
  async function approvedDraft(
    tx: Tx,
    spec: Omit<DraftSpec, "now" | "files">,
    steps: { hoursAgo: [number, number, number, number]; comments?: [string, string] },
  ) {
    const [submitted, initial, tested, final] = steps.hoursAgo;
    const built = await buildDraft(tx, { ...spec, now: at(submitted), files });
    const verId = built.version.id;
    await applyTransition(tx, {
      verId,
      event: "submit",
      actor: "publisher",
      actorId: spec.userId,
      now: at(submitted),
      set: { submittedAt: at(submitted) },
    });
    await applyTransition(tx, {
      verId,
      event: "initialApprove",
      actor: "operator",
      actorId: operator,
      comments: steps.comments?.[0],
      now: at(initial),
    });
    await testInTx(tx, verId, at(tested), files);
    await applyTransition(tx, {
      verId,
      event: "finalApprove",
      actor: "operator",
      actorId: operator,
      comments: steps.comments?.[1],
      now: at(final),
    });
    await createPublishBill(tx, verId, at(final));
    return built;
  }

  // The services in the order of their money (the ledger's time order): the oldest first.
  // Running for a while, then suspended by operations (docs/decisions/015): the publisher can ask to enable it.
  const carbon = await db.transaction(async (tx) => {
    const { version } = await approvedDraft(
      tx,
      { userId: company, name: "Carbon credit registry", costCents: 6_000, tps: 50, capacityGb: 20, nodeCount: 1 },
      { hoursAgo: [300, 290, 289, 280] },
    );
    // Money moves in time order with the other demo money (backend/kit/demo-timeline.ts).
    await timeline.now(tx, at(279), () =>
      billing.api.post(
        tx,
        { userId: company, kind: "grant", amountCents: 6_000, refType: "grant", refId: company },
        at(279),
      ),
    );
    await timeline.now(tx, at(278), () =>
      payPublishBill(tx, {
        userId: company,
        verId: version.id,
        idempotencyKey: `demo-publish-${version.id}-${suffix}`,
        now: at(278),
      }),
    );
    return version.id;
  });
  // The contracts are created on the service's chain outside any transaction, as the deploy job does.
  const carbonChain = await deployOnServiceChain(carbon, { ...deps, now: () => at(277) });
  await db.transaction(async (tx) => {
    await deployInTx(tx, carbon, at(277), carbonChain);
    await applyTransition(tx, {
      verId: carbon,
      event: "suspend",
      actor: "operator",
      actorId: operator,
      comments: "The registry's contact e-mail bounces. Update the contact details, then ask us to enable it again.",
      now: at(6),
    });
  });

  const cold = await db.transaction(async (tx) => {
    const supplyTrace = await marketPackage(tx, deps, "supply_trace", at(240));
    const { app, version } = await approvedDraft(
      tx,
      {
        userId: company,
        name: "Cold-chain traceability",
        costCents: 18_000,
        tps: 200,
        capacityGb: 100,
        // Without the market's entry (withdrawn by an operator), the FISCO BCOS samples as before.
        ...(supplyTrace ? { framework: "fabric" as const, packages: [supplyTrace] } : {}),
        description: "Cold-chain goods registered by their maker, each handover recorded, the history traced.",
      },
      {
        hoursAgo: [240, 220, 219, 200],
        comments: ["Packages and roles are complete.", "Approved for publishing."],
      },
    );
    await timeline.now(tx, at(199), () =>
      billing.api.post(
        tx,
        { userId: company, kind: "grant", amountCents: 50_000, refType: "grant", refId: company },
        at(199),
      ),
    );
    await timeline.now(tx, at(198), () =>
      payPublishBill(tx, {
        userId: company,
        verId: version.id,
        idempotencyKey: `demo-publish-${version.id}-${suffix}`,
        now: at(198),
      }),
    );
    return { appId: app.id, verId: version.id };
  });
  const coldDeps = { ...deps, now: () => at(197) };
  const coldChain =
    (await deployOnServiceChain(cold.verId, coldDeps)) ?? (await deployOnFabricPeer(cold.verId, coldDeps));
  await db.transaction(async (tx) => {
    await deployInTx(tx, cold.verId, at(197), coldChain);
    await tx.insert(appComments).values([
      {
        appId: cold.appId,
        userId: commenter,
        text: "Very handy for tracking our shipments between Beijing and Shanghai.",
        usefulCount: 1,
        reply: "Thank you! More city nodes are coming.",
        repliedAt: at(100),
        createdAt: at(120),
      },
      {
        appId: cold.appId,
        userId: commenter,
        text: "Could the audit role also read the asset history?",
        usefulCount: 0,
        createdAt: at(30),
      },
    ]);
    // The useful count always equals the marks (app store, docs/decisions/014): the store's demo seeder,
    // which owns the marks, gives the first comment its one mark.
  });

  await db.transaction(async (tx) => {
    await approvedDraft(
      tx,
      { userId: company, name: "Supplier finance ledger", costCents: 9_500, tps: 100, capacityGb: 50, nodeCount: 1 },
      { hoursAgo: [30, 20, 19, 2] },
    );
  });
};

/** A published chaincode market entry by name as a draft's package: its zip copied, its functions (as the wizard). */
async function marketPackage(tx: Tx, deps: Deps, name: string, now: Date): Promise<DraftPackage | null> {
  const [entry] = await tx
    .select()
    .from(marketPackages)
    .where(and(eq(marketPackages.name, name), eq(marketPackages.status, "published")));
  if (!entry) return null;
  const file = await deps.files.copy(tx, entry.fileId, now);
  if (!file) return null;
  return {
    name: entry.name,
    version: entry.version,
    language: entry.language,
    initParams: entry.initParams,
    mainPath: entry.mainPath,
    fileId: file.id,
    fileName: file.name,
    size: file.size,
    functions: entry.functions.map((f) => ({
      name: f.name,
      funcType: f.funcType,
      func: f.func,
      inputFormat: f.inputFormat,
      outputFormat: f.outputFormat,
    })),
  };
}
