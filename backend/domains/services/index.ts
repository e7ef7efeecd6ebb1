import billing from "#backend/domains/billing/index.ts";
import crossChain from "#backend/domains/cross-chain/index.ts";
import { serviceFigures, servicesWaiting } from "./figures.ts";
import { serviceChainView } from "./chain.ts";
import { serviceChainRpc } from "./chain-endpoint.ts";
import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { newAppCode } from "./build.ts";
import { seedDemoServices } from "./demo.ts";
import { createServiceFixture } from "./fixtures.ts";
import {
  deactivate,
  enable,
  invite,
  payBill,
  publishedDetail,
  publishedList,
  replyComment,
  requestEnable,
  unsubscribe,
} from "./handlers/publisher.ts";
import {
  opsServiceDecide,
  opsServiceList,
  refundDecide,
  refundList,
  reviewDecide,
  reviewList,
} from "./handlers/operator.ts";
import { verifyInvitation } from "./invite.ts";
import { serviceJobs } from "./jobs.ts";
import { JOB_EVM_BACKFILL, JOB_FABRIC_BACKFILL, runEvmBackfill, runFabricBackfill } from "./evm-backfill.ts";
import { JOB_FABRIC_GO_JAVA_NOTICE, runFabricGoJavaNotice } from "./fabric-notice.ts";
import { applyTransition } from "./machine.ts";
import { settlePublishBill } from "./payment.ts";
import {
  opsUpgradeDecide,
  opsUpgradeList,
  upgradeCreate,
  upgradeDetail,
  upgradeList,
  upgradeOptions,
  upgradePay,
  upgradeQuote,
} from "./config-handlers.ts";
import { JOB_RENEWALS, runRenewals, scheduleRenewals } from "./renewal.ts";
import { JOB_UPGRADE_DEPLOY, upgradeOwner } from "./upgrade.ts";
import { runUpgradeDeploy } from "./upgrade-lifecycle.ts";
import { inspectPackage, solidityFilesOfPackage, solidityFindings } from "./inspect.ts";
import {
  addDraftFunction,
  addDraftPackage,
  addDraftRole,
  addServiceAttachment,
  bookDraftNodes,
  createDraft,
  createUpgradeDraft,
  deleteDraft,
  deleteDraftFunction,
  deleteDraftPackage,
  deleteDraftRole,
  deleteServiceAttachment,
  reachDraftStep,
  renameDraftVersion,
  saveDraftBasics,
} from "./draft-api.ts";
import {
  addServiceComment,
  countCommentUseful,
  saveCertificateMode,
  saveCrossChainState,
  setServicePublic,
} from "./settings-api.ts";

/**
 * Consortium-chain services after submission: PublishedServices, ServicesDetail, reviews, the test and deploy
 * jobs, payment, deactivation, suspension, refunds (SPEC §2, §4; contract/services.ts; docs/decisions/010, 012, 015);
 * configuration upgrades and renewals of the payment cycle (contract/configuration.ts; docs/decisions/036).
 */
export default defineDomain({
  name: "services",
  handlers: handlersOf({
    "/sys/chainAppInfo/publishedList": publishedList,
    "/sys/chainAppInfo/publishedDetail": publishedDetail,
    "/sys/chainAppInfo/payPublishBill": payBill,
    "/sys/chainAppInfo/deactivate": deactivate,
    "/sys/chainAppInfo/enable": enable,
    "/sys/chainAppInfo/unsubscribe": unsubscribe,
    "/sys/chainAppInfo/requestEnable": requestEnable,
    "/sys/chainAppInfo/invite": invite,
    "/sys/chainAppInfo/replyComment": replyComment,
    "/sys/ops/serviceReviews/list": reviewList,
    "/sys/ops/serviceReviews/decide": reviewDecide,
    "/sys/ops/refunds/list": refundList,
    "/sys/ops/refunds/decide": refundDecide,
    "/sys/ops/services/list": opsServiceList,
    "/sys/ops/services/decide": opsServiceDecide,
    "/sys/configUpgrade/list": upgradeList,
    "/sys/configUpgrade/options": upgradeOptions,
    "/sys/configUpgrade/quote": upgradeQuote,
    "/sys/configUpgrade/create": upgradeCreate,
    "/sys/configUpgrade/detail": upgradeDetail,
    "/sys/configUpgrade/pay": upgradePay,
    "/sys/ops/configUpgrades/list": opsUpgradeList,
    "/sys/ops/configUpgrades/decide": opsUpgradeDecide,
  }),
  jobs: {
    ...serviceJobs,
    [JOB_UPGRADE_DEPLOY]: { run: runUpgradeDeploy, ownerOf: upgradeOwner },
    [JOB_RENEWALS]: runRenewals,
    [JOB_EVM_BACKFILL]: runEvmBackfill,
    [JOB_FABRIC_BACKFILL]: runFabricBackfill,
    [JOB_FABRIC_GO_JAVA_NOTICE]: runFabricGoJavaNotice,
  },
  // The hourly sweep of renewals, lapsed renewal bills and unpaid upgrade bills (renewal.ts).
  schedules: [(db, now) => scheduleRenewals(db, now)],
  start: () => {
    billing.api.settleBillsWith("services", settlePublishBill);
    // Cross-chain moves a service's cross-chain state through this domain (it cannot import it: cycle).
    crossChain.api.saveServiceStateWith(saveCrossChainState);
  },
  endpoints: [serviceChainRpc],
  api: {
    applyTransition,
    newAppCode,
    verifyInvitation,
    serviceFigures,
    servicesWaiting,
    serviceChainView,
    /** The test job's inspection of a package, and of a Solidity package's compiler outcome (the chaincode market checks its entries with them). */
    inspectPackage,
    solidityFilesOfPackage,
    solidityFindings,
    /** A draft's writes, one per wizard step (draft-api.ts): the wizard and the store's "publish a product" check their rules first. */
    createDraft,
    saveDraftBasics,
    createUpgradeDraft,
    renameDraftVersion,
    reachDraftStep,
    addDraftPackage,
    addDraftFunction,
    addDraftRole,
    addServiceAttachment,
    deleteServiceAttachment,
    deleteDraftRole,
    deleteDraftFunction,
    deleteDraftPackage,
    bookDraftNodes,
    deleteDraft,
    /** A service's certificate mode, store listing, cross-chain state and comments (settings-api.ts). */
    saveCertificateMode,
    setServicePublic,
    saveCrossChainState,
    addServiceComment,
    countCommentUseful,
  },
  seedDemo: seedDemoServices,
  fixtures: handlersOf({ "/test/services": createServiceFixture }),
});
