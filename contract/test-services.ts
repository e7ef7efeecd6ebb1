import * as z from "zod";
import { type PathSpec, nothing } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { uploadIdSchema } from "./uploads.ts";
import { CONFIRM_NAME_MAX } from "./services.ts";
import {
  TEST_SERVICE_NAME_RE,
  TEST_SERVICE_PLATFORMS,
  TEST_SERVICE_SOURCES,
  TEST_SERVICE_VERSION_RE,
  TEST_SOURCE_MAX,
} from "./test-services-codes.ts";
export * from "./test-services-codes.ts";

/*
 * Test services (SPEC §2 TestServices, §3 Test service, §4 statuses; docs/decisions/034): contracts deployed
 * on the free test network from Solidity source or a chaincode package, with their access parameters and a
 * keyed JSON-RPC endpoint. Operators reset the test network. Messages are keys of the testServices namespace
 * or the shared ones.
 */

const id = () => z.coerce.number().int().positive();

/** SPEC §3 Test service, with what its detail shows. */
export const testServiceSchema = z.object({
  testServiceId: z.number().int(),
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  sourceKind: z.enum(TEST_SERVICE_SOURCES),
  /** Typed source (sourceKind "source"), or the package's .sol files joined for reading. */
  source: z.string(),
  packageName: z.string().nullable(),
  mainContract: z.string(),
  initParams: z.string(),
  status: z.number().int(),
  deployTime: z.string().nullable(),
  createdAt: z.string(),
  failReason: z.string().nullable(),
  suggestion: z.string().nullable(),
  /** The access parameters (once deployed; null before). */
  userCode: z.string(),
  appCode: z.string(),
  chainName: z.string().nullable(),
  chainId: z.number().int().nullable(),
  contractName: z.string().nullable(),
  contractAddress: z.string().nullable(),
  chaincodeAddress: z.string().nullable(),
  deploymentName: z.string().nullable(),
  txHash: z.string().nullable(),
  blockNumber: z.number().int().nullable(),
  abi: z.array(z.unknown()).nullable(),
  /** "solidity", or "node": a Node.js chaincode on the embedded Fabric peer (docs/decisions/069). */
  language: z.string(),
  /** A Fabric test service's channel (`test-<app code>`) once deployed; its chaincode is `contractName`. */
  channel: z.string().nullable(),
  /** The endpoint path (/chain/test/<key>) with the test key; only in the detail. */
  accessPath: z.string().nullable(),
  /** The identity certificate (PEM) issued for the service's test identity. */
  certificatePem: z.string().nullable(),
});
export type TestService = z.infer<typeof testServiceSchema>;

const name = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, "validation.required")
  .regex(TEST_SERVICE_NAME_RE, "testServices:validation.name");
const version = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, "validation.required")
  .regex(TEST_SERVICE_VERSION_RE, "testServices:validation.version");
const platform = z.enum(TEST_SERVICE_PLATFORMS, { error: "testServices:validation.platform" });
const mainContract = z
  .string()
  .trim()
  .max(64, "validation.tooLong")
  .regex(/^([A-Za-z_$][A-Za-z0-9_$]*)?$/, "testServices:validation.mainContract")
  .default("");
const initParams = z.string().trim().max(500, "validation.tooLong").default("");
const source = z.string().max(TEST_SOURCE_MAX, "validation.tooLong").optional();

/** What creates or edits a test service: typed source, or an uploaded chaincode package (zip of .sol files). */
export const testServiceFields = z.object({
  name,
  version,
  platform,
  sourceKind: z.enum(TEST_SERVICE_SOURCES, { error: "validation.required" }),
  source,
  uploadId: uploadIdSchema.optional(),
  mainContract,
  initParams,
});
export type TestServiceFields = z.infer<typeof testServiceFields>;

const ref = z.object({ testServiceId: id() });

export const testNetworkSchema = z.object({
  chainName: z.string(),
  chainId: z.number().int(),
  generation: z.number().int(),
  resetAt: z.string().nullable(),
  height: z.number().int(),
  services: z.number().int(),
  deployed: z.number().int(),
});
export type TestNetwork = z.infer<typeof testNetworkSchema>;

