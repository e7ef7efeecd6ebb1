import { and, asc, eq, or } from "drizzle-orm";
import {
  BREAKDOWN_LIMIT,
  type BillBreakdown,
  type BreakdownKind,
  type BreakdownLine,
} from "#contract/bill-breakdown.ts";
import { BillType, ONE_OFF_BILL_TYPES } from "#contract/billing-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { crossChainCalls } from "#backend/domains/cross-chain/tables.ts";
import { ddcs, ddcTransfers } from "#backend/domains/ddc/tables.ts";
import { ipfsServices, ipfsUpgrades } from "#backend/domains/ipfs/tables.ts";
import { pubChainAccounts, pubChainGas } from "#backend/domains/public-chain/tables.ts";
import { apps } from "#backend/domains/services/tables.ts";
import { bills } from "./tables.ts";
import { dayOf } from "./time.ts";
import { adjustment, EMPTY_LINE, usageLines } from "./breakdown-usage.ts";

/**
 * /sys/system/clientInfo/billBreakdown (issue 35 §3, docs/decisions/093): the lines of one of the caller's bills,
 * adding up to its amount to the cent. Usage bills list the usage rows they charge (breakdown-usage.ts); a
 * cross-chain bill its calls; a one-off bill its one cause (gas → its transfer's hash, a DDC → its token and
 * hash); a bill for a period its period at its price. Another account's bill is not found, like an unknown id.
 */

type Bill = typeof bills.$inferSelect;

/** A bill's one line for one thing: all of its amount. */
const single = (bill: Bill, kind: BreakdownKind, more: Partial<BreakdownLine> = {}): BreakdownLine => ({
  ...EMPTY_LINE,
  kind,
  day: dayOf(bill.createdAt),
  subject: bill.serviceName || null,
  ...more,
  amountCents: bill.totalCents,
});

/** A cross-chain bill: each call it counted, at the fee the call kept (cross-chain/billing.ts). */
async function crossChainLines(db: Db | Tx, bill: Bill): Promise<BreakdownLine[]> {
  const calls = await db
    .select({
      id: crossChainCalls.id,
      appId: crossChainCalls.appId,
      app: apps.name,
      sourceChain: crossChainCalls.sourceChain,
      targetChain: crossChainCalls.targetChain,
      sourceTxHash: crossChainCalls.sourceTxHash,
      deliveredAt: crossChainCalls.deliveredAt,
      createdAt: crossChainCalls.createdAt,
      feeCents: crossChainCalls.feeCents,
    })
    .from(crossChainCalls)
    .leftJoin(apps, eq(apps.id, crossChainCalls.appId))
    .where(and(eq(crossChainCalls.billId, bill.id), eq(crossChainCalls.userId, bill.userId)))
    .orderBy(asc(crossChainCalls.deliveredAt), asc(crossChainCalls.id));
  const lines: BreakdownLine[] = calls.map((c) => ({
    ...EMPTY_LINE,
    kind: "crossChainCall",
    day: dayOf(c.deliveredAt ?? c.createdAt),
    place: `${c.sourceChain} → ${c.targetChain}`,
    subject: c.app,
    calls: 1,
    unitPriceCents: c.feeCents,
    txHash: c.sourceTxHash,
    ref: { kind: "crossChainCall", appId: c.appId, callId: c.id },
    amountCents: c.feeCents,
  }));
  const rest = bill.totalCents - lines.reduce((s, l) => s + l.amountCents, 0);
  return rest === 0 ? lines : [...lines, adjustment("unitemised", rest)];
}

async function gasLine(db: Db | Tx, bill: Bill): Promise<BreakdownLine> {
  const [gas] = await db
    .select({ txHash: pubChainGas.txHash, account: pubChainAccounts.name, address: pubChainAccounts.address })
    .from(pubChainGas)
    .innerJoin(pubChainAccounts, eq(pubChainAccounts.id, pubChainGas.accountId))
    .where(and(eq(pubChainGas.billId, bill.id), eq(pubChainGas.userId, bill.userId)));
  return single(bill, "gas", gas ? { subject: gas.account, place: gas.address, txHash: gas.txHash } : {});
}

