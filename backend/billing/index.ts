import type { Handlers } from "../http/router";
import type { JobHandler } from "../jobs/runner";
import { accountSummary, listTransactions, usage30, verifyLedger } from "./account";
import { billDetail, exportBills, listBills, payBill } from "./bills";
import { noUnpaidBills } from "./guard";
import { jobHandlers } from "./jobs";

export { hasBlockingBills } from "./guard";
export { startBillingJobs } from "./jobs";

type Handler = Handlers[keyof Handlers];

/** The /vueapi handlers of this domain, by path (contract/billing.ts). */
export const billingHandlers = {
  "/sys/system/clientInfo/h5billList": listBills as Handler,
  "/sys/system/clientInfo/h5billExport": exportBills as Handler,
  "/sys/system/clientInfo/h5billDetail": billDetail as Handler,
  "/sys/system/clientInfo/h5billPay": payBill as Handler,
  "/sys/account/summary": accountSummary,
  "/sys/account/transactions": listTransactions as Handler,
  "/sys/account/usage30": usage30,
  "/sys/product/h5isHasNoPayBillV2": noUnpaidBills as Handler,
  "/ops/ledger/verify": verifyLedger as Handler,
} satisfies Partial<Handlers>;

/** The background jobs of this domain, by kind. */
export const billingJobs: Record<string, JobHandler> = { ...jobHandlers };
