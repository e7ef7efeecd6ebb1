import { and, count, desc, eq, gte, ilike, inArray, sql, sum } from "drizzle-orm";
import {
  IPFS_CAPACITIES,
  IPFS_GATEWAY_PREFIX,
  IPFS_KEY_KINDS,
  IPFS_BILL_TYPE,
  IPFS_TRAFFIC_DAYS,
  IpfsKeyState,
  IpfsServiceStatus,
  type IpfsKeyKind,
} from "#contract/ipfs-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import billing from "#backend/domains/billing/index.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { hashKey, newKey, openKey } from "./keys.ts";
import { engineOf } from "./node.ts";
import { capacityOf, lastDays } from "./rules.ts";
import { ipfsFiles, ipfsKeys, ipfsServiceGateways, ipfsServices, ipfsTrafficDaily } from "./tables.ts";

/** The handlers of IPFS storage (contract/ipfs.ts; docs/decisions/039). Every service is looked up with its owner. */

type Ctx = SignedInContext;
type ServiceRow = typeof ipfsServices.$inferSelect;
type KeyRow = typeof ipfsKeys.$inferSelect;
const DAY_MS = 86_400_000;

const gatewayPath = (code: string) => `${IPFS_GATEWAY_PREFIX}${encodeURIComponent(code)}`;
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/* ------------------------------------------- §7 catalogue paths ------------------------------------------- */

/** SPEC §7 selectIpfsOrgFlowPrices: every city node offers a gateway, at its traffic price. */
export async function selectIpfsOrgFlowPrices(
  _input: Payload<"/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices">,
  ctx: Ctx,
) {
  const rows = await ctx.services.db.select().from(cityNodes).orderBy(cityNodes.id);
  if (!rows.length) throw new ApiError(Msg.SERVER_ERROR);
  return rows.map((n) => ({
    orgId: n.id,
    orgCode: n.code,
    orgName: n.name,
    orgNameZh: n.nameZh,
    flowPriceCents: n.trafficPricePerGbCents,
    gatewayPath: gatewayPath(n.code),
  }));
}

export async function selectCapacity(_input: Payload<"/sys/ipfsBusiness/ipfsUpgrade/selectCapacity">, _ctx: Ctx) {
  return IPFS_CAPACITIES.map((c) => ({
    storeUnit: c.storeUnit,
    label: c.storeUnit >= 1024 && c.storeUnit % 1024 === 0 ? `${c.storeUnit / 1024} TB` : `${c.storeUnit} GB`,
  }));
}

function tier(storeUnit: number) {
  const found = capacityOf(storeUnit);
  if (!found)
    throw new ApiError(Msg.IPFS_CAPACITY_UNKNOWN, { fieldErrors: { storeUnit: [Msg.IPFS_CAPACITY_UNKNOWN] } });
  return found;
}

export async function getIpfsUnitPrice(input: Payload<"/sys/ipfsBusiness/ipfs/getIpfsUnitPrice">, _ctx: Ctx) {
  const t = tier(input.storeUnit);
  return { storeUnit: t.storeUnit, unitPriceCents: t.unitPriceCents };
}

export async function getIpfsPrice(input: Payload<"/sys/ipfsBusiness/ipfs/getIpfsPrice">, _ctx: Ctx) {
  const t = tier(input.storeUnit);
  return {
    storeUnit: t.storeUnit,
    unitPriceCents: t.unitPriceCents,
    priceCents: t.priceCents,
    periodDays: t.periodDays,
  };
}

/* ------------------------------------------------ services ------------------------------------------------ */

type Gateway = {
  orgId: number;
  orgCode: string;
  orgName: string;
  orgNameZh: string;
  flowPriceCents: number;
  gatewayPath: string;
};

