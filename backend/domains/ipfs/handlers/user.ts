import { and, count, desc, eq, inArray } from "drizzle-orm";
import {
  IPFS_KEY_KINDS,
  IPFS_BILL_TYPE,
  IpfsKeyState,
  IpfsServiceStatus,
  type IpfsKeyKind,
} from "#contract/ipfs-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import billing from "#backend/domains/billing/index.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { newKey, openKey } from "#backend/domains/ipfs/keys.ts";
import { capacityOf } from "#backend/domains/ipfs/rules.ts";
import { capacityLabel, capacityTiers } from "#backend/domains/ipfs/prices.ts";
import { ipfsFiles, ipfsKeys, ipfsServiceGateways, ipfsServices } from "#backend/domains/ipfs/tables.ts";
import { DAY_MS, gatewayPath, gatewaysOf, ownService, type Ctx } from "./shared.ts";
import { type KeyRow, type ServiceRow } from "#backend/domains/ipfs/records.ts";

/* ------------------------------------------- §7 catalogue paths ------------------------------------------- */

/** SPEC §7 selectIpfsOrgFlowPrices: every city node offers a gateway, at its traffic price. */
export async function selectIpfsOrgFlowPrices(
  _input: Payload<"/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices">,
  ctx: Ctx,
) {
  const rows = await ctx.deps.db.select().from(cityNodes).orderBy(cityNodes.id);
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

export async function selectCapacity(_input: Payload<"/sys/ipfsBusiness/ipfsUpgrade/selectCapacity">, ctx: Ctx) {
  return (await capacityTiers(ctx.deps.db)).map((c) => ({ storeUnit: c.storeUnit, label: capacityLabel(c.storeUnit) }));
}

/** A capacity at the operators' current price (docs/decisions/073), or MSG_45001 at the field. */
async function tier(q: Db | Tx, storeUnit: number) {
  const found = capacityOf(storeUnit, await capacityTiers(q));
  if (!found)
    throw new ApiError(Msg.IPFS_CAPACITY_UNKNOWN, { fieldErrors: { storeUnit: [Msg.IPFS_CAPACITY_UNKNOWN] } });
  return found;
}

export async function getIpfsUnitPrice(input: Payload<"/sys/ipfsBusiness/ipfs/getIpfsUnitPrice">, ctx: Ctx) {
  const t = await tier(ctx.deps.db, input.storeUnit);
  return { storeUnit: t.storeUnit, unitPriceCents: t.unitPriceCents };
}

export async function getIpfsPrice(input: Payload<"/sys/ipfsBusiness/ipfs/getIpfsPrice">, ctx: Ctx) {
  const t = await tier(ctx.deps.db, input.storeUnit);
  return {
    storeUnit: t.storeUnit,
    unitPriceCents: t.unitPriceCents,
    priceCents: t.priceCents,
    periodDays: t.periodDays,
  };
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

/**
 * A new service paid from the balance: a paid IPFS bill (§9 category), one `bill_payment` ledger entry, the
 * service, its gateways and its two keys (activated, shown once in the answer). §5: unpaid usage bills block a
 * new service. The same idempotency key answers the first creation.
 */
export async function createService(input: Payload<"/sys/ipfsBusiness/ipfs/create">, ctx: Ctx) {
  const me = ctx.user.id;
  const now = ctx.deps.now();
  const env = ctx.deps.env;
  await tier(ctx.deps.db, input.storeUnit);
  const orgIds = [...new Set(input.orgIds)].sort((a, b) => a - b);
  const result = await ctx.deps.db.transaction(async (tx) => {
    await billing.api.lockWallet(tx, me, now);
    // The price charged is read in the charge's transaction (docs/decisions/073).
    const t = await tier(tx, input.storeUnit);
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
    const bill = await billing.api.issueBill(tx, {
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
    });
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
  const [out] = await servicesOut(ctx.deps.db, [result.row], result.shown);
  return { ...out, replayed: result.replayed };
}

export async function listServices(input: Payload<"/sys/ipfsBusiness/ipfs/list">, ctx: Ctx) {
  const db = ctx.deps.db;
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
  const [out] = await servicesOut(ctx.deps.db, [await ownService(ctx.deps.db, ctx.user.id, input.ipfsServiceId)]);
  return out;
}

/** A key: show, regenerate (the old one stops at once), deactivate (0), activate (1). An unsubscribed key (2) only shows. */
export async function serviceKey(input: Payload<"/sys/ipfsBusiness/ipfs/key">, ctx: Ctx) {
  const env = ctx.deps.env;
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
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
