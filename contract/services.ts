import * as z from "zod";
import { nothing, type PathSpec } from "./path-spec.ts";
import { pageOf, pageRequestSchema, pagingFields } from "./platform.ts";
import { REVIEW_COMMENTS_MAX, decisionFields, decisionFormSchema, idempotencyKey, required } from "./rules.ts";
import { RefundState } from "./service-status.ts";
import { functionFields, namedNodeSchema, packageSchema, roleFields, upgradeRowSchema } from "./service-parts.ts";

/* ------------------------------------------------------------------------------------------------
 * The consortium-chain service lifecycle after submission (SPEC §2 PublishedServices, ServicesDetail;
 * §4 Service status and action availability; §5 Service, comments; §8 Payments, Services and nodes;
 * §9 Billing, Time). docs/decisions/010 and 012.
 * ---------------------------------------------------------------------------------------------- */

/**
 * A finding of the test or deploy job: an i18n key of the `services` namespace and its parameters.
 * Stored in app_versions.testReport / deployReport `reasons` as JSON strings (docs/decisions/012).
 */
export const findingSchema = z.object({ key: z.string(), params: z.record(z.string(), z.string()).default({}) });
export type Finding = z.infer<typeof findingSchema>;

export const reportSchema = z.object({
  passed: z.boolean(),
  reasons: z.array(findingSchema),
  suggestion: findingSchema.nullable(),
});
export type Report = z.infer<typeof reportSchema>;

/** One row of PublishedServices: the flags serviceActions() needs and what the list shows. */
export const serviceRowSchema = z.object({
  appId: z.number().int(),
  appVerId: z.number().int(),
  appCode: z.string(),
  name: z.string(),
  version: z.string(),
  verState: z.number().int(),
  billState: z.number().int(),
  billId: z.number().int().nullable(),
  verUpable: z.boolean(),
  crossStatus: z.number().int(),
  freeYN: z.number().int(),
  costCents: z.number().int().nullable(),
  createdAt: z.string(),
  publishedAt: z.string().nullable(),
  /** An unsubscription waiting for the operator's review. */
  refundPending: z.boolean(),
  /** At 40: when the publisher asked operations to lift the suspension, while that request is pending (015). */
  enableRequestedAt: z.string().nullable(),
  /** An unpaid bill of the running service (a renewal, docs/decisions/036): Pay opens it. */
  unpaidBillId: z.number().int().nullable(),
});
export type ServiceRow = z.infer<typeof serviceRowSchema>;

export { packageSchema };
export const functionSchema = z.object({
  ...functionFields,
  packageName: z.string(),
  parentName: z.string().nullable(),
});
export const roleSchema = z.object({ ...roleFields, functions: z.array(z.string()) });
export const nodeSchema = namedNodeSchema.extend({
  code: z.string(),
  bookedAt: z.string().nullable(),
});

/**
 * SPEC "Deployment per node" (docs/decisions/052): each city node of the service, its block height read from the
 * chain, its endpoint with the viewer's key, and its status. awaitingPeer: a Fabric service, booked, whose
 * chaincode is not installed on the embedded Fabric peer (yet); awaitingNetwork: a Fabric service whose chaincode is
 * Go or Java, which runs only on a connected Fabric network, with none connected (docs/decisions/069); notAvailable: booked, with nothing behind it on this portal.
 */
