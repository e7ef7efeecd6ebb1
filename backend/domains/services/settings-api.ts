import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import { appComments, apps, appVersions } from "./tables.ts";

/*
 * Writes other domains ask of a service outside the wizard's steps: its certificate mode, whether the store
 * lists it, its cross-chain state (the cross-chain domain's machine decides the status), its comments. The
 * callers check their own rules first; these only write, in the handle they are given.
 */

/** A version's certificate mode: 1 participant certificate, 2 key trust, 3 upload public key (wizard step 6). */
export async function saveCertificateMode(q: Db | Tx, verId: number, certificateMode: number) {
  await q.update(appVersions).set({ certificateMode }).where(eq(appVersions.id, verId));
}

/**
 * Whether the store lists the service (SPEC §3). `also` carries what the caller changes with it: the time of
 * the change, a cover (the demo's).
 */
export async function setServicePublic(
  q: Db | Tx,
  appId: number,
  isPublic: boolean,
  also: { updatedAt?: Date; coverFileId?: number | null } = {},
) {
  await q
    .update(apps)
    .set({ isPublic, ...also })
    .where(eq(apps.id, appId));
}

/** The service's cross-chain state: the status the cross-chain machine moved it to, and the flags that go with it. */
export async function saveCrossChainState(
  q: Db | Tx,
  appId: number,
  state: { crossStatus: number; crossChain?: boolean; crossProtocol?: number | null; crossAppCode?: string | null },
  now: Date,
) {
  await q
    .update(apps)
    .set({ ...state, updatedAt: now })
    .where(eq(apps.id, appId));
}

/** A participant's comment on a service (the store checks who may comment). */
export async function addServiceComment(
  q: Db | Tx,
  comment: { appId: number; userId: number; text: string; createdAt: Date },
) {
  const [row] = await q.insert(appComments).values(comment).returning({ id: appComments.id });
  return row;
}

/** One more "useful" mark on a comment; answers the new count. */
export async function countCommentUseful(q: Db | Tx, commentId: number) {
  const [updated] = await q
    .update(appComments)
    .set({ usefulCount: sql`${appComments.usefulCount} + 1` })
    .where(eq(appComments.id, commentId))
    .returning({ usefulCount: appComments.usefulCount });
  return updated;
}
