import type { Handlers } from "../http/router";
import type { JobHandler } from "../jobs/runner";
import type { Services } from "../services";
import { getCard, getPayment, listRecharges, listRemittances, createRecharge, paymentJobHandlers, receiveCallback, reviewRemittance, startCardSetup } from "./payments";
import { handleSandboxRequest, sandboxJobs } from "./sandbox";
import { webhookSecret } from "./secret";
import { listWithdrawalQueue, listWithdrawals, requestWithdrawal, reviewWithdrawal } from "./withdrawals";

type H = Handlers[keyof Handlers];

/** The /vueapi handlers of this domain, by path (contract/payments.ts). */
export const paymentHandlers = {
  "/sys/account/recharge": createRecharge as H,
  "/sys/account/rechargeList": listRecharges as H,
  "/sys/account/payment": getPayment as H,
  "/sys/account/h5cashOutAmount": requestWithdrawal as H,
  "/sys/account/withdrawList": listWithdrawals as H,
  "/sys/account/card": getCard as H,
  "/sys/account/cardSetup": startCardSetup as H,
  "/pay/callback": receiveCallback as H,
  "/ops/remittances/list": listRemittances as H,
  "/ops/remittances/review": reviewRemittance as H,
  "/ops/withdrawals/list": listWithdrawalQueue as H,
  "/ops/withdrawals/review": reviewWithdrawal as H,
} satisfies Partial<Handlers>;

/** The background jobs of this domain, by kind: payment polls and expiry, and the sandbox's callbacks. */
export const paymentJobs: Record<string, JobHandler> = { ...paymentJobHandlers, ...sandboxJobs };

/** Checked at start: the callback secret exists (generated into DATA_DIR, or required with DATABASE_URL). */
export function checkPaymentConfig(services: Services): void {
  webhookSecret(services.env);
}

/** The embedded sandbox provider's own pages (/sandbox-pay/...), docs/decisions/007. */
export const handleSandboxPay = handleSandboxRequest;
