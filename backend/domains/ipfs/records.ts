import { and, desc, eq, sql } from "drizzle-orm";
import { IpfsKeyState, IpfsServiceStatus, type IpfsKeyKind } from "#contract/ipfs-codes.ts";
import type { Db } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { hashKey } from "./keys.ts";
import { ipfsFiles, ipfsKeys, ipfsServiceGateways, ipfsServices } from "./tables.ts";

export type ServiceRow = typeof ipfsServices.$inferSelect;

export type KeyRow = typeof ipfsKeys.$inferSelect;

/* ------------------------------------------------ gateways ------------------------------------------------ */

/** What a gateway request's key opens: its service, or why not (unknown 401, deactivated 403). */
export async function serviceOfKey(
  db: Db,
  key: string,
  kind: IpfsKeyKind,
): Promise<{ service: ServiceRow; key: KeyRow } | { refused: "unknown" | "deactivated" | "unsubscribed" }> {
  const [row] = await db
    .select({ key: ipfsKeys, service: ipfsServices })
    .from(ipfsKeys)
    .innerJoin(ipfsServices, eq(ipfsServices.id, ipfsKeys.serviceId))
    .where(eq(ipfsKeys.keyHash, hashKey(key)));
  if (!row || row.key.kind !== kind) return { refused: "unknown" };
  if (row.key.state === IpfsKeyState.UNSUBSCRIBED || row.service.status !== IpfsServiceStatus.RUNNING)
    return { refused: "unsubscribed" };
  if (row.key.state !== IpfsKeyState.ACTIVATED) return { refused: "deactivated" };
  return row;
}

/** Whether the service serves at this city node's gateway: the node's id, or null. */
export async function gatewayOfService(db: Db, serviceId: number, code: string): Promise<number | null> {
  const [row] = await db
    .select({ id: cityNodes.id })
    .from(ipfsServiceGateways)
    .innerJoin(cityNodes, eq(cityNodes.id, ipfsServiceGateways.cityNodeId))
    .where(and(eq(ipfsServiceGateways.serviceId, serviceId), eq(cityNodes.code, code)));
  return row?.id ?? null;
}

/**
 * Records an uploaded file. Its size is taken from the service's free capacity atomically (null when it no longer
 * fits: a parallel upload took it), unless the service already holds that CID under another name: a CID counts
 * once per service (issue 31 item 8), as pinning services do, and the answer says it was already stored. The
 * service's row is locked first, so two uploads of one new CID at once count it once.
 */
export async function recordFile(
  db: Db,
  service: ServiceRow,
  file: { name: string; cid: string; size: number; contentType: string },
  now: Date,
) {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ usedBytes: ipfsServices.usedBytes })
      .from(ipfsServices)
      .where(eq(ipfsServices.id, service.id))
      .for("update");
    if (!locked) return null;
    const [held] = await tx
      .select({ id: ipfsFiles.id })
      .from(ipfsFiles)
      .where(and(eq(ipfsFiles.serviceId, service.id), eq(ipfsFiles.cid, file.cid)))
      .limit(1);
    let usedBytes = locked.usedBytes;
    if (!held) {
      const taken = await tx
        .update(ipfsServices)
        .set({ usedBytes: sql`${ipfsServices.usedBytes} + ${file.size}` })
        .where(
          and(
            eq(ipfsServices.id, service.id),
            sql`${ipfsServices.usedBytes} + ${file.size} <= ${ipfsServices.capacityBytes}`,
          ),
        )
        .returning({ usedBytes: ipfsServices.usedBytes });
      if (!taken.length) return null;
      usedBytes = taken[0].usedBytes;
    }
    const [row] = await tx
      .insert(ipfsFiles)
      .values({ serviceId: service.id, ...file, createdAt: now })
      .returning();
    return { row, usedBytes, alreadyStored: !!held };
  });
}

/** The file a download asks for: one of the service's own pins of that CID, or null. */
export async function pinnedFile(db: Db, serviceId: number, cid: string) {
  const [row] = await db
    .select()
    .from(ipfsFiles)
    .where(and(eq(ipfsFiles.serviceId, serviceId), eq(ipfsFiles.cid, cid)))
    .orderBy(desc(ipfsFiles.id))
    .limit(1);
  return row ?? null;
}
