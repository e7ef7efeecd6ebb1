import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_MINUTES } from "#contract/alert-webhook.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { schedule, type JobHandler } from "#backend/jobs/runner.ts";
import { alertWebhookDeliveries, alertWebhooks, type alertFirings } from "./tables.ts";
import { checkWebhookAddress, ownOf, type AddressPolicy } from "./webhook-address.ts";
import { postSigned, type Attempt } from "./webhook-send.ts";

/**
 * The alert webhook's deliveries (issue 35 §1, docs/decisions/092). `told` (./tell.ts) makes a delivery in the
 * transaction that records the alert, with its job; the job attempts it: claims the row (a conditional update: pending,
 * due, not held by another attempt), checks the address again, POSTs it signed, and records the outcome: delivered on
 * a 2xx, else due again after WEBHOOK_RETRY_MINUTES (its job scheduled in the same transaction), failed after the last
 * attempt. A process that dies during an attempt holds the row until `claimed_until`; the job runner runs the job again
 * and it attempts again once that time has passed.
 */

export const DELIVER_WEBHOOK = "alerts.webhook";
/** How long an attempt holds its delivery: well over the attempt's 5 s. */
const CLAIM_MS = 30_000;
/** The page on which the account reads its alerts (a firing is marked by `?alertId=`). */
const ALERTS_PAGE = "/g/home/userCenter/Alerts";

type FiringRow = typeof alertFirings.$inferSelect;
type Delivery = typeof alertWebhookDeliveries.$inferSelect;

/** The policy of addresses this server applies (loopback only with the test allowance). */
export const addressPolicy = (deps: Pick<Deps, "env">): AddressPolicy => ({
  allowLoopback: deps.env.webhookAllowLoopback,
  own: ownOf(deps.env.publicUrl),
});

/** The JSON an alert's delivery sends. */
export function alertEvent(firing: FiringRow, notice: { textKey: string }) {
  return {
    event: firing.kind,
    firingId: firing.id,
    subject: { id: firing.subjectId, name: firing.subjectName },
    threshold: firing.threshold,
    period: firing.period,
    value: firing.valueCents,
    limit: firing.limitCents,
    message: notice.textKey,
    time: firing.firedAt.toISOString(),
    link: `${ALERTS_PAGE}?alertId=${firing.id}`,
  };
}

/**
 * Makes a delivery of `body` to the account's webhook, when it has one enabled, and schedules its first attempt now,
 * in the caller's transaction. Answers the delivery's id, or null when there is no webhook to send to.
 */
export async function scheduleDelivery(
  tx: Db | Tx,
  accountId: number,
  event: string,
  firingId: number | null,
  body: Record<string, unknown>,
  now: Date,
): Promise<number | null> {
  const [hook] = await tx
    .select({ accountId: alertWebhooks.accountId })
    .from(alertWebhooks)
    .where(and(eq(alertWebhooks.accountId, accountId), eq(alertWebhooks.enabled, true)));
  if (!hook) return null;
  const [row] = await tx
    .insert(alertWebhookDeliveries)
    .values({ accountId, event, firingId, body, nextAt: now, createdAt: now, updatedAt: now })
    .returning({ id: alertWebhookDeliveries.id });
  await schedule(
    tx,
    DELIVER_WEBHOOK,
    { deliveryId: row.id },
    { runAt: now, dedupeKey: `${DELIVER_WEBHOOK}:${row.id}:0` },
  );
  return row.id;
}

/** Claims the next attempt of a delivery for this process: null when it is not pending, not due or held. */
export async function claimDelivery(db: Db, deliveryId: number, now: Date): Promise<Delivery | null> {
  const [row] = await db
    .update(alertWebhookDeliveries)
    .set({
      attempts: sql`${alertWebhookDeliveries.attempts} + 1`,
      claimedUntil: new Date(now.getTime() + CLAIM_MS),
      updatedAt: now,
    })
    .where(
      and(
        eq(alertWebhookDeliveries.id, deliveryId),
        eq(alertWebhookDeliveries.status, "pending"),
        lte(alertWebhookDeliveries.nextAt, now),
        or(isNull(alertWebhookDeliveries.claimedUntil), lte(alertWebhookDeliveries.claimedUntil, now)),
      ),
    )
    .returning();
  return row ?? null;
}