export const DEPLOYMENT_NODE_STATUSES = [
  "running",
  "stopped",
  "deploying",
  "notDeployed",
  "awaitingPeer",
  "awaitingNetwork",
  "notAvailable",
] as const;
export const deploymentNodeSchema = z.object({
  cityNodeId: z.number().int(),
  code: z.string(),
  name: z.string(),
  nameZh: z.string(),
  height: z.number().int().nullable(),
  endpoint: z.string().nullable(),
  status: z.enum(DEPLOYMENT_NODE_STATUSES),
});
export type DeploymentNode = z.infer<typeof deploymentNodeSchema>;
export const transitionSchema = z.object({
  event: z.string(),
  fromState: z.number().int(),
  toState: z.number().int(),
  actorKind: z.string(),
  actorName: z.string().nullable(),
  comments: z.string().nullable(),
  createdAt: z.string(),
});
export const commentSchema = z.object({
  commentId: z.number().int(),
  userName: z.string(),
  text: z.string(),
  reply: z.string().nullable(),
  repliedAt: z.string().nullable(),
  usefulCount: z.number().int(),
  createdAt: z.string(),
});
export const billSummarySchema = z.object({
  billId: z.number().int(),
  billNo: z.string(),
  payState: z.number().int(),
  totalCents: z.number().int(),
  deadline: z.string(),
  paidAt: z.string().nullable(),
});
export const refundSchema = z.object({
  refundId: z.number().int(),
  state: z.number().int(),
  amountCents: z.number().int(),
  reason: z.string().nullable(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
  reviewComments: z.string().nullable(),
});

/** The version's contents as reviewers and the detail page see them. */
export const versionContentsSchema = z.object({
  packages: z.array(packageSchema),
  functions: z.array(functionSchema),
  roles: z.array(roleSchema),
  nodes: z.array(nodeSchema),
  costCents: z.number().int().nullable(),
  testReport: reportSchema.nullable(),
  deployReport: reportSchema.nullable(),
});

/** A service's own chain as its publisher and participants see it (docs/decisions/038). */
export const serviceChainSchema = z.object({
  chainName: z.string(),
  chainId: z.number().int(),
  /** /chain/service/<the viewer's key>: JSON-RPC on the service's chain. */
  endpointPath: z.string(),
  /** The viewer's own key (in endpointPath; a city node's endpoint is /chain/service/<code>/<key>). */
  key: z.string(),
  contracts: z.array(
    z.object({
      packageName: z.string(),
      contractName: z.string(),
      address: z.string(),
      txHash: z.string(),
      blockNumber: z.number().int(),
    }),
  ),
});

export const serviceDetailSchema = serviceRowSchema.extend({
  industry: z.string(),
  description: z.string(),
  introduction: z.string(),
  framework: z.string(),
  paymentCycle: z.number().int(),
  crossChain: z.boolean(),
  crossProtocol: z.number().int().nullable(),
  certificateMode: z.number().int().nullable(),
  submittedAt: z.string().nullable(),
  approvedAt: z.string().nullable(),
  contents: versionContentsSchema,
  transitions: z.array(transitionSchema),
  comments: z.array(commentSchema),
  history: z.array(
    z.object({
      appVerId: z.number().int(),
      version: z.string(),
      verState: z.number().int(),
      createdAt: z.string(),
      publishedAt: z.string().nullable(),
    }),
  ),
  bill: billSummarySchema.nullable(),
  refunds: z.array(refundSchema),
  /** The note of the pending request to lift the suspension (enableRequestedAt). */
  enableRequestNote: z.string().nullable(),
  /** Cross-chain: §4 crossStatus with the flag and protocol above. */
  currentVerId: z.number().int().nullable(),
  /** The paid period of the payment cycle (docs/decisions/036). */
  cycleEnd: z.string().nullable(),
  /** The service's configuration upgrades, newest first. */
  upgrades: z.array(upgradeRowSchema),
  /** An EVM service's own chain (docs/decisions/038, 052): its id, the endpoint with the viewer's key, this version's contracts. */
  chain: serviceChainSchema.nullable(),
  /** Deployment per node (docs/decisions/052). */
  deployment: z.array(deploymentNodeSchema),
  /** The service's traffic over the last 7 UTC+8 days, today last (docs/decisions/057): all callers together. */
  traffic: z.array(
    z.object({
      day: z.string(),
      calls: z.number().int().nonnegative(),
      bytesIn: z.number().int().nonnegative(),
      bytesOut: z.number().int().nonnegative(),
    }),
  ),
});
export type ServiceDetail = z.infer<typeof serviceDetailSchema>;

/* Forms (one schema each, for the portal's Conform and the backend). */
export const COMMENT_MAX = 150;

/** Operator review decision: comments are required to reject (§5 "Review comments are required"). */
export const reviewDecisionSchema = decisionFormSchema({ appVerId: z.coerce.number().int().positive() });

export const refundDecisionSchema = decisionFormSchema({ refundId: z.coerce.number().int().positive() });

/** §5 "Reply content required"; a reply is as long as a comment may be. */
export const replySchema = z.object({
  appId: z.coerce.number().int().positive(),
  commentId: z.coerce.number().int().positive(),
  reply: required().max(COMMENT_MAX, "validation.tooLong"),
});

/**
 * Destructive actions (deactivate, unsubscribe, suspend) are confirmed by typing the service's name
 * (docs/decisions/029): surrounding spaces aside, exactly as the service is named.
 */
export const CONFIRM_NAME_MAX = 100;
export const sameServiceName = (typed: string, name: string) =>
  typed.trim().normalize("NFC") === name.trim().normalize("NFC");
/** The typed name in a payload: when present, the backend refuses a mismatch with a field error on `confirmName`. */
const confirmName = z.string().max(CONFIRM_NAME_MAX).optional();
/** The typed name in a form: required, and with the name known (in the browser) it must match. */
export function typedNameField(name?: string) {
  return z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .max(CONFIRM_NAME_MAX, "validation.tooLong")
    .refine((v) => name === undefined || sameServiceName(v, name), "validation.nameMismatch");
}
/** The confirm form of deactivate and unsubscribe (the reason only for unsubscribe). */
export function lifecycleConfirmSchema(name?: string) {
  return z.object({
    appVerId: z.coerce.number().int().positive(),
    reason: z.string().trim().max(200, "validation.tooLong").optional(),
    confirmName: typedNameField(name),
  });
}

/** At 40 the publisher's "Enable" asks operations to lift the suspension, with an optional note (015). */
export const ENABLE_NOTE_MAX = 200;
const enableNote = z.string().trim().max(ENABLE_NOTE_MAX, "validation.tooLong").optional();
export const enableRequestSchema = z.object({ appVerId: z.coerce.number().int().positive(), note: enableNote });

/**
 * An operator's decision in the running-services queue: suspend a running service (25 → 40), enable a
 * suspended one (40 → 25), or decline the publisher's pending request to enable it (40 stays). Suspending
 * and declining need comments; the portal says so at the row, the backend refuses with MSG_30014.
 */
export const SERVICE_OPS_DECISIONS = ["suspend", "enable", "decline"] as const;
export type ServiceOpsDecision = (typeof SERVICE_OPS_DECISIONS)[number];
export const serviceOpsDecisionSchema = z.object({
  appVerId: z.coerce.number().int().positive(),
  decision: z.enum(SERVICE_OPS_DECISIONS),
  comments: z.string().trim().max(REVIEW_COMMENTS_MAX, "validation.tooLong").optional(),
  /** Suspending is confirmed by typing the service's name. */
  confirmName,
});

/** The running-services queue's filters: 25, 40, 40 with a pending request, or both statuses. */
export const SERVICE_OPS_FILTERS = ["running", "suspended", "requested", "all"] as const;
export type ServiceOpsFilter = (typeof SERVICE_OPS_FILTERS)[number];

export const paySchema = z.object({ appVerId: z.coerce.number().int().positive(), idempotencyKey: idempotencyKey() });

const verRef = z.object({ appVerId: z.number().int().positive() });

export const reviewItemSchema = serviceRowSchema.extend({
  publisher: z.string(),
  submittedAt: z.string().nullable(),
  contents: versionContentsSchema,
});
export const refundItemSchema = refundSchema.extend({
  appId: z.number().int(),
  appVerId: z.number().int(),
  name: z.string(),
  version: z.string(),
  verState: z.number().int(),
  publisher: z.string(),
});

export const opsServiceItemSchema = serviceRowSchema.extend({
  publisher: z.string(),
  /** When the version entered its current status (running since / suspended since). */
  since: z.string(),
  /** At 40: the operator's comments when suspending it. */
  suspendComments: z.string().nullable(),
  enableRequestNote: z.string().nullable(),
});

/** SPEC §2 JOIN link: short query keys a to e (docs/decisions/012). */
export const invitationSchema = z.object({ path: z.string(), expiresAt: z.string() });

export const servicePaths = {
  "/sys/chainAppInfo/publishedList": {
    auth: "user",
    permission: "read",
    payload: pageRequestSchema,
    data: pageOf(serviceRowSchema),
  },
  "/sys/chainAppInfo/publishedDetail": {
    auth: "user",
    permission: "read",
    payload: z.object({ appId: z.number().int().positive(), appVerId: z.number().int().positive().optional() }),
    data: serviceDetailSchema,
  },
  "/sys/chainAppInfo/payPublishBill": {
    auth: "user",
    // Paying for the member's own service is theirs within their spending limit (docs/decisions/080).
    permission: "services",
    payload: z.object({ appVerId: z.number().int().positive(), idempotencyKey: idempotencyKey() }),
    data: z.object({ billId: z.number().int(), replayed: z.boolean() }),
  },
  "/sys/chainAppInfo/deactivate": {
    auth: "user",
    permission: "services",
    payload: verRef.extend({ confirmName }),
    data: nothing,
  },
  "/sys/chainAppInfo/enable": { auth: "user", permission: "services", payload: verRef, data: nothing },
  "/sys/chainAppInfo/unsubscribe": {
    auth: "user",
    permission: "services",
    payload: z.object({
      appVerId: z.number().int().positive(),
      reason: z.string().trim().max(200).optional(),
      confirmName,
    }),
    data: z.object({ refundId: z.number().int() }),
  },
  "/sys/chainAppInfo/requestEnable": {
    auth: "user",
    permission: "services",
    payload: z.object({ appVerId: z.number().int().positive(), note: enableNote }),
    data: nothing,
  },
  "/sys/chainAppInfo/invite": {
    auth: "user",
    permission: "services",
    payload: verRef.extend({ language: z.enum(["en", "zh-CN"]).default("en") }),
    data: invitationSchema,
  },
  "/sys/chainAppInfo/replyComment": {
    auth: "user",
    permission: "services",
    payload: z.object({
      appId: z.number().int().positive(),
      commentId: z.number().int().positive(),
      reply: required().max(COMMENT_MAX, "validation.tooLong"),
    }),
    data: nothing,
  },
  "/sys/ops/serviceReviews/list": {
    auth: "operator",
    payload: z.object({
      queue: z.enum(["initial", "final"]),
      name: z.string().trim().max(50).optional(),
      ...pagingFields,
    }),
    data: pageOf(reviewItemSchema),
  },
  "/sys/ops/serviceReviews/decide": {
    auth: "operator",
    payload: z.object({ appVerId: z.number().int().positive(), ...decisionFields() }),
    data: z.object({ verState: z.number().int() }),
  },
  "/sys/ops/refunds/list": {
    auth: "operator",
    payload: z.object({
      state: z
        .union([z.literal(RefundState.PENDING), z.literal(RefundState.NOT_APPROVED), z.literal(RefundState.APPROVED)])
        .default(RefundState.PENDING),
      ...pagingFields,
    }),
    data: pageOf(refundItemSchema),
  },
  "/sys/ops/refunds/decide": {
    auth: "operator",
    payload: z.object({ refundId: z.number().int().positive(), ...decisionFields() }),
    data: z.object({ state: z.number().int() }),
  },
  "/sys/ops/services/list": {
    auth: "operator",
    payload: z.object({
      filter: z.enum(SERVICE_OPS_FILTERS).default("all"),
      name: z.string().trim().max(50).optional(),
      pageIndex: z.number().int().min(1).default(1),
      pageSize: z.number().int().min(1).max(50).default(10),
    }),
    data: pageOf(opsServiceItemSchema),
  },
  "/sys/ops/services/decide": {
    auth: "operator",
    payload: z.object({
      appVerId: z.number().int().positive(),
      decision: z.enum(SERVICE_OPS_DECISIONS),
      comments: z.string().trim().max(REVIEW_COMMENTS_MAX).optional(),
      confirmName,
    }),
    data: z.object({ verState: z.number().int() }),
  },
} satisfies Record<string, PathSpec>;

/* ------------------------------------------------------------------------------------------------
 * Tests only (TEST_FIXTURES=1): a complete service version for the caller (backend/domains/services/fixtures.ts).
 * ---------------------------------------------------------------------------------------------- */
export const SERVICE_FIXTURE_STATES = [5, 10, 15, 23, 24, 25, 30] as const;
export const BAD_PACKAGE_KINDS = ["zip", "mainPath", "language", "func", "size"] as const;

export const serviceFixtureSchema = z.object({
  name: z.string().min(1).max(50).optional(),
  verState: z
    .number()
    .int()
    .refine((v) => (SERVICE_FIXTURE_STATES as readonly number[]).includes(v))
    .default(5),
  free: z.boolean().default(false),
  costCents: z.number().int().min(0).default(12_000),
  /** A deliberately bad package the test job must catch. */
  badPackage: z.enum(BAD_PACKAGE_KINDS).optional(),
  /** TPS booked on each node (more than a node has makes the deployment fail). */
  tps: z.number().int().min(1).max(1_000_000).default(100),
  /** Capacity (GB) booked on each node (more than a node has left makes the deployment fail). */
  capacityGb: z.number().int().min(1).max(100_000).default(50),
  /** How many city nodes (first ones of the catalogue). */
  nodeCount: z.number().int().min(1).max(4).default(2),
  comments: z.array(z.string().max(150)).max(10).default([]),
  /**
   * An EVM framework: Solidity packages deployed on the service's own chain (docs/decisions/038, 052); fabric
   * (only where a test is about Fabric): Node.js packages, booked until the Fabric peer exists.
   */
  framework: z.enum(["fisco", "cita", "xuperchain", "fabric"]).default("fisco"),
});
export const serviceFixturePaths = {
  "/test/services": {
    auth: "user",
    permission: "services",
    payload: serviceFixtureSchema,
    data: z.object({ appId: z.number().int(), appVerId: z.number().int(), name: z.string() }),
  },
} satisfies Record<string, PathSpec>;
