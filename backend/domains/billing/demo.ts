import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import { BillType, PayState } from "#contract/billing.ts";
import { isBankTransfer } from "#contract/payments-codes.ts";
import type { Tx } from "#backend/db/client.ts";
import type { DemoTimeline } from "#backend/kit/demo-timeline.ts";
import type { DemoSeeder } from "#backend/kit/domain.ts";
import { bills, type BillDetail } from "./tables.ts";
import { recordTraffic } from "./meter.ts";
import { cityNodes } from "#backend/db/tables.ts";
import type { payments, withdrawals } from "#backend/domains/payments/tables.ts";
import { post } from "./ledger.ts";
import { createTrafficBill, weeklyUsage } from "./jobs.ts";
import { newBillNo } from "./rules.ts";
import { addDays, dayOf, DAY_MS, lastCompletedWeekStart, weekEnd } from "./time.ts";
import { PROFILES, addWorkingDays, ago, resources, sum, type Node, type Profile } from "./demo-profiles.ts";

/** The payments domain's writes of its demo records; it hands them over at start (billing may not import it). */
export type DemoPaymentRecords = {
  recordPaidRecharge: (tx: Tx, recharge: typeof payments.$inferInsert) => Promise<typeof payments.$inferSelect>;
  recordReviewedWithdrawal: (
    tx: Tx,
    withdrawal: typeof withdrawals.$inferInsert,
  ) => Promise<typeof withdrawals.$inferSelect>;
};
let paymentRecords: DemoPaymentRecords | undefined;

/** Called by the payments domain at start: the demo accounts' recharges and withdrawals are written through it. */
export function seedDemoPaymentsWith(records: DemoPaymentRecords): void {
  paymentRecords = records;
}

function demoPayments(): DemoPaymentRecords {
  if (!paymentRecords) throw new Error("the payments domain has not started: no demo recharges and withdrawals");
  return paymentRecords;
}

/**
 * Demo money, usage and bills for demoperson and democompany (backend/seed.ts). Money moves only
 * through the ledger, in time order, so the transaction inquiry reads like a real account: a welcome
 * grant, card recharges, bill payments, a partial refund and a withdrawal. Bills cover every category of
 * §9 and every state of §4 a user meets; weekly traffic bills are made from the usage by the job's code.
 */
