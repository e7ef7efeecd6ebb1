import { randomBytes } from "node:crypto";
import { post } from "../billing/ledger";
import type { Db } from "../db/client";
import { appComments, commentUseful } from "../db/schema";
import { buildDraft } from "./build";
import { deployInTx, testInTx } from "./jobs";
import { createPublishBill, payPublishBill } from "./payment";
import { applyTransition } from "./transitions";

const HOUR = 60 * 60 * 1000;

/**
 * Demo services (backend/db/demo-data.ts): democompany gets a running service that went through the whole
 * lifecycle (real zip packages tested, reviews by demooperator, publish bill paid through the ledger, two
 * city nodes booked, comments from demoperson), one suspended by operations with their comments, and one
 * approved and waiting to be paid.
 */
export async function seedDemoServices(db: Db, created: Record<string, number>, now: Date) {
  const company = created.democompany;
  if (!company) return;
  const operator = created.demooperator ?? null;
  const commenter = created.demoperson ?? company;
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR);
  const suffix = randomBytes(2).toString("hex");

  await db.transaction(async (tx) => {
    const { app, version } = await buildDraft(tx, { userId: company, name: "Cold-chain traceability", costCents: 18_000, tps: 200, capacityGb: 100, now: at(240) });
    await applyTransition(tx, { verId: version.id, event: "submit", actor: "publisher", actorId: company, now: at(240), set: { submittedAt: at(240) } });
    await applyTransition(tx, { verId: version.id, event: "initialApprove", actor: "operator", actorId: operator, comments: "Packages and roles are complete.", now: at(220) });
    await testInTx(tx, version.id, at(219));
    await applyTransition(tx, { verId: version.id, event: "finalApprove", actor: "operator", actorId: operator, comments: "Approved for publishing.", now: at(200) });
    await createPublishBill(tx, version.id, at(200));
    await post(tx, { userId: company, kind: "grant", amountCents: 50_000, refType: "grant", refId: company }, at(199));
    await payPublishBill(tx, { userId: company, verId: version.id, idempotencyKey: `demo-publish-${version.id}-${suffix}`, now: at(198) });
    await deployInTx(tx, version.id, at(197));
    const [first] = await tx.insert(appComments).values([
      { appId: app.id, userId: commenter, text: "Very handy for tracking our shipments between Beijing and Shanghai.", usefulCount: 1, reply: "Thank you! More city nodes are coming.", repliedAt: at(100), createdAt: at(120) },
      { appId: app.id, userId: commenter, text: "Could the audit role also read the asset history?", usefulCount: 0, createdAt: at(30) },
    ]).returning({ id: appComments.id });
    // The useful count always equals the marks (app store, docs/decisions/014).
    await tx.insert(commentUseful).values({ commentId: first.id, userId: company, createdAt: at(90) });
  });

  // Running for a while, then suspended by operations (docs/decisions/015): the publisher can ask to enable it.
  await db.transaction(async (tx) => {
    const { version } = await buildDraft(tx, { userId: company, name: "Carbon credit registry", costCents: 6_000, tps: 50, capacityGb: 20, nodeCount: 1, now: at(300) });
    await applyTransition(tx, { verId: version.id, event: "submit", actor: "publisher", actorId: company, now: at(300), set: { submittedAt: at(300) } });
    await applyTransition(tx, { verId: version.id, event: "initialApprove", actor: "operator", actorId: operator, now: at(290) });
    await testInTx(tx, version.id, at(289));
    await applyTransition(tx, { verId: version.id, event: "finalApprove", actor: "operator", actorId: operator, now: at(280) });
    await createPublishBill(tx, version.id, at(280));
    await post(tx, { userId: company, kind: "grant", amountCents: 6_000, refType: "grant", refId: company }, at(279));
    await payPublishBill(tx, { userId: company, verId: version.id, idempotencyKey: `demo-publish-${version.id}-${suffix}`, now: at(278) });
    await deployInTx(tx, version.id, at(277));
    await applyTransition(tx, {
      verId: version.id,
      event: "suspend",
      actor: "operator",
      actorId: operator,
      comments: "Suspended: the registry's contact e-mail bounces. Update the contact details, then ask us to enable it again.",
      now: at(6),
    });
  });

  await db.transaction(async (tx) => {
    const { version } = await buildDraft(tx, { userId: company, name: "Supplier finance ledger", costCents: 9_500, tps: 100, capacityGb: 50, nodeCount: 1, now: at(30) });
    await applyTransition(tx, { verId: version.id, event: "submit", actor: "publisher", actorId: company, now: at(30), set: { submittedAt: at(30) } });
    await applyTransition(tx, { verId: version.id, event: "initialApprove", actor: "operator", actorId: operator, now: at(20) });
    await testInTx(tx, version.id, at(19));
    await applyTransition(tx, { verId: version.id, event: "finalApprove", actor: "operator", actorId: operator, now: at(2) });
    await createPublishBill(tx, version.id, at(2));
  });
}
