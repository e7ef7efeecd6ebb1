import { randomBytes } from "node:crypto";
import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import { PayState } from "#contract/billing-codes.ts";
import { GB, IPFS_BILL_TYPE, IPFS_PERIOD_DAYS, IpfsServiceStatus, IpfsUpgradeStatus } from "#contract/ipfs-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import billing from "#backend/domains/billing/index.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { ownService } from "./handlers/shared.ts";
import { ipfsUpgradeMachine, type IpfsUpgradeEvent } from "./machine.ts";
import { capacityOf, upgradePrice } from "./rules.ts";
import { capacityTiers } from "./prices.ts";
import { ipfsServices, ipfsUpgrades } from "./tables.ts";
import inbox from "#backend/domains/inbox/index.ts";

/**
 * IPFS capacity upgrades (SPEC §2 upgrade, new upgrade, upgrade detail; §4 IPFS upgrade; §5; §9 IPFS bills;
 * docs/decisions/039 addendum "Capacity upgrades"): the owner asks for a larger capacity and pays the price
 * difference for the rest of the paid period from the balance at once (a paid IPFS bill); an operator takes the
 * upgrade (0 → 2) and decides it: success (5) applies the new capacity to the service, failure (6, with a
 * reason) refunds the bill through the ledger. One open upgrade (0 or 2) per service.
 */

type Ctx = SignedInContext;
type UpgradeRow = typeof ipfsUpgrades.$inferSelect;
const OPEN = [IpfsUpgradeStatus.PENDING, IpfsUpgradeStatus.PROCESSING];
const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function upgradesOut(db: Db | Tx, rows: UpgradeRow[]) {
  const serviceIds = [...new Set(rows.map((r) => r.serviceId))];
  const services = serviceIds.length
    ? await db
        .select({ id: ipfsServices.id, name: ipfsServices.name })
        .from(ipfsServices)
        .where(inArray(ipfsServices.id, serviceIds))
    : [];
  const billIds = rows.flatMap((r) => (r.billId ? [r.billId] : []));
  const billRows = billIds.length
    ? await db
        .select({ id: bills.id, billNo: bills.billNo, refundCents: bills.refundCents })
        .from(bills)
        .where(inArray(bills.id, billIds))
    : [];
  return rows.map((u) => {
    const bill = billRows.find((b) => b.id === u.billId);
    return {
      ipfsUpgradeId: u.id,
      ipfsServiceId: u.serviceId,
      serviceName: services.find((s) => s.id === u.serviceId)?.name ?? "",
      fromStoreUnit: u.fromStoreUnit,
      toStoreUnit: u.toStoreUnit,
      priceDiffCents: u.priceDiffCents,
      status: u.status,
      billId: u.billId,
      billNo: bill?.billNo ?? null,
      failReason: u.failReason,
      refundCents: bill?.refundCents ?? 0,
      createdAt: u.createdAt.toISOString(),
      takenAt: iso(u.takenAt),
      decidedAt: iso(u.decidedAt),
    };
  });
}

async function openUpgradeOf(db: Db | Tx, serviceId: number) {
  const [open] = await db
    .select({ id: ipfsUpgrades.id })
    .from(ipfsUpgrades)
    .where(and(eq(ipfsUpgrades.serviceId, serviceId), inArray(ipfsUpgrades.status, OPEN)))
    .limit(1);
  return open?.id ?? null;
}

/** New upgrade: the larger capacities with the difference to pay now, and the open upgrade if any. */
export async function upgradeOptions(input: Payload<"/sys/ipfsBusiness/ipfsUpgrade/options">, ctx: Ctx) {
  const db = ctx.deps.db;
  const now = ctx.deps.now();
  const s = await ownService(db, ctx.user.id, input.ipfsServiceId);
  const tiers = await capacityTiers(db);
  const options = tiers
    .filter((c) => c.storeUnit > s.storeUnit)
    .map((c) => {
      const p = upgradePrice(s.storeUnit, c.storeUnit, s.expiresAt, now, tiers)!;
      return { storeUnit: c.storeUnit, fullPeriodDiffCents: p.fullPeriodDiffCents, priceDiffCents: p.priceDiffCents };
    });
  const remainingMs = s.expiresAt.getTime() - now.getTime();
  return {
    ipfsServiceId: s.id,
    name: s.name,
    status: s.status,
    storeUnit: s.storeUnit,
    usedBytes: s.usedBytes,
    expiresAt: s.expiresAt.toISOString(),
    remainingDays: Math.max(0, Math.ceil(remainingMs / 86_400_000)),
    periodDays: IPFS_PERIOD_DAYS,
    options,
    openUpgradeId: await openUpgradeOf(db, s.id),
  };
}