async function ddcLine(db: Db | Tx, bill: Bill): Promise<BreakdownLine> {
  if (bill.billType === BillType.MINT_DDC) {
    const [ddc] = await db
      .select({ id: ddcs.id, name: ddcs.name, txHash: ddcs.mintTxHash })
      .from(ddcs)
      .where(and(eq(ddcs.billId, bill.id), eq(ddcs.userId, bill.userId)));
    return single(
      bill,
      "ddcMint",
      ddc ? { subject: ddc.name, txHash: ddc.txHash, ref: { kind: "ddc", ddcId: ddc.id } } : {},
    );
  }
  const [sent] = await db
    .select({ id: ddcs.id, name: ddcs.name, txHash: ddcTransfers.txHash, to: ddcTransfers.toAddress })
    .from(ddcTransfers)
    .innerJoin(ddcs, eq(ddcs.id, ddcTransfers.ddcId))
    .where(and(eq(ddcTransfers.billId, bill.id), eq(ddcTransfers.userId, bill.userId)));
  return single(
    bill,
    "ddcTransfer",
    sent ? { subject: sent.name, place: sent.to, txHash: sent.txHash, ref: { kind: "ddc", ddcId: sent.id } } : {},
  );
}

/** The IPFS service a prepaid IPFS bill (a purchase or a capacity upgrade) is for. */
async function ipfsServiceOf(db: Db | Tx, bill: Bill): Promise<number | null> {
  const [row] = await db
    .select({ id: ipfsServices.id })
    .from(ipfsServices)
    .leftJoin(ipfsUpgrades, eq(ipfsUpgrades.serviceId, ipfsServices.id))
    .where(
      and(eq(ipfsServices.userId, bill.userId), or(eq(ipfsServices.billId, bill.id), eq(ipfsUpgrades.billId, bill.id))),
    )
    .limit(1);
  return row?.id ?? null;
}

/** A bill for a period of something (a service, a renewal, an upgrade, a node, a plan, IPFS capacity). */
async function periodLine(db: Db | Tx, bill: Bill): Promise<BreakdownLine> {
  const ipfsServiceId = bill.billType === BillType.IPFS ? await ipfsServiceOf(db, bill) : null;
  return single(bill, "period", {
    day: null,
    periodStart: bill.periodStart.toISOString(),
    periodEnd: bill.periodEnd.toISOString(),
    cycle: bill.cycle,
    ref:
      ipfsServiceId !== null
        ? { kind: "ipfsService", ipfsServiceId }
        : bill.appId !== null && bill.appId > 0
          ? { kind: "service", appId: bill.appId }
          : null,
  });
}

/** The lines of a bill, by what it charges; they add up to its amount. */
export async function linesOf(
  db: Db | Tx,
  bill: Bill,
  language: SignedInContext["language"],
): Promise<BreakdownLine[]> {
  const usage = bill.payMode === 2;
  if (usage && bill.billType === BillType.CROSS_CHAIN) return crossChainLines(db, bill);
  if (usage && (bill.billType === BillType.DATA_TRAFFIC || bill.billType === BillType.IPFS))
    return usageLines(db, bill, language, bill.billType === BillType.IPFS);
  if (usage) return [adjustment("unitemised", bill.totalCents)];
  if (bill.billType === BillType.ASSIGN_GAS) return [await gasLine(db, bill)];
  if (bill.billType === BillType.MINT_DDC || bill.billType === BillType.TRANSFER_DDC) return [await ddcLine(db, bill)];
  if (ONE_OFF_BILL_TYPES.includes(bill.billType)) return [single(bill, "charge")];
  return [await periodLine(db, bill)];
}

/** At most BREAKDOWN_LIMIT lines: the rest summed into one `unitemised` line, so the total still adds up. */
function capped(lines: BreakdownLine[]): { lines: BreakdownLine[]; truncated: boolean } {
  if (lines.length <= BREAKDOWN_LIMIT) return { lines, truncated: false };
  const kept = lines.slice(0, BREAKDOWN_LIMIT - 1);
  const rest = lines.slice(BREAKDOWN_LIMIT - 1).reduce((s, l) => s + l.amountCents, 0);
  return { lines: [...kept, adjustment("unitemised", rest)], truncated: true };
}

export async function billBreakdown(
  input: { billId: number },
  { deps, user, language }: SignedInContext,
): Promise<BillBreakdown> {
  const [bill] = await deps.db
    .select()
    .from(bills)
    .where(and(eq(bills.id, input.billId), eq(bills.userId, user.id)));
  if (!bill) throw new ApiError(Msg.NOT_FOUND);
  return {
    billId: bill.id,
    billNo: bill.billNo,
    billType: bill.billType,
    serviceName: bill.serviceName,
    totalCents: bill.totalCents,
    periodStart: bill.periodStart.toISOString(),
    periodEnd: bill.periodEnd.toISOString(),
    ...capped(await linesOf(deps.db, bill, language)),
  };
}
