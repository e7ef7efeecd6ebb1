import billing from "#backend/domains/billing/index.ts";
import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { getCard, getPayment, listRecharges, createRecharge, startCardSetup } from "./handlers/user.ts";
import { listRemittances, reviewRemittance } from "./handlers/operator.ts";
import { paymentJobHandlers } from "./jobs.ts";
import { receiveCallback } from "./handlers/provider.ts";
import { listWithdrawalQueue, reviewWithdrawal } from "./handlers/operator.ts";
import { listWithdrawals, requestWithdrawal } from "./handlers/user.ts";
import { paymentsWaiting } from "./figures.ts";
import { listPaymentReviews, reviewPayment } from "./reviews.ts";
import { handleSandboxRequest, SANDBOX_PATH, sandboxJobs } from "./sandbox.ts";
import { webhookSecret } from "./secret.ts";
import { recordPaidRecharge, recordReviewedWithdrawal } from "./demo-records.ts";
import { handleStripeWebhook, STRIPE_WEBHOOK_PATH } from "./stripe-webhook.ts";

/**
 * Recharge, saved card, offline remittance and withdrawals through the provider adapter (SPEC §9;
 * contract/payments.ts; docs/decisions/007): the sandbox in test mode or Stripe Checkout (docs/decisions/019,
 * 020), with payments whose provider's amount or currency differs held for an operator.
 */
export default defineDomain({
  name: "payments",
  handlers: handlersOf({
    "/sys/account/recharge": createRecharge,
    "/sys/account/rechargeList": listRecharges,
    "/sys/account/payment": getPayment,
    "/sys/account/h5cashOutAmount": requestWithdrawal,
    "/sys/account/withdrawList": listWithdrawals,
    "/sys/account/card": getCard,
    "/sys/account/cardSetup": startCardSetup,
    "/pay/callback": receiveCallback,
    "/ops/remittances/list": listRemittances,
    "/ops/remittances/review": reviewRemittance,
    "/ops/paymentReviews/list": listPaymentReviews,
    "/ops/paymentReviews/review": reviewPayment,
    "/ops/withdrawals/list": listWithdrawalQueue,
    "/ops/withdrawals/review": reviewWithdrawal,
  }),
  api: { paymentsWaiting, recordPaidRecharge, recordReviewedWithdrawal },
  jobs: { ...paymentJobHandlers, ...sandboxJobs },
  // Billing's demo seeder writes the demo accounts' recharges and withdrawals through this domain; the sandbox's
  // callback secret exists (generated into DATA_DIR, or required with DATABASE_URL).
  start: (deps) => {
    billing.api.seedDemoPaymentsWith({ recordPaidRecharge, recordReviewedWithdrawal });
    if (deps.env.paymentProvider === "sandbox") webhookSecret(deps.env);
  },
  endpoints: [
    {
      // The embedded sandbox provider's hosted checkout (docs/decisions/007), only while it is the provider.
      methods: ["GET", "POST"],
      path: `${SANDBOX_PATH}/`,
      auth: "public",
      bodyLimitBytes: 64 * 1024,
      ratePerMinute: 120,
      enabled: (env) => env.paymentProvider === "sandbox",
      handle: handleSandboxRequest,
    },
    {
      // Stripe's signed webhook (docs/decisions/019).
      methods: ["POST"],
      path: STRIPE_WEBHOOK_PATH,
      auth: "signature",
      bodyLimitBytes: 512 * 1024,
      ratePerMinute: null,
      // Every request not signed with the webhook secret is refused before any work; Stripe retries a failed
      // delivery from a few addresses of its own, which a per-address rate could make it drop.
      unratedBecause: "signature-guarded: unsigned requests are refused before any work (docs/decisions/067)",
      enabled: (env) => env.paymentProvider === "stripe",
      handle: handleStripeWebhook,
    },
  ],
});
