import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { seedBillingDemo, seedDemoPaymentsWith } from "./demo.ts";
import { createFixtures } from "./fixtures.ts";
import { billAppConfig, billPayInfo } from "./handlers/user-bill-info.ts";
import {
  accountSummary,
  exportTransactions,
  listTransactions,
  setAccountAutoPay,
  usage30,
} from "./handlers/user-account.ts";
import { autoPayJobs, scheduleAutoPayOffer } from "./auto-pay.ts";
import { billDetail, dueBills, exportBills, listBills, noUnpaidBills, payBill, payBills } from "./handlers/user.ts";
import { hasBlockingBills, settleBillsWith } from "./settle.ts";
import {
  expireBill,
  issueBill,
  issueBillOnce,
  markBillPaid,
  moveUnpaidBillDeadline,
  recordBillRefund,
  setBillsInvoiceState,
} from "./bills-api.ts";
import { verifyLedger } from "./handlers/operator.ts";
import { billBreakdown } from "./breakdown.ts";
import { billingFigures } from "./figures.ts";
import { jobHandlers, scheduleExpiry, scheduleWeekly } from "./jobs.ts";
import { lockWallet, post, totalsOf } from "./ledger.ts";
import { chargeRenewal, lapsedRenewalBill, payRenewalBill } from "./renewals.ts";
import { isPayable, newBillNo } from "./rules.ts";
import { flushTraffic, meterTraffic, serviceTraffic, stopTraffic } from "./meter.ts";
import { lastCompletedWeekStart } from "./time.ts";
import { sendToFinanceOr, spentThisMonth } from "./spend.ts";

/** My account, My bills, BillDetail, the unpaid-bill guard and the one ledger (SPEC §3, §5, §9; contract/billing.ts). */
export default defineDomain({
  name: "billing",
  handlers: handlersOf({
    "/sys/system/clientInfo/h5billList": listBills,
    "/sys/system/clientInfo/h5billExport": exportBills,
    "/sys/system/clientInfo/h5billDetail": billDetail,
    "/sys/system/clientInfo/billBreakdown": billBreakdown,
    "/sys/system/clientInfo/h5billPay": payBill,
    "/sys/system/clientInfo/h5billPayMany": payBills,
    "/sys/system/clientInfo/h5billDue": dueBills,
    "/sys/system/clientInfo/h5payInfo": billPayInfo,
    "/sys/system/clientInfo/selectBillAppConfig": billAppConfig,
    "/sys/account/summary": accountSummary,
    "/sys/account/transactions": listTransactions,
    "/sys/account/transactionsExport": exportTransactions,
    "/sys/account/usage30": usage30,
    "/sys/account/autoPay": setAccountAutoPay,
    "/sys/product/h5isHasNoPayBillV2": noUnpaidBills,
    "/ops/ledger/verify": verifyLedger,
  }),
  jobs: { ...jobHandlers, ...autoPayJobs },
  // The weekly traffic bills of the last completed week (a server that was down catches up one week and then
  // follows the chain), an expiry pass this hour and the one-time auto-pay offer (ADR 059); all are no-ops
  // when already scheduled.
  schedules: [
    (db, now) => scheduleWeekly(db, lastCompletedWeekStart(now)),
    (db, now) => scheduleExpiry(db, now),
    (db, now) => scheduleAutoPayOffer(db, now),
  ],
  api: {
    billingFigures,
    post,
    lockWallet,
    totalsOf,
    hasBlockingBills,
    isPayable,
    newBillNo,
    settleBillsWith,
    issueBill,
    issueBillOnce,
    markBillPaid,
    expireBill,
    recordBillRefund,
    setBillsInvoiceState,
    moveUnpaidBillDeadline,
    chargeRenewal,
    payRenewalBill,
    lapsedRenewalBill,
    seedDemoPaymentsWith,
    /** A charge refused above a member's spending limit leaves its existing bill waiting for finance (ADR 080). */
    sendToFinanceOr,
    /** What a member's own actions charged the account this calendar month (UTC). */
    spentThisMonth,
    /** One answered call of a service's door, metered into usage_daily (docs/decisions/057). */
    meterTraffic,
    /** Writes this process's traffic counts now (tests, before reading them). */
    flushTraffic,
    /** A service's traffic per day for its detail page. */
    serviceTraffic,
  },
  // The traffic meter's last counts are written before the database closes (docs/decisions/057).
  stop: stopTraffic,
  seedDemo: seedBillingDemo,
  fixtures: handlersOf({ "/test/fixtures": createFixtures }),
});
export type { BillSettler, SettledBill } from "./settle.ts";
export type { NewBill } from "./bills-api.ts";
