import { type KeyObject } from "node:crypto";
import type { Tx } from "#backend/db/client.ts";
import { appJoinNodes, appJoinTransitions, appJoins, certificates } from "./tables.ts";
import type { BackendEnv } from "#backend/env.ts";
import { issueCertificate, serviceCa } from "./certs.ts";
import { type AppRow, type VersionRow } from "./handlers/shared.ts";
import inbox from "#backend/domains/inbox/index.ts";

/**
 * Writes an application (audit state 0): the participation, its city nodes, the "apply" step of the
 * timeline, the certificate issued by the service CA, and the messages to the publisher and the applicant.
 */
export async function insertJoin(
  tx: Tx,
  env: BackendEnv,
  input: {
    app: AppRow;
    version: VersionRow;
    user: { id: number; userName: string };
    role: { id: number; name: string };
    nodeIds: number[];
    mode: number;
    publicKey: KeyObject;
    storedKey: string | null;
    now: Date;
  },
) {
  const { app, version, user, role, nodeIds, mode, publicKey, storedKey, now } = input;
  const [join] = await tx
    .insert(appJoins)
    .values({
      appId: app.id,
      verId: version.id,
      userId: user.id,
      roleId: role.id,
      auditState: 0,
      certificateMode: mode,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await tx.insert(appJoinNodes).values(nodeIds.map((cityNodeId) => ({ joinId: join.id, cityNodeId })));
  await tx.insert(appJoinTransitions).values({
    joinId: join.id,
    event: "apply",
    fromState: 0,
    toState: 0,
    actorId: user.id,
    actorKind: "participant",
    comments: null,
    createdAt: now,
  });
  const ca = await serviceCa(tx, env, app, now);
  const issued = await issueCertificate(ca, {
    publicKey,
    userName: user.userName,
    roleName: role.name,
    appCode: app.appCode,
    now,
  });
  const [cert] = await tx
    .insert(certificates)
    .values({
      joinId: join.id,
      userId: user.id,
      appId: app.id,
      mode,
      serialNumber: issued.serialNumber,
      subject: issued.subject,
      certificatePem: issued.pem,
      encryptedKeyPem: storedKey,
      notBefore: issued.notBefore,
      notAfter: issued.notAfter,
      createdAt: now,
    })
    .returning({ id: certificates.id });
  const params = { name: app.name, applicant: user.userName };
  await inbox.api.notifyAll(tx, [
    {
      userId: app.userId,
      textKey: "messages.participation.applied",
      params,
      ref: { kind: "joinRequest", id: join.id },
      at: now,
    },
    {
      userId: user.id,
      textKey: "messages.participation.submitted",
      params,
      ref: { kind: "participation", id: app.id },
      at: now,
    },
  ]);
  return { join, certificateId: cert.id };
}
