import { and, eq, inArray } from "drizzle-orm";
import { IPFS_GATEWAY_PREFIX } from "#contract/ipfs-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { ipfsServiceGateways, ipfsServices } from "#backend/domains/ipfs/tables.ts";
import { type ServiceRow } from "#backend/domains/ipfs/records.ts";

/** The handlers of IPFS storage (contract/ipfs.ts; docs/decisions/039). Every service is looked up with its owner. */

export type Ctx = SignedInContext;

export const DAY_MS = 86_400_000;

export const gatewayPath = (code: string) => `${IPFS_GATEWAY_PREFIX}${encodeURIComponent(code)}`;

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/* ------------------------------------------------ services ------------------------------------------------ */

type Gateway = {
  orgId: number;
  orgCode: string;
  orgName: string;
  orgNameZh: string;
  flowPriceCents: number;
  gatewayPath: string;
};

export async function gatewaysOf(db: Db | Tx, serviceIds: number[]): Promise<Map<number, Gateway[]>> {
  const out = new Map<number, Gateway[]>();
  if (!serviceIds.length) return out;
  const rows = await db
    .select({ serviceId: ipfsServiceGateways.serviceId, node: cityNodes })
    .from(ipfsServiceGateways)
    .innerJoin(cityNodes, eq(cityNodes.id, ipfsServiceGateways.cityNodeId))
    .where(inArray(ipfsServiceGateways.serviceId, serviceIds))
    .orderBy(cityNodes.id);
  for (const { serviceId, node } of rows) {
    const list = out.get(serviceId) ?? [];
    list.push({
      orgId: node.id,
      orgCode: node.code,
      orgName: node.name,
      orgNameZh: node.nameZh,
      flowPriceCents: node.trafficPricePerGbCents,
      gatewayPath: gatewayPath(node.code),
    });
    out.set(serviceId, list);
  }
  return out;
}

/** The caller's service (locked for the rest of `tx` when asked); another user's is not found. */
export async function ownService(db: Db | Tx, userId: number, serviceId: number, lock = false): Promise<ServiceRow> {
  const q = db
    .select()
    .from(ipfsServices)
    .where(and(eq(ipfsServices.id, serviceId), eq(ipfsServices.userId, userId)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}
