import type { BillSettler } from "#backend/domains/billing/index.ts";
import billing from "#backend/domains/billing/index.ts";
import { randomBytes } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { PayState } from "#contract/billing-codes.ts";
import { serviceActions, VerState } from "#contract/service-status.ts";
import type { Tx } from "#backend/db/client.ts";
import { appTransitions, appVersions, apps, configUpgrades } from "./tables.ts";
import { payRenewal } from "./renewal.ts";
import { payUpgrade } from "./upgrade-lifecycle.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import { PUBLISH_PAYMENT_WINDOW_MS } from "./machine.ts";
import { scheduleDeploy, scheduleExpiry } from "./jobs.ts";
import { applyTransition } from "./machine.ts";
import { cycleDays } from "#contract/config-upgrade-codes.ts";

const DAY = 24 * 60 * 60 * 1000;

export { cycleDays };

/**
 * The publish bill of a version the final review approved (§9 bill type 1): amount = app_versions.costCents,
 * deadline = approval + 3 days (§8), linked to the version (billId, billState 1), with the expiry job.
 * One bill per version and approval (dedupe key), so a retried approval never makes two.
 */
export async function createPublishBill(tx: Tx, verId: number, now: Date) {
  const [version] = await tx.select().from(appVersions).where(eq(appVersions.id, verId));
  const [app] = await tx.select().from(apps).where(eq(apps.id, version.appId));
  const [{ n }] = await tx
    .select({ n: count() })
    .from(appTransitions)
    .where(and(eq(appTransitions.verId, verId), eq(appTransitions.event, "finalApprove")));
  const amount = version.costCents ?? 0;
  const bill = await billing.api.issueBillOnce(tx, {
    billNo: `PB${now.getTime().toString(36).toUpperCase()}${randomBytes(3).toString("hex").toUpperCase()}`,
    userId: app.userId,
    appId: app.id,
    serviceName: `${app.name} ${version.version}`,
    billType: 1,
    payState: 1,
    payMode: 1,
    cycle: app.paymentCycle,
    periodStart: now,
    periodEnd: new Date(now.getTime() + cycleDays(app.paymentCycle) * DAY),
    createdAt: now,
    deadline: new Date(now.getTime() + PUBLISH_PAYMENT_WINDOW_MS),
    totalCents: amount,
    payCents: amount,
    dedupeKey: `publish:${verId}:${n}`,
  });
  const billRow =
    bill ??
    (
      await tx
        .select()
        .from(bills)
        .where(eq(bills.dedupeKey, `publish:${verId}:${n}`))
    )[0];
  await tx
    .update(appVersions)
    .set({ billId: billRow.id, billState: 1, approvedAt: now })
    .where(eq(appVersions.id, verId));
  await scheduleExpiry(tx, verId, billRow.id, now);
  return billRow;
}

/**
 * Pays the publish bill of a version from the publisher's balance, in the caller's transaction (SPEC §8
 * Payments; ARCHITECTURE house habit 9): locks the version and the bill, posts `bill_payment` through the
 * ledger (insufficient balance → MSG_30001), marks the bill paid (payState 15, BALANCE) and the version
 * (billState 15), applies "pay" (23 → 24; refused with MSG_30006 after the 3 days) and schedules the
 * deploy job. Paying twice pays once: an already paid bill, or the same idempotency key, is a replay.
 * Exported for the generic bill payment of BillDetail, which calls this for publish bills.
 */
