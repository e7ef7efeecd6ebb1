import { and, eq, gte, inArray, sql } from "drizzle-orm";
import { PayState } from "#contract/billing.ts";
import { Msg } from "#contract/messages.ts";
import { roleMay, rolesWith } from "#contract/team-roles.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import { actingFor, currentActing, type Acting } from "#backend/http/acting.ts";
import { ApiError } from "#backend/http/errors.ts";
import { teamMembers } from "#backend/domains/accounts/tables.ts";
import inbox from "#backend/domains/inbox/index.ts";
import { usd } from "./rules.ts";
import { bills, ledgerEntries } from "./tables.ts";

/**
 * A member's monthly spending limit (issue 33, docs/decisions/080). A member whose role lacks "pay" (a
 * developer) may charge the account's balance by their own actions up to the limit the owner set for them in
 * a calendar month (UTC); the ledger checks it under the wallet's lock, so two charges at once are counted one
 * after the other. Above it the charge is refused with SPEND_LIMIT_EXCEEDED; a bill that exists on its own
 * (a publish or configuration-upgrade bill) then waits for finance.
 */

/** The first instant of the calendar month (UTC) of `now`. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** What the member's own actions charged the account's balance this month (bill payments they made). */
export async function spentThisMonth(db: Db | Tx, accountId: number, memberId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ spent: sql<string>`coalesce(sum(-${ledgerEntries.balanceDelta}), 0)` })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.userId, accountId),
        eq(ledgerEntries.memberUserId, memberId),
        eq(ledgerEntries.kind, "bill_payment"),
        gte(ledgerEntries.createdAt, monthStart(now)),
      ),
    );
  return Number(row.spent);
}

/** The member's limit in the account (0 when they have no row: a removed member). */
async function limitOf(db: Db | Tx, accountId: number, memberId: number): Promise<number> {
  const [row] = await db
    .select({ limit: teamMembers.spendLimitCents })
    .from(teamMembers)
    .where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.memberId, memberId)));
  return row?.limit ?? 0;
}

/**
 * Called by the ledger for a bill payment, with the wallet locked: the member acting for the account in this
 * call (null for a job or the account's own charge), after refusing a charge above a limited member's limit.
 */
export async function chargingMember(
  tx: Tx,
  posting: { userId: number; amountCents: number; refType: string; refId: number },
  now: Date,
): Promise<Acting | null> {
  const acting = actingFor(posting.userId);
  if (!acting || roleMay(acting.role, "pay")) return acting;
  const [limitCents, spentCents] = await Promise.all([
    limitOf(tx, posting.userId, acting.memberId),
    spentThisMonth(tx, posting.userId, acting.memberId, now),
  ]);
  if (spentCents + posting.amountCents > limitCents)
    throw new ApiError(Msg.SPEND_LIMIT_EXCEEDED, {
      billId: posting.refType === "bill" ? posting.refId : null,
      limitCents,
      spentCents,
      messageParams: { limit: usd(limitCents), spent: usd(spentCents) },
    });
  return acting;
}

/**
 * After a charge was refused above the limit (its transaction rolled back): a bill that still exists unpaid
 * waits for finance, recorded with the member, and the account's members with "pay" get an inbox message.
 * Answers SENT_TO_FINANCE with the bill's number; any other refusal is thrown again as it was.
 */
export async function sendToFinanceOr(db: Db, accountId: number, error: unknown, now: Date): Promise<never> {
  const billId = spendLimitBill(error);
  if (billId === null) throw error;
  const acting = actingFor(accountId);
  const held = await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ waiting: bills.awaitsFinance })
      .from(bills)
      .where(and(eq(bills.id, billId), eq(bills.userId, accountId)))
      .for("update");
    const [bill] = await tx
      .update(bills)
      .set({ awaitsFinance: true, memberUserId: acting?.memberId ?? null })
      .where(
        and(
          eq(bills.id, billId),
          eq(bills.userId, accountId),
          inArray(bills.payState, [PayState.UNPAID, PayState.FAILED]),
        ),
      )
      .returning();
    if (!bill) return null;
    // Asked again while it waits: finance was told already.
    if (before?.waiting) return bill;
    const payers = await tx
      .select({ memberId: teamMembers.memberId })
      .from(teamMembers)
      .where(and(eq(teamMembers.accountId, bill.userId), inArray(teamMembers.role, rolesWith("pay"))));
    const [member] = acting
      ? await tx.select({ userName: users.userName }).from(users).where(eq(users.id, acting.memberId))
      : [];
    await inbox.api.notifyAll(
      tx,
      payers.map((p) => ({
        userId: p.memberId,
        textKey: "messages.billWaitsForFinance",
        params: { billNo: bill.billNo, amount: usd(bill.payCents), member: member?.userName ?? "" },
        ref: { kind: "bill" as const, id: bill.id },
        at: now,
      })),
    );
    return bill;
  });
  if (!held) throw error;
  throw new ApiError(Msg.SENT_TO_FINANCE, {
    billId: held.id,
    billNo: held.billNo,
    messageParams: { billNo: held.billNo },
  });
}

function spendLimitBill(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.messageKey !== Msg.SPEND_LIMIT_EXCEEDED) return null;
  const billId = (error.data as { billId?: unknown } | null)?.billId;
  return typeof billId === "number" ? billId : null;
}

/**
 * The bill's member when it is paid: kept when it was recorded (the member whose action it is for), else the
 * member acting for the bill's account in this call (who paid it); unchanged outside a call.
 */
export function memberOnPayment() {
  const a = currentActing();
  return a
    ? sql`coalesce(${bills.memberUserId}, case when ${bills.userId} = ${a.accountId} then ${a.memberId}::integer end)`
    : sql`${bills.memberUserId}`;
}