/** One attempt of a claimed delivery: the address checked again, then the signed POST. */
async function attempt(deps: Deps, delivery: Delivery, now: Date): Promise<Attempt> {
  const [hook] = await deps.db.select().from(alertWebhooks).where(eq(alertWebhooks.accountId, delivery.accountId));
  if (!hook || !hook.enabled) return { ok: false, status: null, error: "the webhook was removed or disabled" };
  const verdict = await checkWebhookAddress(hook.url, addressPolicy(deps));
  if (!verdict.ok) return { ok: false, status: null, error: `address refused: ${verdict.reason}` };
  const body = JSON.stringify({ ...delivery.body, deliveryId: delivery.id, attempt: delivery.attempts });
  return postSigned(
    verdict,
    body,
    { "x-bsn-event": delivery.event, "x-bsn-delivery": String(delivery.id) },
    hook.secret,
    now,
  );
}

/** Records an attempt's outcome on the delivery it claimed, and schedules the next attempt when there is one. */
async function record(db: Db, delivery: Delivery, outcome: Attempt, now: Date) {
  await db.transaction(async (tx) => {
    const last = delivery.attempts >= WEBHOOK_MAX_ATTEMPTS;
    const retryAt =
      outcome.ok || last ? null : new Date(now.getTime() + WEBHOOK_RETRY_MINUTES[delivery.attempts - 1] * 60_000);
    const [kept] = await tx
      .update(alertWebhookDeliveries)
      .set({
        status: outcome.ok ? "delivered" : last ? "failed" : "pending",
        lastStatus: outcome.status,
        lastError: outcome.ok ? null : outcome.error,
        nextAt: retryAt,
        claimedUntil: null,
        updatedAt: now,
      })
      .where(
        and(
          eq(alertWebhookDeliveries.id, delivery.id),
          eq(alertWebhookDeliveries.status, "pending"),
          eq(alertWebhookDeliveries.attempts, delivery.attempts),
        ),
      )
      .returning({ id: alertWebhookDeliveries.id });
    if (kept && retryAt)
      await schedule(
        tx,
        DELIVER_WEBHOOK,
        { deliveryId: delivery.id },
        { runAt: retryAt, dedupeKey: `${DELIVER_WEBHOOK}:${delivery.id}:${delivery.attempts}` },
      );
  });
}

/**
 * Attempts a delivery now if it is due and free; answers whether this call made the attempt. Throws when another
 * attempt holds it (a process that may have died): the job runs again later and finds it free.
 */
export async function deliver(deps: Deps, deliveryId: number): Promise<boolean> {
  const now = deps.now();
  const claimed = await claimDelivery(deps.db, deliveryId, now);
  if (!claimed) {
    const [row] = await deps.db
      .select({ claimedUntil: alertWebhookDeliveries.claimedUntil, status: alertWebhookDeliveries.status })
      .from(alertWebhookDeliveries)
      .where(eq(alertWebhookDeliveries.id, deliveryId));
    if (row?.status === "pending" && row.claimedUntil && row.claimedUntil > now)
      throw new Error(`webhook delivery ${deliveryId}: an attempt holds it until ${row.claimedUntil.toISOString()}`);
    return false;
  }
  await record(deps.db, claimed, await attempt(deps, claimed, now), deps.now());
  return true;
}

const deliverJob: JobHandler = async (payload, services) => {
  await deliver(services, Number(payload.deliveryId));
};

export const webhookJobs = { [DELIVER_WEBHOOK]: deliverJob };

/**
 * Tests only (/test/alerts/webhookDue): the caller's pending deliveries not held by an attempt made due now, then
 * attempted within the call (two such calls at once attempt each delivery once: the claim decides).
 */
export async function attemptDueNow(deps: Deps, accountId: number): Promise<number> {
  const now = deps.now();
  const rows = await deps.db
    .update(alertWebhookDeliveries)
    .set({ nextAt: now })
    .where(
      and(
        eq(alertWebhookDeliveries.accountId, accountId),
        eq(alertWebhookDeliveries.status, "pending"),
        or(isNull(alertWebhookDeliveries.claimedUntil), lte(alertWebhookDeliveries.claimedUntil, now)),
      ),
    )
    .returning({ id: alertWebhookDeliveries.id });
  let attempted = 0;
  for (const { id } of rows) {
    const claimed = await claimDelivery(deps.db, id, now);
    if (!claimed) continue;
    await record(deps.db, claimed, await attempt(deps, claimed, now), deps.now());
    attempted += 1;
  }
  return attempted;
}