export async function payPublishBill(
  tx: Tx,
  input: { userId: number; verId?: number; billId?: number; idempotencyKey: string; now: Date },
): Promise<{ billId: number; replayed: boolean }> {
  let verId = input.verId;
  if (verId === undefined) {
    if (input.billId === undefined) throw new ApiError(Msg.NOT_FOUND);
    const [linked] = await tx
      .select({ id: appVersions.id })
      .from(appVersions)
      .where(eq(appVersions.billId, input.billId));
    if (!linked) throw new ApiError(Msg.BILL_NOT_PAYABLE);
    verId = linked.id;
  }
  const [version] = await tx.select().from(appVersions).where(eq(appVersions.id, verId)).for("update");
  const [app] = version ? await tx.select().from(apps).where(eq(apps.id, version.appId)) : [];
  if (!version || !app || app.userId !== input.userId) throw new ApiError(Msg.NOT_FOUND);
  if (!version.billId || (input.billId !== undefined && input.billId !== version.billId))
    throw new ApiError(Msg.BILL_NOT_PAYABLE);
  const [bill] = await tx.select().from(bills).where(eq(bills.id, version.billId)).for("update");
  if (!bill || bill.userId !== input.userId) throw new ApiError(Msg.NOT_FOUND);
  if (bill.payState === PayState.PAID && version.billState === PayState.PAID)
    return { billId: bill.id, replayed: true };
  const allowed = serviceActions({
    verState: version.verState,
    billState: version.billState,
    verUpable: version.verUpable,
    crossStatus: app.crossStatus,
    freeYN: app.freeYN,
  });
  if (!allowed.has("pay") || (bill.payState !== PayState.UNPAID && bill.payState !== PayState.FAILED)) {
    throw new ApiError(
      version.verState === VerState.TO_BE_PAID ? Msg.BILL_NOT_PAYABLE : Msg.SERVICE_ACTION_NOT_AVAILABLE,
    );
  }
  if (input.now.getTime() > bill.deadline.getTime()) throw new ApiError(Msg.PUBLISH_PAYMENT_EXPIRED);
  if (bill.payCents > 0) {
    await billing.api.post(
      tx,
      {
        userId: input.userId,
        kind: "bill_payment",
        amountCents: bill.payCents,
        refType: "bill",
        refId: bill.id,
        idempotencyKey: input.idempotencyKey,
      },
      input.now,
    );
  }
  await billing.api.markBillPaid(tx, bill.id, input.now);
  await applyTransition(tx, {
    verId,
    event: "pay",
    actor: "publisher",
    actorId: input.userId,
    now: input.now,
    set: { billState: 15 },
  });
  await scheduleDeploy(tx, verId, input.now);
  return { billId: bill.id, replayed: false };
}

/**
 * Billing's settler for publish bills (billing api `settleBillsWith`): a bill that is a version's publish bill
 * is paid here, which also moves the service on (23 → 24) and schedules its deployment.
 */
export const settlePublishBill: BillSettler = async (tx, { userId, billId, idempotencyKey, now }) => {
  const [publish] = await tx.select({ verId: appVersions.id }).from(appVersions).where(eq(appVersions.billId, billId));
  if (!publish) return settleOtherBill(tx, { userId, billId, idempotencyKey, now });
  const paid = await payPublishBill(tx, { userId, billId, idempotencyKey, now });
  const [bill] = await tx.select().from(bills).where(eq(bills.id, paid.billId));
  return {
    billId: bill.id,
    billNo: bill.billNo,
    payState: bill.payState,
    paidCents: bill.payCents,
    replayed: paid.replayed,
  };
};

/** The services' other bills paid from My bills or BillDetail: a renewal (the period moves on) or a config upgrade (its deployment starts). */
const settleOtherBill: BillSettler = async (tx, input) => {
  const renewal = await payRenewal(tx, input);
  if (renewal) {
    if ("refused" in renewal) throw new ApiError(Msg.BILL_NOT_PAYABLE);
    return {
      billId: renewal.bill.id,
      billNo: renewal.bill.billNo,
      payState: renewal.bill.payState,
      paidCents: renewal.bill.payCents,
      replayed: renewal.replayed,
    };
  }
  const [upgrade] = await tx
    .select({ id: configUpgrades.id })
    .from(configUpgrades)
    .where(eq(configUpgrades.billId, input.billId));
  if (!upgrade) return null;
  const paid = await payUpgrade(tx, {
    userId: input.userId,
    billId: input.billId,
    idempotencyKey: input.idempotencyKey,
    now: input.now,
  });
  return {
    billId: paid.bill.id,
    billNo: paid.bill.billNo,
    payState: paid.bill.payState,
    paidCents: paid.bill.payCents,
    replayed: paid.replayed,
  };
};
