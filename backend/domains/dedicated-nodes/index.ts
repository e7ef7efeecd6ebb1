import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import billing from "#backend/domains/billing/index.ts";
import { changePassword, create, detail, list, options, quote, remove, tryIt, unsubscribe } from "./handlers/user.ts";
import { upgradeCreate, upgradeDetail, upgradeList, upgradeOptions, upgradeQuote } from "./handlers/user-upgrade.ts";
import { dedicatedJobs } from "./jobs.ts";
import { dedicatedBasePrices, dedicatedCapacityPrices, dedicatedHostPrices } from "./prices.ts";
import { scheduleRenewals, settleRenewalBill } from "./renewals.ts";

/**
 * Dedicated nodes (SPEC §2 PrivatedNodes*, §3, §4, §5 "Dedicated node", §7 h5isHasNoPayBillV2 payType 2, §9;
 * contract/dedicated-nodes.ts; docs/decisions/047): projects paid per month or year from the balance, each a
 * real network (orderer, peers, gateway, CA) run by the chain domain's provisioner (`chain.api.networks`),
 * upgraded, renewed, unsubscribed and deleted through durable jobs.
 */
export default defineDomain({
  name: "dedicated-nodes",
  handlers: handlersOf({
    "/sys/prn/options": options,
    "/sys/prn/quote": quote,
    "/sys/prn/list": list,
    "/sys/prn/create": create,
    "/sys/prn/detail": detail,
    "/sys/prn/upgrade/list": upgradeList,
    "/sys/prn/upgrade/options": upgradeOptions,
    "/sys/prn/upgrade/quote": upgradeQuote,
    "/sys/prn/upgrade/create": upgradeCreate,
    "/sys/prn/upgrade/detail": upgradeDetail,
    "/sys/prn/password": changePassword,
    "/sys/prn/unsubscribe": unsubscribe,
    "/sys/prn/delete": remove,
    "/sys/prn/tryIt": tryIt,
  }),
  jobs: dedicatedJobs,
  // The hourly renewal sweep (jobs.ts).
  schedules: [(db, now) => scheduleRenewals(db, now)],
  start: () => billing.api.settleBillsWith("dedicated-nodes", settleRenewalBill),
  api: {
    /** The operators' price catalogue areas of dedicated nodes (docs/decisions/073). */
    priceAreas: {
      dedicatedHost: dedicatedHostPrices,
      dedicatedCapacity: dedicatedCapacityPrices,
      dedicatedBase: dedicatedBasePrices,
    },
  },
});
