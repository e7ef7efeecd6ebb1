import accounts from "#backend/domains/accounts/index.ts";
import type { DemoSeeder } from "#backend/kit/domain.ts";
import { and, asc, eq } from "drizzle-orm";

import type { Tx } from "#backend/db/client.ts";
import { appRoles, appVersions, apps } from "#backend/domains/services/tables.ts";
import { users } from "#backend/db/tables.ts";
import { applyJoinEvent, releasedNodeIds, startOrder } from "./audit.ts";
import { workOrderInTx } from "./jobs.ts";
import { newKeyPair, sealWithServer } from "./certs.ts";
import type { BackendEnv } from "#backend/env.ts";
import { insertJoin } from "./insert-join.ts";

const HOUR = 60 * 60 * 1000;

async function join(tx: Tx, env: BackendEnv, appId: number, userId: number, roleName: string, at: Date) {
  const [app] = await tx.select().from(apps).where(eq(apps.id, appId));
  const [version] = await tx.select().from(appVersions).where(eq(appVersions.id, app.currentVerId!));
  const [role] = await tx
    .select()
    .from(appRoles)
    .where(and(eq(appRoles.verId, version.id), eq(appRoles.name, roleName)));
  const [user] = await tx.select().from(users).where(eq(users.id, userId));
  const pair = newKeyPair();
  const nodeIds = [...(await releasedNodeIds(tx, version.id))].sort((a, b) => a - b);
  const storedKey = sealWithServer(env, pair.privateKey.export({ type: "pkcs8", format: "pem" }) as string);
  return insertJoin(tx, env, {
    app,
    version,
    user,
    role,
    nodeIds,
    mode: version.certificateMode ?? 1,
    publicKey: pair.publicKey,
    storedKey,
    now: at,
  });
}

/**
 * Demo participation (backend/seed.ts; runs after the services' seeder): demoperson participates in
 * democompany's running "Cold-chain traceability" (publisher and operator approvals, work order, confirmed,
 * with a participant certificate); a partner account, demopartner (same demo password), has a request on
 * the same service pending democompany's review.
 */
export const seedDemoParticipation: DemoSeeder = async ({ db, env }, created, now) => {
  const company = created.democompany;
  const person = created.demoperson;
  const operator = created.demooperator ?? null;
  if (!company || !person) return;
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR);
  const [running] = await db
    .select()
    .from(apps)
    .where(and(eq(apps.userId, company), eq(apps.name, "Cold-chain traceability")))
    .orderBy(asc(apps.id))
    .limit(1);
  if (running) {
    await db.transaction(async (tx) => {
      const { join: j } = await join(tx, env, running.id, person, "Auditor", at(96));
      await applyJoinEvent(tx, {
        joinId: j.id,
        event: "publisherApprove",
        actor: "publisher",
        actorId: company,
        comments: "Welcome aboard.",
        now: at(90),
      });
      await applyJoinEvent(tx, {
        joinId: j.id,
        event: "operatorApprove",
        actor: "operator",
        actorId: operator,
        now: at(80),
      });
      await startOrder(tx, j.id, at(80));
      await workOrderInTx(tx, j.id, at(79));
      await applyJoinEvent(tx, { joinId: j.id, event: "confirm", actor: "participant", actorId: person, now: at(70) });
    });
  }
  if (running) {
    // A partner enterprise's request, pending democompany's review (same demo password).
    const partnerId = await accounts.api.createDemoAccount(
      db,
      {
        userName: "demopartner",
        realName: "演示伙伴",
        email: "demopartner@example.com",
        userType: 2,
        role: "user",
        companyName: "Demo Logistics Partner Ltd.",
      },
      at(200),
    );
    if (partnerId) await db.transaction((tx) => join(tx, env, running.id, partnerId, "Administrator", at(3)));
  }
};
