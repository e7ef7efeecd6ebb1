import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { testServiceRpc } from "./endpoint.ts";
import {
  callTestChaincode,
  createTestService,
  deleteTestService,
  testIdentityKey,
  deployTestService,
  editTestService,
  listTestServices,
  redeployTestService,
  resetTestNetwork,
  testNetworkStatus,
  testServiceDetail,
  upgradeTestService,
} from "./handlers.ts";
import { testServiceJobs } from "./jobs.ts";
import { currentNetwork, newDeployer, openDeployerKey } from "./network.ts";

/**
 * Test services (SPEC §1 test network, §2 TestServices, §3, §4; contract/test-services.ts; docs/decisions/034):
 * contracts from Solidity source or an EVM chaincode package, compiled and deployed for real on the free test
 * network, with their access parameters and keyed endpoint; operators reset the network. It reaches the chain
 * only through the chain domain's api and certificates through participation's.
 */
export default defineDomain({
  name: "test-services",
  handlers: handlersOf({
    "/sys/testService/list": listTestServices,
    "/sys/testService/detail": testServiceDetail,
    "/sys/testService/create": createTestService,
    "/sys/testService/edit": editTestService,
    "/sys/testService/deploy": deployTestService,
    "/sys/testService/upgrade": upgradeTestService,
    "/sys/testService/redeploy": redeployTestService,
    "/sys/testService/delete": deleteTestService,
    "/sys/testService/chaincode": callTestChaincode,
    "/sys/testService/identityKey": testIdentityKey,
    "/sys/ops/testNetwork/status": testNetworkStatus,
    "/sys/ops/testNetwork/reset": resetTestNetwork,
  }),
  jobs: testServiceJobs,
  endpoints: [testServiceRpc],
  /**
   * For the online IDE's test-network deployments (docs/decisions/044 addendum): the network's current chain,
   * and a deployer account's key made and opened exactly as a test service's.
   */
  api: { currentNetwork, newDeployer, openDeployerKey },
});
