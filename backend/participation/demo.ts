import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { post } from "../billing/ledger";
import type { Db, Tx } from "../db/client";
import { appRoles, appVersions, apps, users } from "../db/schema";
import { buildDraft } from "../services/build";
import { deployInTx, testInTx } from "../services/jobs";
import { createPublishBill, payPublishBill } from "../services/payment";
import { applyTransition } from "../services/transitions";
import { applyJoinEvent, releasedNodeIds, startOrder, workOrderInTx } from "./audit";
import { newKeyPair, participationEnv, sealWithServer } from "./certs";
import { insertJoin } from "./handlers";

const HOUR = 60 * 60 * 1000;

async function join(tx: Tx, appId: number, userId: number, roleName: string, at: Date) {
  const env = participationEnv()!;
  const [app] = await tx.select().from(apps).where(eq(apps.id, appId));
  const [version] = await tx.select().from(appVersions).where(eq(appVersions.id, app.currentVerId!));
  const [role] = await tx.select().from(appRoles).where(and(eq(appRoles.verId, version.id), eq(appRoles.name, roleName)));
  const [user] = await tx.select().from(users).where(eq(users.id, userId));
  const pair = newKeyPair();
  const nodeIds = [...(await releasedNodeIds(tx, version.id))].sort((a, b) => a - b);
  const storedKey = sealWithServer(env, pair.privateKey.export({ type: "pkcs8", format: "pem" }) as string);
  return insertJoin(tx, env, { app, version, user, role, nodeIds, mode: version.certificateMode ?? 1, publicKey: pair.publicKey, storedKey, now: at });
}

/**
 * Demo participation (backend/db/demo-data.ts; runs after the services' seeder): demoperson participates in
 * democompany's running "Cold-chain traceability" (publisher and operator approvals, work order, confirmed,
 * with a participant certificate), and has a request pending democompany's review on a second running,
 * public service "Carbon credit registry".
 */
export async function seedDemoParticipation(db: Db, created: Record<string, number>, now: Date) {
  const company = created.democompany;
  const person = created.demoperson;
  const operator = created.demooperator ?? null;
  if (!company || !person || !participationEnv()) return;
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR);
  const [running] = await db.select().from(apps).where(and(eq(apps.userId, company), eq(apps.name, "Cold-chain traceability"))).orderBy(asc(apps.id)).limit(1);
  if (running) {
    await db.transaction(async (tx) => {
      const { join: j } = await join(tx, running.id, person, "Auditor", at(96));
      await applyJoinEvent(tx, { joinId: j.id, event: "publisherApprove", actor: "publisher", actorId: company, comments: "Welcome aboard.", now: at(90) });
      await applyJoinEvent(tx, { joinId: j.id, event: "operatorApprove", actor: "operator", actorId: operator, now: at(80) });
      await startOrder(tx, j.id, at(80));
      await workOrderInTx(tx, j.id, at(79));
      await applyJoinEvent(tx, { joinId: j.id, event: "confirm", actor: "participant", actorId: person, now: at(70) });
    });
  }
  await db.transaction(async (tx) => {
    const { app, version } = await buildDraft(tx, { userId: company, name: "Carbon credit registry", costCents: 6_000, tps: 100, capacityGb: 50, nodeCount: 1, now: at(60), description: "Issuing and retiring carbon credits between partner enterprises." });
    await tx.update(apps).set({ isPublic: true }).where(eq(apps.id, app.id));
    await applyTransition(tx, { verId: version.id, event: "submit", actor: "publisher", actorId: company, now: at(60), set: { submittedAt: at(60) } });
    await applyTransition(tx, { verId: version.id, event: "initialApprove", actor: "operator", actorId: operator, now: at(55) });
    await testInTx(tx, version.id, at(54));
    await applyTransition(tx, { verId: version.id, event: "finalApprove", actor: "operator", actorId: operator, now: at(50) });
    await createPublishBill(tx, version.id, at(50));
    await post(tx, { userId: company, kind: "grant", amountCents: 6_000, refType: "grant", refId: company }, at(49));
    await payPublishBill(tx, { userId: company, verId: version.id, idempotencyKey: `demo-publish-${version.id}-${randomBytes(2).toString("hex")}`, now: at(48) });
    await deployInTx(tx, version.id, at(47));
    await join(tx, app.id, person, "Administrator", at(3));
  });
}
