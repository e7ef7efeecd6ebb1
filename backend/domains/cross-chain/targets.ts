import { and, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { CrossStatus, OPEN_ALLIANCE_CHAIN } from "#contract/cross-chain-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { appJoins } from "#backend/domains/participation/tables.ts";
import { apps, serviceChains } from "#backend/domains/services/tables.ts";
import { crossChainContracts } from "./tables.ts";

/** Participations that give access to a service (SPEC §4: work order done or confirmed, not disabled). */
const PARTICIPATING = [13, 15];

export type Target = {
  chainName: string;
  chainId: number;
  kind: "openAlliance" | "service";
  appId: number | null;
  serviceName: string | null;
};

/**
 * The chains a service (of `userId`, with `protocol`) may send to (docs/decisions/048): the open-alliance chain
 * always (once its contracts are deployed, at the first activation), and the chains of the other activated
 * services of the same protocol that the user owns or participates in. Another user's service stays out of
 * sight unless the user joined it.
 */
export async function allowedTargets(db: Db | Tx, appId: number, userId: number, protocol: number): Promise<Target[]> {
  const out: Target[] = [];
  const [open] = await db
    .select({ chainId: crossChainContracts.chainId })
    .from(crossChainContracts)
    .where(
      and(
        eq(crossChainContracts.chainName, OPEN_ALLIANCE_CHAIN),
        eq(crossChainContracts.protocol, protocol),
        eq(crossChainContracts.role, "messenger"),
      ),
    );
  if (open)
    out.push({
      chainName: OPEN_ALLIANCE_CHAIN,
      chainId: open.chainId,
      kind: "openAlliance",
      appId: null,
      serviceName: null,
    });
  const joined = db
    .select({ appId: appJoins.appId })
    .from(appJoins)
    .where(and(eq(appJoins.userId, userId), inArray(appJoins.auditState, PARTICIPATING), isNull(appJoins.disabledAt)));
  const rows = await db
    .select({ appId: apps.id, name: apps.name, chainName: serviceChains.chainName, chainId: serviceChains.chainId })
    .from(apps)
    .innerJoin(serviceChains, eq(serviceChains.appId, apps.id))
    .innerJoin(
      crossChainContracts,
      and(
        eq(crossChainContracts.chainName, serviceChains.chainName),
        eq(crossChainContracts.protocol, protocol),
        eq(crossChainContracts.role, "messenger"),
      ),
    )
    .where(
      and(
        eq(apps.crossStatus, CrossStatus.ACTIVATED),
        eq(apps.crossProtocol, protocol),
        ne(apps.id, appId),
        or(eq(apps.userId, userId), sql`${apps.id} in ${joined}`),
      ),
    )
    .orderBy(apps.name);
  for (const r of rows)
    out.push({ chainName: r.chainName, chainId: r.chainId, kind: "service", appId: r.appId, serviceName: r.name });
  return out;
}
