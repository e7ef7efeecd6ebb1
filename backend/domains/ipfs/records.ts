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
 * Records an uploaded file: its size taken from the service's free capacity atomically (false when it no longer
 * fits: a parallel upload took it), and its row.
 */
export async function recordFile(
  db: Db,
  service: ServiceRow,
  file: { name: string; cid: string; size: number; contentType: string },
  now: Date,
) {
  return db.transaction(async (tx) => {
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
    const [row] = await tx
      .insert(ipfsFiles)
      .values({ serviceId: service.id, ...file, createdAt: now })
      .returning();
    return { row, usedBytes: taken[0].usedBytes };
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
