import { handlersOf } from "../../http/router";
import type { JobHandler } from "../../jobs/runner";
import { accountSummary, listTransactions, usage30, verifyLedger } from "./account";
import { billDetail, exportBills, listBills, payBill } from "./bills";
import { noUnpaidBills } from "./guard";
import { jobHandlers } from "./jobs";

export { hasBlockingBills } from "./guard";
export { startBillingJobs } from "./jobs";

/** The /vueapi handlers of this domain, by path (contract/billing.ts). */
export const billingHandlers = handlersOf({
  "/sys/system/clientInfo/h5billList": listBills,
  "/sys/system/clientInfo/h5billExport": exportBills,
  "/sys/system/clientInfo/h5billDetail": billDetail,
  "/sys/system/clientInfo/h5billPay": payBill,
  "/sys/account/summary": accountSummary,
  "/sys/account/transactions": listTransactions,
  "/sys/account/usage30": usage30,
  "/sys/product/h5isHasNoPayBillV2": noUnpaidBills,
  "/ops/ledger/verify": verifyLedger,
});

/** The background jobs of this domain, by kind. */
export const billingJobs: Record<string, JobHandler> = { ...jobHandlers };
