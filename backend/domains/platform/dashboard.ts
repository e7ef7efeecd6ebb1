import accounts from "#backend/domains/accounts/index.ts";
import billing from "#backend/domains/billing/index.ts";
import invoices from "#backend/domains/invoices/index.ts";
import ipfs from "#backend/domains/ipfs/index.ts";
import operations from "#backend/domains/operations/index.ts";
import participation from "#backend/domains/participation/index.ts";
import payments from "#backend/domains/payments/index.ts";
import services from "#backend/domains/services/index.ts";
import store from "#backend/domains/store/index.ts";
import support from "#backend/domains/support/index.ts";
import type { Db } from "#backend/db/client.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import type { OpsQueueCounts } from "#contract/platform.ts";
import { checklistOf } from "./checklist.ts";

/** The waiting items of every operations queue, keyed by the queue's route name (docs/decisions/029). */
export async function queueCounts(db: Db): Promise<OpsQueueCounts> {
  const parts = await Promise.all([
    services.api.servicesWaiting(db),
    invoices.api.invoicesWaiting(db),
    payments.api.paymentsWaiting(db),
    store.api.productsWaiting(db),
    participation.api.participationsWaiting(db),
    operations.api.failedJobsWaiting(db),
    ipfs.api.upgradesWaiting(db),
    support.api.ticketsWaiting(db),
  ]);
  return Object.assign({}, ...parts) as OpsQueueCounts;
}

/**
 * /main/home/dashboard: every figure of the console home (/g/home/index) in one call, one or two queries
 * per domain: the caller (as /main/getClientInfo), money (balance, due, next deadline, what blocks a new service, 7-day traffic), services by
 * status and drafts, join requests, and for an operator the waiting items of each operations queue. The
 * account facts and unread messages are the shell's (/main/home/summary), which the page reuses.
 */
export async function homeDashboard(_input: unknown, ctx: SignedInContext) {
  const { db } = ctx.deps;
  const now = ctx.deps.now();
  const operator = ctx.user.role === "operator";
  const [money, serviceCounts, joins, queues, checklist] = await Promise.all([
    billing.api.billingFigures(db, ctx.user.id, now),
    services.api.serviceFigures(db, ctx.user.id),
    participation.api.joinFigures(db, ctx.user.id),
    operator ? queueCounts(db) : Promise.resolve(null),
    operator ? Promise.resolve(null) : checklistOf(db, ctx.user.id),
  ]);
  return { account: accounts.api.toUser(ctx.user), ...money, services: serviceCounts, ...joins, queues, checklist };
}

/** /sys/ops/queues/waiting (operators): the waiting items of each queue, for the Operations tabs. */
export async function opsQueueCounts(_input: unknown, ctx: SignedInContext) {
  return queueCounts(ctx.deps.db);
}
