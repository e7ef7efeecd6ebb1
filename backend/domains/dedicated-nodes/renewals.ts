import { and, eq, isNotNull, isNull, lte } from "drizzle-orm";
import { PayState } from "#contract/billing-codes.ts";
import { PRN_BILL_TYPE, PrnStatus } from "#contract/dedicated-nodes-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Deps } from "#backend/deps.ts";
import { schedule } from "#backend/jobs/runner.ts";
import { hourlyJob, scheduleHourly } from "#backend/kit/hourly.ts";
import type { BillSettler } from "#backend/domains/billing/index.ts";
import billing from "#backend/domains/billing/index.ts";
import { prnProjectMachine } from "./machine.ts";
import { periodCents, periodEndOf } from "./rules.ts";
import { priceBook } from "./prices.ts";
import { prnProjects } from "./tables.ts";
import { JOB_PURGE, JOB_RENEWALS, JOB_RESUME, projectById, stopNetwork, tell, usd } from "./job-kinds.ts";

/** Charges the next period of one running project whose period has ended; true when its nodes must stop. */
async function renewInTx(tx: Tx, id: number, now: Date): Promise<boolean> {
  const p = await projectById(tx, id, true);
  if (!p || p.status !== PrnStatus.RUNNING || p.renewalBillId !== null || p.periodEnd.getTime() > now.getTime())
    return false;
  const start = p.periodEnd;
  const end = periodEndOf(start, p.cycle);
  // The renewal is charged at the operators' current prices (docs/decisions/073).
  const cents = periodCents(p, p.cycle, await priceBook(tx)) ?? p.priceCents;
  const charged = await billing.api.chargeRenewal(
    tx,
    {
      billNo: billing.api.newBillNo(now, "DR"),
      userId: p.userId,
      serviceName: `${p.name} · ${p.nodeCount} × ${p.hostConfig}`,
      billType: PRN_BILL_TYPE,
      payState: PayState.UNPAID,
      payMode: 1,
      cycle: p.cycle,
      periodStart: start,
      periodEnd: end,
      createdAt: now,
      // Unpaid, it blocks payType 2 until the end of the period it would pay for; then the project lapses.
      deadline: end,
      totalCents: cents,
      payCents: cents,
      detail: {
        nodeCount: p.nodeCount,
        hostConfiguration: p.hostConfig,
        dataCapacityGb: p.dataCapacityGb,
        cloudPlatform: p.cloud,
      },
      dedupeKey: `prn-renewal:${p.id}:${start.toISOString()}`,
    },
    "prn-renewal",
    now,
  );
  if (!charged) return false;
  const { bill } = charged;
  if (charged.paid) {
    await tx
      .update(prnProjects)
      .set({ periodStart: start, periodEnd: end, priceCents: cents, updatedAt: now })
      .where(eq(prnProjects.id, p.id));
    await tell(tx, p.userId, "renewalPaid", { name: p.name, amount: usd(cents), until: end.toISOString() }, now);
    return false;
  }
  await tx
    .update(prnProjects)
    .set({ renewalBillId: bill.id, suspended: true, failReason: null, updatedAt: now })
    .where(eq(prnProjects.id, p.id));
  await tell(
    tx,
    p.userId,
    "renewalUnpaid",
    { name: p.name, billNo: bill.billNo, amount: usd(cents), deadline: bill.deadline.toISOString() },
    now,
  );
  return true;
}

