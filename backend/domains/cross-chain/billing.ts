import { and, eq, gte, inArray, isNull, lt, sql } from "drizzle-orm";
import { CrossCallStatus } from "#contract/cross-chain-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { callPriceCents } from "./prices.ts";
import { crossChainCalls } from "./tables.ts";

/** One line of a weekly cross-chain bill: a source chain's successful calls of the week at the unit price. */
export type CrossChainLine = { sourceChain: string; calls: number; unitPriceCents: number; amountCents: number };

/**
 * SPEC §9 "Cross-chain call unit price is per call, billed weekly to the source chain" (docs/decisions/048): each
 * owner's successful calls delivered in [start, end), by source chain. Calls already counted by a bill are left out.
 */
export async function weeklyCrossChainCalls(
  db: Db | Tx,
  start: Date,
  end: Date,
  userIds?: number[],
): Promise<Map<number, CrossChainLine[]>> {
  const conditions = [
    eq(crossChainCalls.status, CrossCallStatus.SUCCESS),
    gte(crossChainCalls.deliveredAt, start),
    lt(crossChainCalls.deliveredAt, end),
    isNull(crossChainCalls.billId),
  ];
  if (userIds) conditions.push(inArray(crossChainCalls.userId, userIds));
  const rows = await db
    .select({
      userId: crossChainCalls.userId,
      sourceChain: crossChainCalls.sourceChain,
      calls: sql<number>`count(*)::int`,
      cents: sql<number>`sum(${crossChainCalls.feeCents})::int`,
    })
    .from(crossChainCalls)
    .where(and(...conditions))
    .groupBy(crossChainCalls.userId, crossChainCalls.sourceChain)
    .orderBy(crossChainCalls.userId, crossChainCalls.sourceChain);
  const out = new Map<number, CrossChainLine[]>();
  const current = rows.length ? await callPriceCents(db) : 0;
  for (const r of rows) {
    // Each call keeps the fee of when it was delivered; the line's unit price is theirs when they agree.
    const calls = Number(r.calls);
    const cents = Number(r.cents);
    const lines = out.get(r.userId) ?? [];
    lines.push({
      sourceChain: r.sourceChain,
      calls,
      unitPriceCents: calls > 0 && cents % calls === 0 ? cents / calls : current,
      amountCents: cents,
    });
    out.set(r.userId, lines);
  }
  return out;
}

/** Marks the calls a bill counted (the same window and owner), so that no call is billed twice. */
export async function markBilled(tx: Tx, userId: number, start: Date, end: Date, billId: number) {
  await tx
    .update(crossChainCalls)
    .set({ billId })
    .where(
      and(
        eq(crossChainCalls.userId, userId),
        eq(crossChainCalls.status, CrossCallStatus.SUCCESS),
        gte(crossChainCalls.deliveredAt, start),
        lt(crossChainCalls.deliveredAt, end),
        isNull(crossChainCalls.billId),
      ),
    );
}
