import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { seedPublicChainOrgs } from "./catalogue.ts";
import { coinPriceCents, gasRatePrices, publicChainPlanPrices } from "./prices.ts";
import { seedDemoPublicChain } from "./demo.ts";
import { projectRpc } from "./endpoint.ts";
import {
  accountDetail,
  accountKeystore,
  assignGas,
  createAccount,
  exportAccounts,
  listAccounts,
} from "./handlers/accounts.ts";
import { buyPlan, listPlans, queryPubOrgList } from "./handlers/plans.ts";
import {
  createProject,
  deactivateProject,
  enableProject,
  listProjects,
  projectDetail,
  projectKey,
  projectStats,
  redeployProject,
} from "./handlers/projects.ts";
import { requestsOn, stopRequests } from "./meter.ts";
import { gasJobs, requireGas, scheduleGasRecover, scheduleGasWatch } from "./gas.ts";
import { publicChainJobs } from "./jobs.ts";
import { openCustodyKey } from "./keys.ts";
import { publishOnFirstContract } from "./machine.ts";
import { requestUnits } from "./rules.ts";

/**
 * The public chain (SPEC §1, §3, §4, §5, §7, §8, §9; contract/public-chain.ts; docs/decisions/026): the
 * organisation nodes and their plans, open-alliance projects with their keyed JSON-RPC endpoint and meter,
 * chain accounts and gas. It reaches the chains only through the chain domain's api, money only through billing's.
 */
export default defineDomain({
  name: "public-chain",
  handlers: handlersOf({
    "/sys/pubChainOrg/queryPubOrgList": queryPubOrgList,
    "/sys/opc/plan/buy": buyPlan,
    "/sys/opc/plan/list": listPlans,
    "/sys/opc/project/create": createProject,
    "/sys/opc/project/list": listProjects,
    "/sys/opc/project/detail": projectDetail,
    "/sys/opc/project/enable": enableProject,
    "/sys/opc/project/deactivate": deactivateProject,
    "/sys/opc/project/redeploy": redeployProject,
    "/sys/opc/project/key": projectKey,
    "/sys/opc/project/stats": projectStats,
    "/sys/opc/account/create": createAccount,
    "/sys/opc/account/list": listAccounts,
    "/sys/opc/account/export": exportAccounts,
    "/sys/opc/account/detail": accountDetail,
    "/sys/opc/account/keystore": accountKeystore,
    "/sys/opc/account/assignGas": assignGas,
  }),
  // The organisation nodes are upserted at every start (after the platform's city nodes).
  start: (deps) => seedPublicChainOrgs(deps.db),
  // The keyed endpoint's last counts are written and its unused quota given back before the database closes.
  stop: (deps) => stopRequests(deps.db),
  jobs: { ...publicChainJobs, ...gasJobs },
  // Interrupted gas transfers are finished or refunded at every start, then every 5 minutes; low gas is watched every 10.
  schedules: [scheduleGasRecover, scheduleGasWatch],
  endpoints: [projectRpc],
  api: {
    requestUnits,
    requestsOn,
    requireGas,
    /** A custody account's private key (hex), for the contract deployments it signs (docs/decisions/033). */
    openCustodyKey,
    /** 11 → 15 "published" when a project not yet enabled has its first contract deployed (docs/decisions/026). */
    publishOnFirstContract,
    /** The gas rate: the price of one coin of gas (USD cents), for pages that show what an amount buys. */
    coinPriceCents,
    /** The operators' price catalogue areas of the public chain (docs/decisions/073). */
    priceAreas: { publicChainPlan: publicChainPlanPrices, gasRate: gasRatePrices },
  },
  seedDemo: seedDemoPublicChain,
});