/** The operator types the network's name to reset it (docs/decisions/029's typed confirmation). */
export const TEST_NETWORK_CONFIRM = "test-network";
export const testNetworkResetSchema = z.object({
  confirmName: z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .max(CONFIRM_NAME_MAX, "validation.tooLong")
    .refine((v) => v === TEST_NETWORK_CONFIRM, "validation.nameMismatch"),
});

/** A call of a Fabric test service's chaincode (docs/decisions/069): a query is simulated, an invoke committed. */
export const TEST_CHAINCODE_MODES = ["query", "invoke"] as const;
export const testChaincodeCallSchema = z.object({
  testServiceId: id(),
  mode: z.enum(TEST_CHAINCODE_MODES, { error: "validation.required" }),
  fn: z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .max(100, "validation.tooLong")
    .regex(/^[A-Za-z_$][A-Za-z0-9_$:.]*$/, "testServices:validation.function"),
  /** The arguments, one a line. */
  args: z.string().max(10_000, "validation.tooLong").default(""),
});
export const testChaincodeAnswerSchema = z.object({
  /** The chaincode's status (200 success, 500 its error) and message. */
  status: z.number().int(),
  message: z.string(),
  /** The payload as text. */
  payload: z.string(),
  txId: z.string(),
  /** Invoke: Fabric's validation code of the committed transaction (0 VALID); a query: null. */
  validationCode: z.number().int().nullable(),
  blockNumber: z.number().int().nullable(),
});
export type TestChaincodeAnswer = z.infer<typeof testChaincodeAnswerSchema>;

export const testServicePaths = {
  "/sys/testService/list": {
    auth: "user",
    permission: "read",
    payload: z.object(pagingFields),
    data: pageOf(testServiceSchema),
  },
  "/sys/testService/detail": { auth: "user", permission: "read", payload: ref, data: testServiceSchema },
  "/sys/testService/create": {
    auth: "user",
    permission: "services",
    payload: testServiceFields,
    data: testServiceSchema,
  },
  /** Edit: while not deployed, failed or waiting for a re-deploy. */
  "/sys/testService/edit": {
    auth: "user",
    permission: "services",
    payload: testServiceFields.extend({ testServiceId: id() }),
    data: testServiceSchema,
  },
  /** Start deploying: 1 → 5. */
  "/sys/testService/deploy": { auth: "user", permission: "services", payload: ref, data: testServiceSchema },
  /** Upgrade a deployed service: a new version (and source) deployed as a new contract, 10 → 5. */
  "/sys/testService/upgrade": {
    auth: "user",
    permission: "services",
    payload: testServiceFields.extend({ testServiceId: id() }),
    data: testServiceSchema,
  },
  /** Re-deploy the same source: 10, 15, 20 → 5. */
  "/sys/testService/redeploy": { auth: "user", permission: "services", payload: ref, data: testServiceSchema },
  "/sys/testService/delete": { auth: "user", permission: "services", payload: ref, data: nothing },
  /** Query or invoke a deployed Fabric test service's chaincode (docs/decisions/069). */
  "/sys/testService/chaincode": {
    auth: "user",
    permission: "services",
    payload: testChaincodeCallSchema,
    data: testChaincodeAnswerSchema,
  },
  /** The test identity's private key (PEM, PKCS#8), for the owner's own tools; any time, since it signs only on the test network. */
  "/sys/testService/identityKey": {
    auth: "user",
    permission: "services",
    payload: ref,
    data: z.object({ fileName: z.string(), pem: z.string() }),
  },
  "/sys/ops/testNetwork/status": { auth: "operator", payload: z.object({}), data: testNetworkSchema },
  "/sys/ops/testNetwork/reset": { auth: "operator", payload: testNetworkResetSchema, data: testNetworkSchema },
} satisfies Record<string, PathSpec>;

/** The portal's form (the package file travels as an upload beside it). */
export const testServiceFormSchema = testServiceFields.omit({ uploadId: true });
