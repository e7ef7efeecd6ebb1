import { and, count, desc, eq } from "drizzle-orm";
import type { DeliveryStatus } from "#contract/alert-webhook.ts";
import { Msg } from "#contract/messages.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Handler } from "#backend/http/router.ts";
import { alertWebhookDeliveries, alertWebhooks } from "./tables.ts";
import { attemptDueNow, addressPolicy, scheduleDelivery } from "./webhook.ts";
import { checkWebhookAddress } from "./webhook-address.ts";
import { newSecret } from "./webhook-send.ts";

/** The alert webhook's paths (issue 35 §1, docs/decisions/092): always the acting account's own webhook. */

export const webhookOf: Handler<"/sys/alerts/webhook"> = async (_input, { deps, user }) => {
  const [hook] = await deps.db.select().from(alertWebhooks).where(eq(alertWebhooks.accountId, user.id));
  return {
    webhook: hook
      ? {
          url: hook.url,
          secret: hook.secret,
          enabled: hook.enabled,
          createdAt: hook.createdAt.toISOString(),
          updatedAt: hook.updatedAt.toISOString(),
        }
      : null,
    testMode: deps.env.webhookAllowLoopback,
  };
};

/** Saves the address once the guard passed it (a refused one is a field error); the first save makes the secret. */
export const saveWebhook: Handler<"/sys/alerts/webhook/save"> = async (input, { deps, user, member }) => {
  const verdict = await checkWebhookAddress(input.url, addressPolicy(deps));
  if (!verdict.ok) throw fieldError("url", `validation.webhook.${verdict.reason}`);
  const now = deps.now();
  const values = { url: input.url, enabled: input.enabled, updatedAt: now, updatedBy: member.id };
  await deps.db
    .insert(alertWebhooks)
    .values({ accountId: user.id, secret: newSecret(), createdAt: now, ...values })
    .onConflictDoUpdate({ target: alertWebhooks.accountId, set: values });
  return null;
};

export const rotateWebhookSecret: Handler<"/sys/alerts/webhook/rotate"> = async (_input, { deps, user, member }) => {
  const rows = await deps.db
    .update(alertWebhooks)
    .set({ secret: newSecret(), updatedAt: deps.now(), updatedBy: member.id })
    .where(eq(alertWebhooks.accountId, user.id))
    .returning({ accountId: alertWebhooks.accountId });
  if (rows.length === 0) throw new ApiError(Msg.NOT_FOUND);
  return null;
};

/** Removes the webhook; what was still to be sent is failed, so the list says it will not be. */
export const deleteWebhook: Handler<"/sys/alerts/webhook/delete"> = async (_input, { deps, user }) => {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const rows = await tx
      .delete(alertWebhooks)
      .where(eq(alertWebhooks.accountId, user.id))
      .returning({ accountId: alertWebhooks.accountId });
    if (rows.length === 0) throw new ApiError(Msg.NOT_FOUND);
    await tx
      .update(alertWebhookDeliveries)
      .set({ status: "failed", lastError: "the webhook was removed", nextAt: null, updatedAt: now })
      .where(and(eq(alertWebhookDeliveries.accountId, user.id), eq(alertWebhookDeliveries.status, "pending")));
  });
  return null;
};

/** A test event, sent as an alert's would be (refused when there is no enabled webhook). */
export const sendTestEvent: Handler<"/sys/alerts/webhook/test"> = async (_input, { deps, user }) => {
  const now = deps.now();
  const body = {
    event: "test",
    firingId: null,
    subject: { id: 0, name: "" },
    threshold: 0,
    period: now.toISOString().slice(0, 10),
    value: 0,
    limit: 0,
    message: "test",
    time: now.toISOString(),
    link: "/g/home/userCenter/Alerts",
  };
  const id = await deps.db.transaction((tx) => scheduleDelivery(tx, user.id, "test", null, body, now));
  if (id === null) throw new ApiError(Msg.NOT_FOUND);
  return { deliveryId: id };
};

export const webhookDeliveries: Handler<"/sys/alerts/webhook/deliveries"> = async (input, { deps, user }) => {
  const where = eq(alertWebhookDeliveries.accountId, user.id);
  const [rows, [{ total }]] = await Promise.all([
    deps.db
      .select()
      .from(alertWebhookDeliveries)
      .where(where)
      .orderBy(desc(alertWebhookDeliveries.createdAt), desc(alertWebhookDeliveries.id))
      .limit(input.pageSize)
      .offset((input.pageIndex - 1) * input.pageSize),
    deps.db.select({ total: count() }).from(alertWebhookDeliveries).where(where),
  ]);
  return {
    page: {
      rows: rows.map((r) => ({
        id: r.id,
        event: r.event,
        firingId: r.firingId,
        attempts: r.attempts,
        status: r.status as DeliveryStatus,
        lastStatus: r.lastStatus,
        lastError: r.lastError,
        nextAt: r.nextAt?.toISOString() ?? null,
        createdAt: r.createdAt.toISOString(),
        updatedAt: r.updatedAt.toISOString(),
      })),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
};

/** Tests only (TEST_FIXTURES=1): the caller's pending deliveries attempted now. */
export const webhookDueNow: Handler<"/test/alerts/webhookDue"> = async (_input, { deps, user }) => {
  if (!deps.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  return { attempted: await attemptDueNow(deps, user.id) };
};
