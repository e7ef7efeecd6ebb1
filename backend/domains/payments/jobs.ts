import { eq } from "drizzle-orm";
import { isBankTransfer, PaymentStatus } from "#contract/payments.ts";
import type { Db } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { type JobEntry, type JobHandler, type JobOwner } from "#backend/jobs/runner.ts";
import { providerFor } from "./provider.ts";
import { type PaymentRow } from "./records.ts";
import { applyCheckoutState, expirePayment, reviewOf } from "./settle.ts";
import { payments } from "./tables.ts";

/** SPEC §4 "Status refreshes within 10 minutes after payment": the provider is asked after 5 and 10 minutes. */
export const POLL_AFTER_MINUTES = [5, 10];

/** Asks the provider about one payment still in payment and applies a final answer. */
export async function refreshFromProvider(services: Deps, payment: PaymentRow) {
  if (payment.status !== PaymentStatus.IN_PAYMENT || isBankTransfer(payment.payType) || !payment.providerRef) return;
  // Held for an operator: neither the provider nor the clock decides it any more.
  if (await reviewOf(services.db, payment.id)) return;
  const provider = providerFor(services);
  const overdue = payment.expiresAt.getTime() <= services.now().getTime();
  const state = overdue
    ? await provider.expireCheckout(payment.providerRef)
    : await provider.fetchStatus(payment.providerRef);
  if (state && state.status !== "open") {
    await services.db.transaction((tx) =>
      applyCheckoutState(tx, services, state, { provider: provider.name, eventId: null }),
    );
  } else if (!state && overdue) {
    await services.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for("update");
      if (locked?.status === PaymentStatus.IN_PAYMENT) await expirePayment(tx, locked, services.now());
    });
  }
}

async function paymentById(services: Deps, id: unknown) {
  const [row] = await services.db
    .select()
    .from(payments)
    .where(eq(payments.id, Number(id)))
    .limit(1);
  return row;
}

const pollPayment: JobHandler = async (payload, services) => {
  const payment = await paymentById(services, payload.paymentId);
  if (payment) await refreshFromProvider(services, payment);
};

/** At its end a payment still in payment expires (§4 status 10); an offline remittance nobody confirmed too. */
const expireJob: JobHandler = async (payload, services) => {
  const payment = await paymentById(services, payload.paymentId);
  if (!payment || payment.status !== PaymentStatus.IN_PAYMENT) return;
  if (!isBankTransfer(payment.payType)) return refreshFromProvider(services, payment);
  await services.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for("update");
    if (locked?.status === PaymentStatus.IN_PAYMENT && locked.expiresAt.getTime() <= services.now().getTime())
      await expirePayment(tx, locked, services.now());
  });
};

/** Whom a payment's job concerns: the payer, told when it dies (docs/decisions/005). */
async function payerOf(payload: Record<string, unknown>, db: Db): Promise<JobOwner | null> {
  const id = Number(payload.paymentId);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const [row] = await db
    .select({ userId: payments.userId, paymentNo: payments.paymentNo })
    .from(payments)
    .where(eq(payments.id, id));
  return row ? { userId: row.userId, subject: row.paymentNo } : null;
}

export const paymentJobHandlers: Record<string, JobEntry> = {
  "payments.poll": { run: pollPayment, ownerOf: payerOf },
  "payments.expire": { run: expireJob, ownerOf: payerOf },
};