async function gatewaysOf(db: Db | Tx, serviceIds: number[]): Promise<Map<number, Gateway[]>> {
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

const keyOut = (k: KeyRow, apiKey: string | null = null) => ({
  kind: k.kind as IpfsKeyKind,
  state: k.state,
  keyHint: k.keyHint,
  apiKey,
  createdAt: k.createdAt.toISOString(),
});

async function servicesOut(db: Db | Tx, rows: ServiceRow[], shown: Map<string, string> = new Map()) {
  const ids = rows.map((r) => r.id);
  const gateways = await gatewaysOf(db, ids);
  const keys = ids.length
    ? await db.select().from(ipfsKeys).where(inArray(ipfsKeys.serviceId, ids)).orderBy(desc(ipfsKeys.kind))
    : [];
  const files = ids.length
    ? await db
        .select({ serviceId: ipfsFiles.serviceId, n: count() })
        .from(ipfsFiles)
        .where(inArray(ipfsFiles.serviceId, ids))
        .groupBy(ipfsFiles.serviceId)
    : [];
  const billIds = rows.map((r) => r.billId).filter((b): b is number => b !== null);
  const billRows = billIds.length
    ? await db.select({ id: bills.id, billNo: bills.billNo }).from(bills).where(inArray(bills.id, billIds))
    : [];
  return rows.map((s) => ({
    ipfsServiceId: s.id,
    name: s.name,
    storeUnit: s.storeUnit,
    capacityBytes: s.capacityBytes,
    usedBytes: s.usedBytes,
    files: files.find((f) => f.serviceId === s.id)?.n ?? 0,
    status: s.status,
    billId: s.billId,
    billNo: billRows.find((b) => b.id === s.billId)?.billNo ?? null,
    createdAt: s.createdAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    gateways: gateways.get(s.id) ?? [],
    keys: keys.filter((k) => k.serviceId === s.id).map((k) => keyOut(k, shown.get(`${s.id}:${k.kind}`) ?? null)),
  }));
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

/**
 * A new service paid from the balance: a paid IPFS bill (§9 category), one `bill_payment` ledger entry, the
 * service, its gateways and its two keys (activated, shown once in the answer). §5: unpaid usage bills block a
 * new service. The same idempotency key answers the first creation.
 */
export async function createService(input: Payload<"/sys/ipfsBusiness/ipfs/create">, ctx: Ctx) {
  const me = ctx.user.id;
  const now = ctx.services.now();
  const env = ctx.services.env;
  const t = tier(input.storeUnit);
  const orgIds = [...new Set(input.orgIds)].sort((a, b) => a - b);
  const result = await ctx.services.db.transaction(async (tx) => {
    await billing.api.lockWallet(tx, me, now);
    const [replay] = await tx
      .select()
      .from(ipfsServices)
      .where(and(eq(ipfsServices.userId, me), eq(ipfsServices.idempotencyKey, input.idempotencyKey)));
    if (replay) {
      if (replay.storeUnit !== input.storeUnit || replay.name !== input.name)
        throw new ApiError(Msg.IDEMPOTENCY_KEY_REUSED);
      return { row: replay, shown: new Map<string, string>(), replayed: true };
    }
    if (await billing.api.hasBlockingBills(tx, me, 1, now)) throw new ApiError(Msg.UNPAID_BILLS);
    const nodes = await tx.select().from(cityNodes).where(inArray(cityNodes.id, orgIds));
    if (nodes.length !== orgIds.length)
      throw new ApiError(Msg.IPFS_GATEWAY_UNKNOWN, { fieldErrors: { orgIds: [Msg.IPFS_GATEWAY_UNKNOWN] } });
    const [taken] = await tx
      .select({ id: ipfsServices.id })
      .from(ipfsServices)
      .where(and(eq(ipfsServices.userId, me), eq(ipfsServices.name, input.name)));
    if (taken) throw new ApiError(Msg.IPFS_NAME_TAKEN, { fieldErrors: { name: [Msg.IPFS_NAME_TAKEN] } });
    const expiresAt = new Date(now.getTime() + t.periodDays * DAY_MS);
    const [bill] = await tx
      .insert(bills)
      .values({
        billNo: billing.api.newBillNo(now, "IP"),
        userId: me,
        serviceName: `IPFS ${input.name} · ${t.storeUnit} GB`,
        billType: IPFS_BILL_TYPE,
        payState: 15,
        payMode: 1,
        payType: "BALANCE",
        cycle: 2,
        periodStart: now,
        periodEnd: expiresAt,
        createdAt: now,
        deadline: now,
        paidAt: now,
        totalCents: t.priceCents,
        payCents: t.priceCents,
        detail: { dataCapacityGb: t.storeUnit },
        dedupeKey: `ipfs-service:${me}:${input.idempotencyKey}`,
      })
      .returning();
    // Throws MSG_30001 (insufficient balance) and rolls everything back.
    if (bill.payCents > 0)
      await billing.api.post(
        tx,
        {
          userId: me,
          kind: "bill_payment",
          amountCents: bill.payCents,
          refType: "bill",
          refId: bill.id,
          idempotencyKey: `ipfs-service:${input.idempotencyKey}`,
        },
        now,
      );
    const [row] = await tx
      .insert(ipfsServices)
      .values({
        userId: me,
        name: input.name,
        storeUnit: t.storeUnit,
        capacityBytes: t.capacityBytes,
        usedBytes: 0,
        status: IpfsServiceStatus.RUNNING,
        billId: bill.id,
        idempotencyKey: input.idempotencyKey,
        createdAt: now,
        expiresAt,
      })
      .returning();
    await tx.insert(ipfsServiceGateways).values(orgIds.map((cityNodeId) => ({ serviceId: row.id, cityNodeId })));
    const shown = new Map<string, string>();
    for (const kind of IPFS_KEY_KINDS) {
      const { key, ...stored } = newKey(env, kind);
      shown.set(`${row.id}:${kind}`, key);
      await tx
        .insert(ipfsKeys)
        .values({ serviceId: row.id, kind, ...stored, state: IpfsKeyState.ACTIVATED, createdAt: now, updatedAt: now });
    }
    return { row, shown, replayed: false };
  });
  const [out] = await servicesOut(ctx.services.db, [result.row], result.shown);
  return { ...out, replayed: result.replayed };
}

export async function listServices(input: Payload<"/sys/ipfsBusiness/ipfs/list">, ctx: Ctx) {
  const db = ctx.services.db;
  const where = eq(ipfsServices.userId, ctx.user.id);
  const [{ total }] = await db.select({ total: count() }).from(ipfsServices).where(where);
  const rows = await db
    .select()
    .from(ipfsServices)
    .where(where)
    .orderBy(desc(ipfsServices.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return { page: { rows: await servicesOut(db, rows), total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

export async function serviceDetail(input: Payload<"/sys/ipfsBusiness/ipfs/detail">, ctx: Ctx) {
  const [out] = await servicesOut(ctx.services.db, [
    await ownService(ctx.services.db, ctx.user.id, input.ipfsServiceId),
  ]);
  return out;
}

/** A key: show, regenerate (the old one stops at once), deactivate (0), activate (1). An unsubscribed key (2) only shows. */
export async function serviceKey(input: Payload<"/sys/ipfsBusiness/ipfs/key">, ctx: Ctx) {
  const env = ctx.services.env;
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    const service = await ownService(tx, ctx.user.id, input.ipfsServiceId, true);
    const [key] = await tx
      .select()
      .from(ipfsKeys)
      .where(and(eq(ipfsKeys.serviceId, service.id), eq(ipfsKeys.kind, input.kind)));
    if (!key) throw new ApiError(Msg.NOT_FOUND);
    if (input.action === "show") return keyOut(key, openKey(env, key.keySealed));
    if (key.state === IpfsKeyState.UNSUBSCRIBED || service.status !== IpfsServiceStatus.RUNNING)
      throw new ApiError(Msg.IPFS_SERVICE_NOT_RUNNING);
    if (input.action === "regenerate") {
      const { key: apiKey, ...stored } = newKey(env, input.kind);
      const [row] = await tx
        .update(ipfsKeys)
        .set({ ...stored, createdAt: now, updatedAt: now })
        .where(eq(ipfsKeys.id, key.id))
        .returning();
      return keyOut(row, apiKey);
    }
    const state = input.action === "activate" ? IpfsKeyState.ACTIVATED : IpfsKeyState.DEACTIVATED;
    const [row] = await tx.update(ipfsKeys).set({ state, updatedAt: now }).where(eq(ipfsKeys.id, key.id)).returning();
    return keyOut(row);
  });
}

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
  const db = ctx.services.db;
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
 * Unpins a file: its row goes and the service's used bytes with it, in one transaction; then the engine takes
 * one pin of its root away (its blocks go when no other pin holds them). Should the engine fail after the
 * commit, the pin is left behind (never a file without its blocks).
 */
export async function unpinFile(input: Payload<"/sys/ipfsBusiness/ipfs/unpin">, ctx: Ctx) {
  const deps = ctx.services;
  const { file, usedBytes } = await deps.db.transaction(async (tx) => {
    const service = await ownService(tx, ctx.user.id, input.ipfsServiceId, true);
    const [file] = await tx
      .delete(ipfsFiles)
      .where(and(eq(ipfsFiles.id, input.ipfsFileId), eq(ipfsFiles.serviceId, service.id)))
      .returning();
    if (!file) throw new ApiError(Msg.NOT_FOUND);
    const [updated] = await tx
      .update(ipfsServices)
      .set({ usedBytes: sql`greatest(${ipfsServices.usedBytes} - ${file.size}, 0)` })
      .where(eq(ipfsServices.id, service.id))
      .returning({ usedBytes: ipfsServices.usedBytes });
    return { file, usedBytes: updated.usedBytes };
  });
  try {
    await engineOf(deps).unpin(file.cid);
  } catch (error) {
    console.warn(`ipfs: unpin of ${file.cid} after file ${file.id} was deleted failed:`, error);
  }
  return { ipfsFileId: file.id, usedBytes };
}

/* ------------------------------------------------- traffic ------------------------------------------------- */

/** SPEC §9: a service's download traffic per gateway and UTC+8 day over 30 days. */
export async function serviceTraffic(input: Payload<"/sys/ipfsBusiness/ipfs/traffic">, ctx: Ctx) {
  const db = ctx.services.db;
  const service = await ownService(db, ctx.user.id, input.ipfsServiceId);
  const days = lastDays(ctx.services.now(), IPFS_TRAFFIC_DAYS);
  const gateways = (await gatewaysOf(db, [service.id])).get(service.id) ?? [];
  const rows = await db
    .select({ day: ipfsTrafficDaily.day, orgCode: cityNodes.code, bytes: ipfsTrafficDaily.bytes })
    .from(ipfsTrafficDaily)
    .innerJoin(cityNodes, eq(cityNodes.id, ipfsTrafficDaily.cityNodeId))
    .where(and(eq(ipfsTrafficDaily.serviceId, service.id), gte(ipfsTrafficDaily.day, days[0])))
    .orderBy(ipfsTrafficDaily.day, cityNodes.code);
  return { days, gateways, rows, totalBytes: rows.reduce((n, r) => n + r.bytes, 0) };
}

/** My account: the caller's IPFS data usage by city node gateway over 30 days, every service together. */
export async function usageByGateway(_input: Payload<"/sys/ipfsBusiness/ipfs/usageByGateway">, ctx: Ctx) {
  const days = lastDays(ctx.services.now(), IPFS_TRAFFIC_DAYS);
  const rows = await ctx.services.db
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

/** Tests only: a service's capacity in bytes. */
export async function setCapacityFixture(input: Payload<"/test/ipfs/capacity">, ctx: Ctx) {
  if (!ctx.services.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  const service = await ownService(ctx.services.db, ctx.user.id, input.ipfsServiceId);
  await ctx.services.db
    .update(ipfsServices)
    .set({ capacityBytes: input.capacityBytes })
    .where(eq(ipfsServices.id, service.id));
  return { ipfsServiceId: service.id, capacityBytes: input.capacityBytes };
}
