import { handlersOf } from "../../http/router";
import { defineDomain } from "../../kit/domain";
import { getCard, getPayment, listRecharges, listRemittances, createRecharge, paymentJobHandlers, receiveCallback, reviewRemittance, startCardSetup } from "./handlers";
import { handleSandboxRequest, SANDBOX_PATH, sandboxJobs } from "./sandbox";
import { webhookSecret } from "./secret";
import { listWithdrawalQueue, listWithdrawals, requestWithdrawal, reviewWithdrawal } from "./handlers";

/** Recharge, saved card, offline remittance and withdrawals through the provider adapter (SPEC §9; contract/payments.ts; docs/decisions/007). */
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
    "/ops/withdrawals/list": listWithdrawalQueue,
    "/ops/withdrawals/review": reviewWithdrawal,
  }),
  jobs: { ...paymentJobHandlers, ...sandboxJobs },
  // The callback secret exists (generated into DATA_DIR, or required with DATABASE_URL).
  start: (deps) => {
    webhookSecret(deps.env);
  },
  endpoints: [
    {
      // The embedded sandbox provider's hosted checkout (docs/decisions/007).
      methods: ["GET", "POST"],
      path: `${SANDBOX_PATH}/`,
      auth: "public",
      bodyLimitBytes: 64 * 1024,
      ratePerMinute: 120,
      handle: handleSandboxRequest,
    },
  ],
});