async function seedUser(
  tx: Tx,
  userId: number,
  p: Profile,
  nodes: Node[],
  now: Date,
  operatorId: number | null,
  timeline: DemoTimeline,
) {
  // Ledger operations, run in time order with every other domain's (backend/kit/demo-timeline.ts).
  const ledger = (at: Date, run: (tx: Tx) => Promise<unknown>) => timeline.later(at, run);

  ledger(ago(now, 60), (tx) =>
    post(tx, { userId, kind: "grant", amountCents: p.grantCents, refType: "grant", refId: userId }, ago(now, 60)),
  );
  for (const r of p.recharges) {
    const at = ago(now, r.daysAgo);
    const paymentNo = newBillNo(at, "P");
    // Bank transfers (docs/decisions/072): net banking quotes its payment number, a remittance the bank's reference.
    const payment = await demoPayments().recordPaidRecharge(tx, {
      paymentNo,
      userId,
      amountCents: r.cents,
      payType: r.payType,
      status: PayState.PAID,
      provider: isBankTransfer(r.payType) ? null : "sandbox",
      remittanceRef:
        r.payType === "GT0004" ? `REM${randomInt(100_000, 999_999)}` : r.payType === "GT0003" ? paymentNo : null,
      createdAt: at,
      expiresAt: new Date(at.getTime() + 30 * 60_000),
      paidAt: new Date(at.getTime() + 3 * 60_000),
    });
    ledger(payment.paidAt!, (tx) =>
      post(
        tx,
        {
          userId,
          kind: "recharge",
          amountCents: r.cents,
          refType: "payment",
          refId: payment.id,
          idempotencyKey: `payment:${payment.id}`,
        },
        payment.paidAt!,
      ),
    );
  }

  type BillSpec = {
    daysAgo: number;
    billType: number;
    serviceName: string;
    cycle: 1 | 2 | 99;
    detail: BillDetail;
    /** paid: paid a few hours after creation; unpaid: due in the future; expired: never paid. */
    state: "paid" | "unpaid" | "expired";
    refundCents?: number;
  };
  const svc = p.service;
  const monthly = resources(nodes, svc.nodes, svc.tps, svc.capacityGb, 2);
  const specs: BillSpec[] = [
    { daysAgo: 55, billType: BillType.PUBLISH, serviceName: svc.name, cycle: 2, detail: monthly, state: "paid" },
    { daysAgo: 25, billType: BillType.PUBLISH, serviceName: svc.name, cycle: 2, detail: monthly, state: "paid" },
    {
      daysAgo: 44,
      billType: BillType.CONFIG_UPGRADE,
      serviceName: svc.name,
      cycle: 2,
      detail: resources(nodes, svc.nodes.slice(0, 2), Math.round(svc.tps / 2), svc.capacityGb, 2),
      state: "paid",
    },
    {
      daysAgo: 40,
      billType: BillType.IPFS,
      serviceName: "IPFS storage",
      cycle: 2,
      detail: {
        dataCapacityGb: p.extraBills ? 500 : 100,
        cloudPlatform: "Alibaba Cloud",
        region: "Hong Kong",
        nodeCount: 1,
      },
      state: "paid",
    },
    {
      daysAgo: 20,
      billType: BillType.PUBLISH,
      serviceName: "Digital archive notary",
      cycle: 2,
      detail: resources(nodes, svc.nodes.slice(0, 1), 10, 5, 2),
      state: "expired",
    },
    {
      daysAgo: 16,
      billType: BillType.PUBLISH,
      serviceName: "Carbon credit registry",
      cycle: 2,
      detail: resources(nodes, svc.nodes.slice(0, 2), 10, 10, 2),
      state: "paid",
      refundCents: 1_500,
    },
    {
      daysAgo: 1,
      billType: BillType.PUBLISH,
      serviceName: "Digital identity service",
      cycle: 2,
      detail: resources(nodes, svc.nodes, Math.round(svc.tps / 4), 10, 2),
      state: "unpaid",
    },
  ];
  if (p.extraBills) {
    const crossChain = (gb: number) => ({
      dataUsage: [{ nodeCode: "CN-BJ-01", usedGb: gb, pricePerGbCents: 12, amountCents: Math.round(gb * 12) }],
      nodeCount: 2,
      region: "China",
    });
    specs.push(
      {
        daysAgo: 50,
        billType: BillType.CROSS_CHAIN,
        serviceName: `${svc.name} ⇄ Logistics chain`,
        cycle: 99,
        detail: crossChain(180),
        state: "paid",
      },
      {
        daysAgo: 36,
        billType: BillType.CROSS_CHAIN,
        serviceName: `${svc.name} ⇄ Logistics chain`,
        cycle: 99,
        detail: crossChain(240),
        state: "paid",
      },
      {
        daysAgo: 30,
        billType: BillType.DEDICATED_NODE,
        serviceName: "prodnodes",
        cycle: 2,
        detail: {
          ...resources(nodes, ["SG-01"], 50, 200, 2),
          nodeCount: 4,
          hostConfiguration: "4 vCPU · 16 GB RAM · 200 GB SSD",
          dataCapacityGb: 200,
          cloudPlatform: "Google Cloud",
          region: "Singapore (asia-southeast1)",
        },
        state: "paid",
      },
      {
        daysAgo: 27,
        billType: BillType.ASSIGN_GAS,
        serviceName: "Open alliance chain · wallet-ops",
        cycle: 2,
        detail: {},
        state: "paid",
      },
      {
        daysAgo: 9,
        billType: BillType.MINT_DDC,
        serviceName: "Open alliance chain · ddc-mint",
        cycle: 2,
        detail: {},
        state: "paid",
      },
      {
        daysAgo: 2,
        billType: BillType.CONFIG_UPGRADE,
        serviceName: svc.name,
        cycle: 1,
        detail: resources(nodes, svc.nodes.slice(0, 1), 20, 20, 1),
        state: "unpaid",
      },
    );
  }
  const flatCents: Partial<Record<number, number>> = {
    [BillType.ASSIGN_GAS]: 4_000,
    [BillType.MINT_DDC]: 1_250,
    [BillType.IPFS]: p.extraBills ? 9_000 : 1_800,
  };

  for (const s of specs) {
    const createdAt = ago(now, s.daysAgo, -2);
    const total = flatCents[s.billType] ?? sum(s.detail);
    const periodDays = s.cycle === 99 ? 7 : s.cycle === 2 ? 30 : 365;
    const deadline = new Date(createdAt.getTime() + 3 * DAY_MS);
    const [bill] = await tx
      .insert(bills)
      .values({
        billNo: newBillNo(createdAt),
        userId,
        appId: s.billType === BillType.PUBLISH || s.billType === BillType.CONFIG_UPGRADE ? svc.appId : null,
        serviceName: s.serviceName,
        billType: s.billType,
        payState: s.state === "expired" ? PayState.EXPIRED : PayState.UNPAID,
        payMode: s.cycle === 99 ? 2 : 1,
        cycle: s.cycle,
        periodStart: createdAt,
        periodEnd: new Date(createdAt.getTime() + periodDays * DAY_MS),
        createdAt,
        deadline,
        releaseTime: s.state === "expired" ? deadline : null,
        totalCents: total,
        payCents: total,
        detail: s.detail,
      })
      .returning();
    if (s.state !== "paid") continue;
    const paidAt = new Date(createdAt.getTime() + 2 * 3_600_000);
    ledger(paidAt, async (tx) => {
      await post(
        tx,
        {
          userId,
          kind: "bill_payment",
          amountCents: total,
          refType: "bill",
          refId: bill.id,
          idempotencyKey: `billpay:demo-${bill.id}`,
        },
        paidAt,
      );
      await tx.update(bills).set({ payState: PayState.PAID, payType: "BALANCE", paidAt }).where(eq(bills.id, bill.id));
    });
    if (s.refundCents) {
      const refundAt = new Date(paidAt.getTime() + 4 * DAY_MS);
      ledger(refundAt, async (tx) => {
        await post(
          tx,
          { userId, kind: "refund", amountCents: s.refundCents!, refType: "bill", refId: bill.id },
          refundAt,
        );
        await tx
          .update(bills)
          .set({ payState: PayState.PARTLY_REFUNDED, refundNo: newBillNo(refundAt, "R"), refundCents: s.refundCents! })
          .where(eq(bills.id, bill.id));
      });
    }
  }

  // 30 days of traffic (today not yet counted), varying by day and node.
  const today = dayOf(now);
  const codes = Object.keys(p.usage);
  for (let i = 1; i <= 30; i++) {
    const day = addDays(today, -i);
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    for (const [k, code] of codes.entries()) {
      const node = nodes.find((n) => n.code === code)!;
      const wave = 1 + 0.35 * Math.sin(i / 3 + k);
      const weekend = weekday === 0 || weekday === 6 ? 0.6 : 1;
      // Through the meter's own write (docs/decisions/057): a third in, the rest out, as the doors count it.
      const bytes = Math.round(p.usage[code] * wave * weekend) * 1024 * 1024;
      const bytesIn = Math.round(bytes / 3);
      await recordTraffic(tx, [
        {
          key: { userId, day, cityNodeId: node.id, appId: 0, joinId: 0, callerId: null, method: "" },
          counts: { calls: Math.round(bytes / 4096), bytesIn, bytesOut: bytes - bytesIn },
        },
      ]);
    }
  }
  // Weekly traffic bills of the completed weeks, made as the job makes them; all paid but the last.
  const lastWeek = lastCompletedWeekStart(now);
  const weeks = [3, 2, 1, 0].map((w) => addDays(lastWeek, -7 * w)).filter((w) => addDays(w, 6) >= addDays(today, -30));
  for (const [i, weekStart] of weeks.entries()) {
    const lines = (await weeklyUsage(tx, weekStart, [userId])).get(userId);
    const madeAt = new Date(weekEnd(weekStart).getTime() + 3_600_000);
    const bill = lines ? await createTrafficBill(tx, userId, weekStart, lines, madeAt) : null;
    if (!bill || i === weeks.length - 1) continue;
    const paidAt = new Date(madeAt.getTime() + 2 * DAY_MS);
    ledger(paidAt, async (tx) => {
      await post(
        tx,
        {
          userId,
          kind: "bill_payment",
          amountCents: bill.payCents,
          refType: "bill",
          refId: bill.id,
          idempotencyKey: `billpay:demo-${bill.id}`,
        },
        paidAt,
      );
      await tx.update(bills).set({ payState: PayState.PAID, payType: "BALANCE", paidAt }).where(eq(bills.id, bill.id));
    });
  }

  if (p.withdrawalCents > 0) {
    const at = ago(now, 8);
    const w = await demoPayments().recordReviewedWithdrawal(tx, {
      withdrawalNo: newBillNo(at, "W"),
      userId,
      amountCents: p.withdrawalCents,
      state: 10,
      createdAt: at,
      reviewedBy: operatorId,
      reviewedAt: new Date(at.getTime() + DAY_MS),
      expectedArrival: addWorkingDays(dayOf(new Date(at.getTime() + DAY_MS)), 7),
    });
    ledger(at, (tx) =>
      post(
        tx,
        { userId, kind: "withdrawal_hold", amountCents: p.withdrawalCents, refType: "withdrawal", refId: w.id },
        at,
      ),
    );
  }
}

export const seedBillingDemo: DemoSeeder = async ({ db }, users, now, timeline) => {
  const nodes = await db.select().from(cityNodes);
  for (const [userName, profile] of Object.entries(PROFILES)) {
    const userId = users[userName];
    if (userId === undefined) continue;
    await db.transaction((tx) => seedUser(tx, userId, profile, nodes, now, users.demooperator ?? null, timeline));
  }
};
