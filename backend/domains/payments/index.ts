import { handlersOf } from "../../http/router";
import type { JobHandler } from "../../jobs/runner";
import type { Deps } from "../../deps";
import { getCard, getPayment, listRecharges, listRemittances, createRecharge, paymentJobHandlers, receiveCallback, reviewRemittance, startCardSetup } from "./payments";
import { handleSandboxRequest, sandboxJobs } from "./sandbox";
import { webhookSecret } from "./secret";
import { listWithdrawalQueue, listWithdrawals, requestWithdrawal, reviewWithdrawal } from "./withdrawals";

/** The /vueapi handlers of this domain, by path (contract/payments.ts). */
export const paymentHandlers = handlersOf({
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
});

/** The background jobs of this domain, by kind: payment polls and expiry, and the sandbox's callbacks. */
export const paymentJobs: Record<string, JobHandler> = { ...paymentJobHandlers, ...sandboxJobs };

/** Checked at start: the callback secret exists (generated into DATA_DIR, or required with DATABASE_URL). */
export function checkPaymentConfig(services: Deps): void {
  webhookSecret(services.env);
}

/** The embedded sandbox provider's own pages (/sandbox-pay/...), docs/decisions/007. */
export const handleSandboxPay = handleSandboxRequest;