/** A suspended project whose renewal bill was not paid by its deadline lapses: 3 → 6, its data removed now. */
async function lapseInTx(tx: Tx, id: number, now: Date): Promise<boolean> {
  const p = await projectById(tx, id, true);
  if (!p?.renewalBillId || p.status !== PrnStatus.RUNNING) return false;
  const bill = await billing.api.lapsedRenewalBill(tx, p.renewalBillId, now);
  if (!bill) return false;
  if (bill.payState !== PayState.EXPIRED) await billing.api.expireBill(tx, bill.id, now);
  const to = prnProjectMachine.transition(p.status, "lapse", "system");
  if (!to.ok) return false;
  await tx
    .update(prnProjects)
    .set({ status: to.to, renewalBillId: null, purgeAt: now, updatedAt: now })
    .where(eq(prnProjects.id, p.id));
  await tell(tx, p.userId, "lapsed", { name: p.name, billNo: bill.billNo }, now);
  await schedule(
    tx,
    JOB_PURGE,
    { projectId: p.id },
    { runAt: now, dedupeKey: `${JOB_PURGE}:${p.id}:${now.toISOString()}` },
  );
  return true;
}

/** The renewal sweep; returns what it did, for tests. */
export async function sweepRenewals(deps: Deps, now: Date) {
  let renewed = 0;
  let stopped = 0;
  let lapsed = 0;
  // A server that was down renews period after period until it reaches now.
  for (let round = 0; round < 60; round += 1) {
    const due = await deps.db
      .select({ id: prnProjects.id })
      .from(prnProjects)
      .where(
        and(
          eq(prnProjects.status, PrnStatus.RUNNING),
          lte(prnProjects.periodEnd, now),
          isNull(prnProjects.renewalBillId),
        ),
      );
    if (!due.length) break;
    for (const { id } of due) {
      const stop = await deps.db.transaction((tx) => renewInTx(tx, id, now));
      if (stop) {
        stopped += 1;
        const p = await projectById(deps.db, id);
        if (p) await stopNetwork(deps, p);
      } else renewed += 1;
    }
  }
  const suspended = await deps.db
    .select({ id: prnProjects.id })
    .from(prnProjects)
    .where(and(eq(prnProjects.status, PrnStatus.RUNNING), isNotNull(prnProjects.renewalBillId)));
  for (const { id } of suspended) if (await deps.db.transaction((tx) => lapseInTx(tx, id, now))) lapsed += 1;
  return { renewed, stopped, lapsed };
}

export const scheduleRenewals = (db: Db | Tx, at: Date) => scheduleHourly(db, JOB_RENEWALS, at);

export const runRenewals = hourlyJob(JOB_RENEWALS, sweepRenewals);

/**
 * Billing's settler for renewal bills paid late (My bills, BillDetail): the bill paid, the period moved on, the
 * project no longer suspended, and the resume job restarts its nodes. Null when the bill is not one of ours.
 */
export const settleRenewalBill: BillSettler = async (tx, input) => {
  const [p] = await tx.select().from(prnProjects).where(eq(prnProjects.renewalBillId, input.billId)).for("update");
  if (!p) return null;
  if (p.userId !== input.userId) return null;
  const paying = await billing.api.payRenewalBill(tx, input);
  if (!paying) return null;
  const { bill } = paying;
  if (paying.replayed)
    return { billId: bill.id, billNo: bill.billNo, payState: bill.payState, paidCents: bill.payCents, replayed: true };
  if (paying.refused) throw new ApiError(Msg.BILL_NOT_PAYABLE, { payState: bill.payState });
  await tx
    .update(prnProjects)
    .set({
      periodStart: bill.periodStart,
      periodEnd: bill.periodEnd,
      renewalBillId: null,
      suspended: false,
      updatedAt: input.now,
    })
    .where(eq(prnProjects.id, p.id));
  await schedule(
    tx,
    JOB_RESUME,
    { projectId: p.id },
    { runAt: input.now, dedupeKey: `${JOB_RESUME}:${p.id}:${bill.id}` },
  );
  await tell(
    tx,
    p.userId,
    "resumed",
    { name: p.name, billNo: bill.billNo, until: bill.periodEnd.toISOString() },
    input.now,
  );
  return { billId: bill.id, billNo: bill.billNo, payState: bill.payState, paidCents: bill.payCents, replayed: false };
};