/**
 * Requests an upgrade (owner only): §5 unpaid usage bills refuse it (MSG_30005); the capacity must be offered
 * (MSG_45001) and larger (MSG_45010); one open upgrade per service (MSG_45011). The difference is paid at once
 * (MSG_30001 when the balance is short, and nothing is recorded). The same idempotency key answers the first.
 */
export async function createUpgrade(input: Payload<"/sys/ipfsBusiness/ipfsUpgrade/create">, ctx: Ctx) {
  const me = ctx.user.id;
  const now = ctx.deps.now();
  const result = await ctx.deps.db.transaction(async (tx) => {
    await billing.api.lockWallet(tx, me, now);
    const service = await ownService(tx, me, input.ipfsServiceId, true);
    const [replay] = await tx
      .select()
      .from(ipfsUpgrades)
      .where(and(eq(ipfsUpgrades.userId, me), eq(ipfsUpgrades.idempotencyKey, input.idempotencyKey)));
    if (replay) {
      if (replay.serviceId !== service.id || replay.toStoreUnit !== input.toStoreUnit)
        throw new ApiError(Msg.IDEMPOTENCY_KEY_REUSED);
      return { row: replay, replayed: true };
    }
    if (await billing.api.hasBlockingBills(tx, me, 1, now)) throw new ApiError(Msg.UNPAID_BILLS);
    if (service.status !== IpfsServiceStatus.RUNNING) throw new ApiError(Msg.IPFS_SERVICE_NOT_RUNNING);
    const tiers = await capacityTiers(tx);
    if (!capacityOf(input.toStoreUnit, tiers))
      throw new ApiError(Msg.IPFS_CAPACITY_UNKNOWN, { fieldErrors: { toStoreUnit: [Msg.IPFS_CAPACITY_UNKNOWN] } });
    const price = upgradePrice(service.storeUnit, input.toStoreUnit, service.expiresAt, now, tiers);
    if (!price)
      throw new ApiError(Msg.IPFS_UPGRADE_NOT_LARGER, { fieldErrors: { toStoreUnit: [Msg.IPFS_UPGRADE_NOT_LARGER] } });
    if (await openUpgradeOf(tx, service.id)) throw new ApiError(Msg.IPFS_UPGRADE_OPEN);
    let billId: number | null = null;
    if (price.priceDiffCents > 0) {
      const periodEnd =
        service.expiresAt.getTime() > now.getTime()
          ? service.expiresAt
          : new Date(now.getTime() + IPFS_PERIOD_DAYS * 86_400_000);
      const bill = await billing.api.issueBill(tx, {
        billNo: billing.api.newBillNo(now, "IU"),
        userId: me,
        serviceName: `IPFS ${service.name} · ${service.storeUnit} → ${input.toStoreUnit} GB`,
        billType: IPFS_BILL_TYPE,
        payState: PayState.PAID,
        payMode: 1,
        payType: "BALANCE",
        cycle: 2,
        periodStart: now,
        periodEnd,
        createdAt: now,
        deadline: now,
        paidAt: now,
        totalCents: price.priceDiffCents,
        payCents: price.priceDiffCents,
        detail: { dataCapacityGb: input.toStoreUnit },
        dedupeKey: `ipfs-upgrade:${me}:${input.idempotencyKey}`,
      });
      // Throws MSG_30001 (insufficient balance) and rolls everything back.
      await billing.api.post(
        tx,
        {
          userId: me,
          kind: "bill_payment",
          amountCents: bill.payCents,
          refType: "bill",
          refId: bill.id,
          idempotencyKey: `ipfs-upgrade:${input.idempotencyKey}`,
        },
        now,
      );
      billId = bill.id;
    }
    const [row] = await tx
      .insert(ipfsUpgrades)
      .values({
        serviceId: service.id,
        userId: me,
        fromStoreUnit: service.storeUnit,
        toStoreUnit: input.toStoreUnit,
        priceDiffCents: price.priceDiffCents,
        status: IpfsUpgradeStatus.PENDING,
        billId,
        idempotencyKey: input.idempotencyKey,
        createdAt: now,
      })
      .returning();
    return { row, replayed: false };
  });
  const [out] = await upgradesOut(ctx.deps.db, [result.row]);
  return { ...out, replayed: result.replayed };
}

