import { and, count, eq, inArray, isNull } from "drizzle-orm";
import { BANK_TRANSFER_PAY_TYPES, PaymentStatus, WithdrawalState } from "#contract/payments.ts";
import type { Db } from "#backend/db/client.ts";
import { paymentReviews, payments, withdrawals } from "./tables.ts";

/** Waiting items of this domain's operations queues (the same conditions as their lists' default view). */
export async function paymentsWaiting(db: Db) {
  const [[remittances], [withdrawalsWaiting], [reviews]] = await Promise.all([
    db
      .select({ n: count() })
      .from(payments)
      .where(
        and(inArray(payments.payType, [...BANK_TRANSFER_PAY_TYPES]), eq(payments.status, PaymentStatus.IN_PAYMENT)),
      ),
    db
      .select({ n: count() })
      .from(withdrawals)
      .where(inArray(withdrawals.state, [WithdrawalState.PENDING, WithdrawalState.APPROVED])),
    db.select({ n: count() }).from(paymentReviews).where(isNull(paymentReviews.decision)),
  ]);
  return { Remittances: remittances.n, Withdrawals: withdrawalsWaiting.n, PaymentReviews: reviews.n };
}
