import { and, count, desc, eq, gte, ilike, sql, sum } from "drizzle-orm";
import { IPFS_TOP_FILES, IPFS_TRAFFIC_DAYS } from "#contract/ipfs-codes.ts";
import { Msg } from "#contract/messages.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import { engineOf } from "#backend/domains/ipfs/node.ts";
import { scheduleUnpin } from "#backend/domains/ipfs/jobs.ts";
import { lastDays } from "#backend/domains/ipfs/rules.ts";
import {
  ipfsFiles,
  ipfsServices,
  ipfsTrafficDaily,
  ipfsTrafficFilesDaily,
  ipfsUnpins,
} from "#backend/domains/ipfs/tables.ts";
import { escapeLike, gatewaysOf, ownService, type Ctx } from "./shared.ts";

/* -------------------------------------------------- files -------------------------------------------------- */

const fileOut = (f: typeof ipfsFiles.$inferSelect) => ({
  ipfsFileId: f.id,
  name: f.name,
  cid: f.cid,
  size: f.size,
  contentType: f.contentType,
  createdAt: f.createdAt.toISOString(),
});

export async function listFiles(input: Payload<"/sys/ipfsBusiness/ipfs/files">, ctx: Ctx) {
  const db = ctx.deps.db;
  const service = await ownService(db, ctx.user.id, input.ipfsServiceId);
  const where = and(
    eq(ipfsFiles.serviceId, service.id),
    input.name ? ilike(ipfsFiles.name, `%${escapeLike(input.name)}%`) : undefined,
  );
  const [{ total }] = await db.select({ total: count() }).from(ipfsFiles).where(where);
  const rows = await db
    .select()
    .from(ipfsFiles)
    .where(where)
    .orderBy(desc(ipfsFiles.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return { page: { rows: rows.map(fileOut), total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/**
 * Unpins a file: its row goes and the service's used bytes with it (unless another name of the service holds the
 * same CID), in one transaction; then the engine takes
 * one pin of its root away (its blocks go when no other pin holds them). Should the engine fail after the
 * commit, the pin is left behind (never a file without its blocks); while the IPFS node is not answering, a job
 * retries the unpin. From the commit until the engine has answered, the unpin is recorded as under way
 * (`ipfs_unpins`), so the pin sweep does not take the same pin (docs/decisions/108).
 */
export async function unpinFile(input: Payload<"/sys/ipfsBusiness/ipfs/unpin">, ctx: Ctx) {
  const deps = ctx.deps;
  const { file, usedBytes, freed } = await deps.db.transaction(async (tx) => {
    const service = await ownService(tx, ctx.user.id, input.ipfsServiceId, true);
    const [file] = await tx
      .delete(ipfsFiles)
      .where(and(eq(ipfsFiles.id, input.ipfsFileId), eq(ipfsFiles.serviceId, service.id)))
      .returning();
    if (!file) throw new ApiError(Msg.NOT_FOUND);
    await tx.insert(ipfsUnpins).values({ fileId: file.id, cid: file.cid, createdAt: deps.now() });
    // A CID counts once per service: its size is freed with the last of its names only.
    const [kept] = await tx
      .select({ id: ipfsFiles.id })
      .from(ipfsFiles)
      .where(and(eq(ipfsFiles.serviceId, service.id), eq(ipfsFiles.cid, file.cid)))
      .limit(1);
    const [updated] = await tx
      .update(ipfsServices)
      .set({ usedBytes: kept ? ipfsServices.usedBytes : sql`greatest(${ipfsServices.usedBytes} - ${file.size}, 0)` })
      .where(eq(ipfsServices.id, service.id))
      .returning({ usedBytes: ipfsServices.usedBytes });
    return { file, usedBytes: updated.usedBytes, freed: !kept };
  });
  try {
    await engineOf(deps).unpin(file.cid);
  } catch (error) {
    // The IPFS node not answering: a job takes the pin away once it answers again (docs/decisions/076).
    if ((error as Error)?.name === "EngineUnavailableError") await scheduleUnpin(deps, file.id, file.cid);
    else console.warn(`ipfs: unpin of ${file.cid} after file ${file.id} was deleted failed:`, error);
  }
  // Done, or owed by the job: no longer under way (if this process dies first, the record is void in an hour).
  await deps.db.delete(ipfsUnpins).where(eq(ipfsUnpins.fileId, file.id));
  return { ipfsFileId: file.id, usedBytes, freed };
}

/* ------------------------------------------------- traffic ------------------------------------------------- */

/** SPEC §9: a service's download traffic per gateway and UTC+8 day over 30 days, and the files served most. */
export async function serviceTraffic(input: Payload<"/sys/ipfsBusiness/ipfs/traffic">, ctx: Ctx) {
  const db = ctx.deps.db;
  const service = await ownService(db, ctx.user.id, input.ipfsServiceId);
  const days = lastDays(ctx.deps.now(), IPFS_TRAFFIC_DAYS);
  const gateways = (await gatewaysOf(db, [service.id])).get(service.id) ?? [];
  const rows = await db
    .select({ day: ipfsTrafficDaily.day, orgCode: cityNodes.code, bytes: ipfsTrafficDaily.bytes })
    .from(ipfsTrafficDaily)
    .innerJoin(cityNodes, eq(cityNodes.id, ipfsTrafficDaily.cityNodeId))
    .where(and(eq(ipfsTrafficDaily.serviceId, service.id), gte(ipfsTrafficDaily.day, days[0])))
    .orderBy(ipfsTrafficDaily.day, cityNodes.code);
  const f = ipfsTrafficFilesDaily;
  const served = sum(f.bytes).mapWith(Number);
  const topFiles = await db
    .select({
      cid: f.cid,
      name: sql<
        string | null
      >`(select min(${ipfsFiles.name}) from ${ipfsFiles} where ${ipfsFiles.serviceId} = ${service.id} and ${ipfsFiles.cid} = ${f.cid})`,
      bytes: served,
    })
    .from(f)
    .where(and(eq(f.serviceId, service.id), gte(f.day, days[0])))
    .groupBy(f.cid)
    .orderBy(desc(served), f.cid)
    .limit(IPFS_TOP_FILES);
  return { days, gateways, rows, totalBytes: rows.reduce((n, r) => n + r.bytes, 0), topFiles };
}

/** My account: the caller's IPFS data usage by city node gateway over 30 days, every service together. */
export async function usageByGateway(_input: Payload<"/sys/ipfsBusiness/ipfs/usageByGateway">, ctx: Ctx) {
  const days = lastDays(ctx.deps.now(), IPFS_TRAFFIC_DAYS);
  const rows = await ctx.deps.db
    .select({
      orgCode: cityNodes.code,
      orgName: cityNodes.name,
      orgNameZh: cityNodes.nameZh,
      flowPriceCents: cityNodes.trafficPricePerGbCents,
      bytes: sum(ipfsTrafficDaily.bytes).mapWith(Number),
      services: sql<number>`count(distinct ${ipfsTrafficDaily.serviceId})`.mapWith(Number),
    })
    .from(ipfsTrafficDaily)
    .innerJoin(ipfsServices, eq(ipfsServices.id, ipfsTrafficDaily.serviceId))
    .innerJoin(cityNodes, eq(cityNodes.id, ipfsTrafficDaily.cityNodeId))
    .where(and(eq(ipfsServices.userId, ctx.user.id), gte(ipfsTrafficDaily.day, days[0])))
    .groupBy(cityNodes.id, cityNodes.code, cityNodes.name, cityNodes.nameZh, cityNodes.trafficPricePerGbCents)
    .orderBy(cityNodes.id);
  return { days: IPFS_TRAFFIC_DAYS, rows, totalBytes: rows.reduce((n, r) => n + r.bytes, 0) };
}