/** A service's upgrades (owner only), newest first. */
export async function listUpgrades(input: Payload<"/sys/ipfsBusiness/ipfsUpgrade/list">, ctx: Ctx) {
  const db = ctx.deps.db;
  const service = await ownService(db, ctx.user.id, input.ipfsServiceId);
  const where = eq(ipfsUpgrades.serviceId, service.id);
  const [{ total }] = await db.select({ total: count() }).from(ipfsUpgrades).where(where);
  const rows = await db
    .select()
    .from(ipfsUpgrades)
    .where(where)
    .orderBy(desc(ipfsUpgrades.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return { page: { rows: await upgradesOut(db, rows), total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/** An upgrade's detail: its owner's only (another user's is not found). */
export async function upgradeDetail(input: Payload<"/sys/ipfsBusiness/ipfsUpgrade/detail">, ctx: Ctx) {
  const db = ctx.deps.db;
  const [row] = await db
    .select()
    .from(ipfsUpgrades)
    .where(and(eq(ipfsUpgrades.id, input.ipfsUpgradeId), eq(ipfsUpgrades.userId, ctx.user.id)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return (await upgradesOut(db, [row]))[0];
}

/** Operations: the upgrades pending (0) or being processed (2), oldest first, with their owners. */
export async function opsUpgradeList(input: Payload<"/sys/ops/ipfsUpgrades/list">, ctx: Ctx) {
  const db = ctx.deps.db;
  const where = inArray(ipfsUpgrades.status, OPEN);
  const [{ total }] = await db.select({ total: count() }).from(ipfsUpgrades).where(where);
  const rows = await db
    .select()
    .from(ipfsUpgrades)
    .where(where)
    .orderBy(asc(ipfsUpgrades.createdAt), asc(ipfsUpgrades.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const owners = rows.length
    ? await db
        .select({ id: users.id, userName: users.userName })
        .from(users)
        .where(inArray(users.id, [...new Set(rows.map((r) => r.userId))]))
    : [];
  const out = await upgradesOut(db, rows);
  return {
    page: {
      rows: out.map((u, i) => ({ ...u, owner: owners.find((o) => o.id === rows[i].userId)?.userName ?? "" })),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
}

/** The waiting items of the operations queue (platform dashboard, /sys/ops/queues/waiting). */
export async function upgradesWaiting(db: Db) {
  const [{ n }] = await db.select({ n: count() }).from(ipfsUpgrades).where(inArray(ipfsUpgrades.status, OPEN));
  return { IpfsUpgrades: n };
}

/** Applies one machine event to a locked upgrade; the refusal's message when the machine refuses it. */
async function moved(tx: Tx, ipfsUpgradeId: number, event: IpfsUpgradeEvent, comments: string | null) {
  const [upgrade] = await tx.select().from(ipfsUpgrades).where(eq(ipfsUpgrades.id, ipfsUpgradeId)).for("update");
  if (!upgrade) throw new ApiError(Msg.NOT_FOUND);
  const decided = ipfsUpgradeMachine.transition(upgrade.status, event, "operator", { comments });
  if (!decided.ok) throw new ApiError(decided.messageKey);
  return { upgrade, to: decided.to };
}

/** Operations: takes a pending upgrade (0 → 2 operations processing). */
export async function opsUpgradeTake(input: Payload<"/sys/ops/ipfsUpgrades/take">, ctx: Ctx) {
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
    const { upgrade, to } = await moved(tx, input.ipfsUpgradeId, "take", null);
    await tx
      .update(ipfsUpgrades)
      .set({ status: to, takenAt: now, takenBy: ctx.user.id })
      .where(eq(ipfsUpgrades.id, upgrade.id));
    return { status: to };
  });
}

/**
 * Operations: approve → 5 success, the service gets the new capacity (its storeUnit and bytes); reject with a
 * reason → 6 failed, the bill of the difference is refunded to the balance through the ledger (as a refused
 * refund request's approval does) and the service keeps its capacity.
 */
/** A capacity as a message parameter (the same in both languages). */
const gbText = (storeUnit: number) =>
  storeUnit >= 1024 && storeUnit % 1024 === 0 ? `${storeUnit / 1024} TB` : `${storeUnit} GB`;

export async function opsUpgradeDecide(input: Payload<"/sys/ops/ipfsUpgrades/decide">, ctx: Ctx) {
  const now = ctx.deps.now();
  const comments = input.comments?.trim() || null;
  return ctx.deps.db.transaction(async (tx) => {
    const { upgrade, to } = await moved(
      tx,
      input.ipfsUpgradeId,
      input.decision === "approve" ? "succeed" : "fail",
      comments,
    );
    const decided = { status: to, decidedAt: now, decidedBy: ctx.user.id };
    if (to === IpfsUpgradeStatus.SUCCESS) {
      const [service] = await tx
        .select()
        .from(ipfsServices)
        .where(eq(ipfsServices.id, upgrade.serviceId))
        .for("update");
      // Never smaller: should the service have grown since (it cannot, one open upgrade at a time), it keeps the larger.
      const storeUnit = Math.max(service.storeUnit, upgrade.toStoreUnit);
      await tx
        .update(ipfsServices)
        .set({ storeUnit, capacityBytes: Math.max(service.capacityBytes, storeUnit * GB) })
        .where(eq(ipfsServices.id, service.id));
      await tx.update(ipfsUpgrades).set(decided).where(eq(ipfsUpgrades.id, upgrade.id));
      await inbox.api.notify(tx, {
        userId: upgrade.userId,
        textKey: "messages.ipfsUpgradeSucceeded",
        params: { name: service.name, capacity: gbText(storeUnit) },
        at: now,
      });
      return { status: to };
    }
    const [service] = await tx
      .select({ name: ipfsServices.name })
      .from(ipfsServices)
      .where(eq(ipfsServices.id, upgrade.serviceId));
    let refunded = 0;
    if (upgrade.billId) {
      const [bill] = await tx.select().from(bills).where(eq(bills.id, upgrade.billId)).for("update");
      const amount = bill.payCents - bill.refundCents;
      if (amount > 0) {
        refunded = amount;
        await billing.api.post(
          tx,
          {
            userId: upgrade.userId,
            kind: "refund",
            amountCents: amount,
            refType: "bill",
            refId: bill.id,
            idempotencyKey: `ipfs-upgrade-refund:${upgrade.id}`,
          },
          now,
        );
        await billing.api.recordBillRefund(tx, bill.id, {
          refundCents: bill.refundCents + amount,
          refundNo: `RF${now.getTime().toString(36).toUpperCase()}${randomBytes(2).toString("hex").toUpperCase()}`,
          payState: PayState.REFUNDED,
        });
      }
    }
    await tx
      .update(ipfsUpgrades)
      .set({ ...decided, failReason: comments })
      .where(eq(ipfsUpgrades.id, upgrade.id));
    await inbox.api.notify(tx, {
      userId: upgrade.userId,
      textKey: "messages.ipfsUpgradeFailed",
      params: {
        name: service.name,
        capacity: gbText(upgrade.toStoreUnit),
        reason: comments ?? "",
        amount: (refunded / 100).toFixed(2),
      },
      at: now,
    });
    return { status: to };
  });
}
