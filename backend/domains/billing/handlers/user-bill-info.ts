import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { PAY_TYPES } from "#contract/payments-codes.ts";
import type { billAppConfigSchema, billPayInfoSchema } from "#contract/bill-info.ts";
import { Msg } from "#contract/messages.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { totalsOf } from "#backend/domains/billing/ledger.ts";
import { isPayable } from "#backend/domains/billing/rules.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { nodeNames } from "./user.ts";

/** The caller's bill, or not found (another user's bill is not found either). */
async function ownBill(ctx: SignedInContext, billId: number) {
  const [bill] = await ctx.deps.db
    .select()
    .from(bills)
    .where(and(eq(bills.id, billId), eq(bills.userId, ctx.user.id)));
  if (!bill) throw new ApiError(Msg.NOT_FOUND);
  return bill;
}

/**
 * /sys/system/clientInfo/h5payInfo (SPEC §7, shape in docs/decisions/063): what paying the bill takes now: the
 * amount due, the balance, the shortfall a recharge must cover, and the ways to pay: BALANCE when it is enough,
 * and the §9 payment types that recharge the shortfall. A bill that cannot be paid now (paid, expired, past its
 * deadline) is due 0 and offers nothing.
 */
export async function billPayInfo(
  input: { billId: number },
  ctx: SignedInContext,
): Promise<z.output<typeof billPayInfoSchema>> {
  const bill = await ownBill(ctx, input.billId);
  const { balanceCents } = await totalsOf(ctx.deps.db, ctx.user.id);
  const payable = isPayable(bill, ctx.deps.now());
  const amountDueCents = payable ? bill.payCents : 0;
  const shortfallCents = Math.max(0, amountDueCents - balanceCents);
  return {
    billId: bill.id,
    billNo: bill.billNo,
    payState: bill.payState,
    payable,
    amountDueCents,
    balanceCents,
    shortfallCents,
    deadline: bill.deadline.toISOString(),
    methods: !payable ? [] : shortfallCents === 0 ? ["BALANCE"] : [...PAY_TYPES],
  };
}

/**
 * /sys/system/clientInfo/selectBillAppConfig (SPEC §7, shape in docs/decisions/063): the service configuration
 * the bill charges, from the bill itself (what was charged, not what the service has now): per city node its
 * TPS, capacity and peers, the node count, the period and cycle. A bill that charges no configuration (usage,
 * recharge) answers no nodes.
 */
export async function billAppConfig(
  input: { billId: number },
  ctx: SignedInContext,
): Promise<z.output<typeof billAppConfigSchema>> {
  const bill = await ownBill(ctx, input.billId);
  const resources = bill.detail.resources ?? [];
  const names = await nodeNames(
    ctx.deps.db,
    resources.map((r) => r.nodeCode),
    ctx.language,
  );
  return {
    billId: bill.id,
    billNo: bill.billNo,
    billType: bill.billType,
    appId: bill.appId,
    serviceName: bill.serviceName,
    cycle: bill.cycle,
    periodStart: bill.periodStart.toISOString(),
    periodEnd: bill.periodEnd.toISOString(),
    nodes: resources.map((r) => ({
      nodeCode: r.nodeCode,
      nodeName: names.get(r.nodeCode) ?? r.nodeCode,
      tps: r.tps,
      capacityGb: r.capacityGb,
      peers: r.peers,
    })),
    nodeCount: bill.detail.nodeCount ?? (resources.length || null),
    hostConfiguration: bill.detail.hostConfiguration ?? null,
    dataCapacityGb: bill.detail.dataCapacityGb ?? null,
  };
}
