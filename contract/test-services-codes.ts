/**
 * Codes of test services (SPEC §1 test network, §3 Test service, §4 Test service statuses; docs/decisions/034),
 * without Zod, so that browser code can use them. contract/test-services.ts re-exports them.
 */

/**
 * SPEC §4 Test service: 5 deploying, 10 deployment successful, 15 deployment failed. The spec is silent on a
 * service that was never deployed and on one whose network was reset (docs/decisions/034): 1 not deployed,
 * 20 to re-deploy (the test network started over under it).
 */
export const TestServiceStatus = {
  NOT_DEPLOYED: 1,
  DEPLOYING: 5,
  DEPLOYED: 10,
  FAILED: 15,
  TO_REDEPLOY: 20,
} as const;
export type TestServiceStatusCode = (typeof TestServiceStatus)[keyof typeof TestServiceStatus];
export const TEST_SERVICE_STATUSES: readonly TestServiceStatusCode[] = Object.values(TestServiceStatus);

/** Where a test service's contracts come from: Solidity source typed in, or a chaincode package (.zip of .sol files). */
export const TEST_SERVICE_SOURCES = ["source", "package"] as const;
export type TestServiceSource = (typeof TEST_SERVICE_SOURCES)[number];

/**
 * The platforms a test service may be deployed for: the EVM-based frameworks run Solidity on the test network's
 * EVM; fabric runs a Node.js chaincode package on a channel of its own of the embedded Fabric peer
 * (docs/decisions/069).
 */
export const TEST_SERVICE_PLATFORMS = ["evm", "fisco", "cita", "fabric"] as const;
export type TestServicePlatform = (typeof TEST_SERVICE_PLATFORMS)[number];

/** The failure suggestions (SPEC §4 "reasons and a suggestion"): keys of the testServices namespace's `suggestion`. */
export const FAILURE_SUGGESTIONS = [
  "compile",
  "noContract",
  "severalContracts",
  "initParams",
  "reverted",
  "network",
  "chaincode",
] as const;
export type FailureSuggestion = (typeof FAILURE_SUGGESTIONS)[number];

/** A name: 1–50 characters of letters, digits, Chinese, spaces and `.-_`. */
export const TEST_SERVICE_NAME_RE = /^[A-Za-z0-9\u4e00-\u9fa5 ._-]{1,50}$/;
/** SPEC §5 version format like 1.0.1. */
export const TEST_SERVICE_VERSION_RE = /^\d{1,4}(\.\d{1,4}){1,3}$/;
/** The largest Solidity source typed in (the compiler refuses more than 1 MB of sources anyway). */
export const TEST_SOURCE_MAX = 200_000;
