import * as z from "zod";
import type { DownloadSpec } from "./download-spec.ts";
import { nothing, type PathSpec } from "./path-spec.ts";
import { pageOf, pageRequestSchema, pagingFields } from "./platform.ts";
import {
  decisionFields,
  decisionFormSchema,
  idempotencyKey,
  required,
  REVIEW_COMMENTS_MAX,
  shortSecret,
} from "./rules.ts";
import { LIST_STATUSES } from "./participation-codes.ts";
import { serviceChainSchema } from "./services.ts";
export * from "./participation-codes.ts";

/* ------------------------------------------------------------------------------------------------
 * Participation (SPEC §1 Service participant; §2 ParticipatedServices, ParticipationManagement,
 * MyCertificates; §3 Participation; §4 Participation audit; §5 Participation, Identity certificate; §7 the
 * /sys/chainAppInfo/* join calls; §8 Tokens invalid, Public key test failed, password error).
 * docs/decisions/013.
 * ---------------------------------------------------------------------------------------------- */

/* ----------------------------------------- the apply form ----------------------------------------- */

const applyFields = {
  appId: z.coerce.number().int().positive(),
  roleId: z.coerce.number({ error: "participation:validation.role" }).int().positive("participation:validation.role"),
  cityNodeIds: z
    .array(z.coerce.number().int().positive(), { error: "participation:validation.nodes" })
    .min(1, "participation:validation.nodes")
    .max(20, "validation.invalid"),
  certificateMode: z.coerce.number().int().min(1).max(3),
  /** Upload public key (mode 3): a PEM public key (ECDSA P-256), test data and its signature (base64 DER). */
  publicKey: z.string().trim().max(4000, "validation.tooLong").optional(),
  testData: z.string().max(1000, "validation.tooLong").optional(),
  signature: z.string().trim().max(400, "validation.tooLong").optional(),
  /** Key trust (mode 2): the certificate password that encrypts the downloaded key, confirmed. */
  password: z.string().max(40).optional(),
  confirmPassword: z.string().max(40).optional(),
};

type ApplyValues = {
  certificateMode: number;
  publicKey?: string;
  testData?: string;
  signature?: string;
  password?: string;
  confirmPassword?: string;
};

/** §5 Identity certificate: public key, test data and signature required (mode 3); password 6-20, confirmed (mode 2). */
function certificateRules(v: ApplyValues, ctx: z.RefinementCtx) {
  if (v.certificateMode === 3) {
    for (const field of ["publicKey", "testData", "signature"] as const) {
      if (!v[field]?.trim()) ctx.addIssue({ code: "custom", path: [field], message: "validation.required" });
    }
  }
  if (v.certificateMode === 2) {
    const problem = shortSecret().safeParse(v.password ?? "");
    if (!problem.success)
      ctx.addIssue({ code: "custom", path: ["password"], message: problem.error.issues[0].message });
    if (!v.confirmPassword) ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: "validation.required" });
    else if (v.password !== v.confirmPassword)
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: "validation.confirmMismatch" });
  }
}

/** One schema for the portal's apply form (Conform) and the backend. */
export const applySchema = z.object(applyFields).superRefine(certificateRules);
export const applyPayloadSchema = z
  .object({
    ...applyFields,
    cityNodeIds: z.array(z.number().int().positive()).min(1, "participation:validation.nodes").max(20),
    ticket: z.string().max(200).optional(),
  })
  .superRefine(certificateRules);

/** The publisher's and the operator's decision: comments are required to reject (§5). */
export const auditDecisionSchema = decisionFormSchema({ appJoinAuditId: z.coerce.number().int().positive() });

export const disableSchema = z.object({
  appJoinAuditId: z.coerce.number().int().positive(),
  comments: required().max(REVIEW_COMMENTS_MAX, "validation.tooLong"),
});

/* ------------------------------------------- data shapes ------------------------------------------- */

export const joinTransitionSchema = z.object({
  event: z.string(),
  fromState: z.number().int(),
  toState: z.number().int(),
  actorKind: z.string(),
  comments: z.string().nullable(),
  createdAt: z.string(),
});

export const joinRoleSchema = z.object({
  roleId: z.number().int(),
  name: z.string(),
  description: z.string(),
  functions: z.array(z.string()),
});

export const joinCitySchema = z.object({
  cityNodeId: z.number().int(),
  code: z.string(),
  name: z.string(),
  nameZh: z.string(),
  operator: z.string(),
  cloudProvider: z.string(),
  operatorZh: z.string().nullable(),
  cloudProviderZh: z.string().nullable(),
  /** The service already runs on this node: joining there orders nothing. */
  released: z.boolean(),
  /** What ordering an access node there costs for one month (0 when released). */
  orderCents: z.number().int(),
  /** Chosen by the participation of `joinAuditId`. */
  selected: z.boolean(),
});

export const certificateSummarySchema = z.object({
  certificateId: z.number().int(),
  appJoinAuditId: z.number().int(),
  appId: z.number().int(),
  appName: z.string(),
  appCode: z.string(),
  roleName: z.string(),
  mode: z.number().int(),
  serialNumber: z.string(),
  subject: z.string(),
  issuer: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  revokedAt: z.string().nullable(),
  /** A private key can be downloaded: always for key trust (encrypted), once for a participant certificate. */
  keyAvailable: z.boolean(),
  /** The certificate may be downloaded now (the participation is approved and not disabled). */
  downloadable: z.boolean(),
});

export const participationSchema = z.object({
  appJoinAuditId: z.number().int(),
  auditState: z.number().int(),
  listStatus: z.enum(LIST_STATUSES),
  roleId: z.number().int(),
  roleName: z.string(),
  certificateMode: z.number().int(),
  disabled: z.boolean(),
  createdAt: z.string(),
  cityNodes: z.array(z.object({ cityNodeId: z.number().int(), name: z.string(), nameZh: z.string() })),
  transitions: z.array(joinTransitionSchema),
  /**
   * The node order, when one was billed. `expired`: its bill expired unpaid (orderExpired); paying re-issues
   * it at the current prices, `reissueCents` (null when not expired).
   */
  order: z
    .object({
      billId: z.number().int(),
      billNo: z.string(),
      payState: z.number().int(),
      totalCents: z.number().int(),
      deadline: z.string(),
      expired: z.boolean(),
      reissueCents: z.number().int().nullable(),
    })
    .nullable(),
  accessAllowed: z.boolean(),
  certificateId: z.number().int().nullable(),
});

export const joinViewSchema = z.object({
  appId: z.number().int(),
  appCode: z.string(),
  name: z.string(),
  publisher: z.string(),
  industry: z.string(),
  description: z.string(),
  introduction: z.string(),
  version: z.string(),
  verState: z.number().int(),
  certificateMode: z.number().int(),
  isPublic: z.boolean(),
  /** 1 when the caller has a participation (appJoinAuditId). */
  ifJoIn: z.union([z.literal(0), z.literal(1)]),
  /** The caller may apply now (running, not the publisher, no open application, a valid ticket or public). */
  canApply: z.boolean(),
  participation: participationSchema.nullable(),
});
export type JoinView = z.infer<typeof joinViewSchema>;

export const participatedRowSchema = z.object({
  appJoinAuditId: z.number().int(),
  appId: z.number().int(),
  appCode: z.string(),
  name: z.string(),
  roleName: z.string(),
  auditState: z.number().int(),
  verState: z.number().int(),
  listStatus: z.enum(LIST_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const manageRowSchema = z.object({
  appJoinAuditId: z.number().int(),
  appId: z.number().int(),
  name: z.string(),
  applicant: z.string(),
  applicantRealName: z.string(),
  roleName: z.string(),
  auditState: z.number().int(),
  disabled: z.boolean(),
  createdAt: z.string(),
});

export const manageViewSchema = manageRowSchema.extend({
  appCode: z.string(),
  applicantEmail: z.string(),
  certificateMode: z.number().int(),
  certificateSubject: z.string().nullable(),
  cityNodes: z.array(z.object({ cityNodeId: z.number().int(), name: z.string(), nameZh: z.string() })),
  transitions: z.array(joinTransitionSchema),
});

export const opsItemSchema = manageRowSchema.extend({ publisher: z.string(), cityNodes: z.array(z.string()) });

export const joinParamsSchema = z.object({
  appId: z.number().int(),
  appCode: z.string(),
  name: z.string(),
  userCode: z.string(),
  roleName: z.string(),
  /** Per chosen city node: its endpoint with the participant's key (absolute), or null when not available yet (052). */
  gateways: z.array(
    z.object({ cityNodeId: z.number().int(), name: z.string(), nameZh: z.string(), gatewayUrl: z.string().nullable() }),
  ),
  certificate: certificateSummarySchema.nullable(),
  /** The service's own chain, with the participant's key in the endpoint (FISCO BCOS and CITA; docs/decisions/038). */
  chain: serviceChainSchema.nullable(),
});

const joinRef = z.object({ appJoinAuditId: z.number().int().positive() });
const paged = <C extends z.ZodType>(condition: C) =>
  z.object({
    page: z.object({
      pageSize: z.number().int().min(1).max(999).default(10),
      pageIndex: z.number().int().min(1).default(1),
      condition,
    }),
  });

export const participationPaths = {
  /** §7: appId and the token of the link (the invitation token, or the appCode of a public service). */
  "/sys/chainAppInfo/applyJoinApp": {
    auth: "user",
    permission: "services",
    payload: z.object({
      appId: z.number().int().positive(),
      token: z.string().trim().min(1).max(100),
      /** The invitation's d (expiry, Unix seconds) and e (language): the token signs them (docs/decisions/012). */
      expiry: z.string().max(20).optional(),
      language: z.string().max(10).optional(),
    }),
    data: z.object({
      participatedYn: z.union([z.literal(0), z.literal(1)]),
      appJoinAuditId: z.number().int().nullable(),
      auditState: z.number().int().nullable(),
      appCode: z.string(),
      /** Lets the caller apply to this service for 24 hours (bound to the caller). */
      ticket: z.string().nullable(),
    }),
  },
  "/sys/chainAppInfo/queryRolesForAppList": {
    auth: "user",
    permission: "read",
    payload: paged(z.object({ appId: z.number().int().positive(), ticket: z.string().max(200).optional() })),
    data: pageOf(joinRoleSchema),
  },
  "/sys/chainAppInfo/queryReleaseRolesForAppList": {
    auth: "user",
    permission: "read",
    payload: paged(z.object({ appId: z.number().int().positive(), joinAuditId: z.number().int().positive() })),
    data: pageOf(joinRoleSchema),
  },
  "/sys/chainAppInfo/queryReleaseCitysForAppList": {
    auth: "user",
    permission: "read",
    payload: paged(
      z.object({
        appId: z.number().int().positive(),
        joinAuditId: z.number().int().positive().optional(),
        ticket: z.string().max(200).optional(),
      }),
    ),
    data: pageOf(joinCitySchema),
  },
  "/sys/chainAppInfo/view": {
    auth: "user",
    permission: "read",
    payload: z.object({
      appId: z.number().int().positive(),
      appJoinAuditId: z.number().int().positive().optional(),
      ticket: z.string().max(200).optional(),
    }),
    data: joinViewSchema,
  },
  "/sys/chainAppInfo/joinApp": {
    auth: "user",
    permission: "services",
    payload: applyPayloadSchema,
    data: z.object({ appJoinAuditId: z.number().int(), auditState: z.number().int(), certificateId: z.number().int() }),
  },
  "/sys/chainAppInfo/getJoinParamList": { auth: "user", permission: "read", payload: joinRef, data: joinParamsSchema },
  "/sys/chainAppInfo/participatedList": {
    auth: "user",
    permission: "read",
    payload: paged(
      z.object({ name: z.string().max(50).optional(), status: z.enum(LIST_STATUSES).optional() }).default({}),
    ),
    data: pageOf(participatedRowSchema),
  },
  "/sys/chainAppInfo/payJoinOrder": {
    auth: "user",
    // Paying for the member's own service is theirs within their spending limit (docs/decisions/080).
    permission: "services",
    payload: joinRef.extend({ idempotencyKey: idempotencyKey() }),
    /** `reissued`: the order had expired; a fresh bill (`billId`) was issued at current prices and paid. */
    data: z.object({ billId: z.number().int(), replayed: z.boolean(), reissued: z.boolean() }),
  },
  "/sys/chainAppInfo/confirmJoin": { auth: "user", permission: "services", payload: joinRef, data: nothing },
  /**
   * §7 "auditAppJoined": the publisher's decision. §8 Status error: the valid values are 1 approved, 2 unapproved;
   * any other number is answered with its own message, MSG_10422 (`Msg.STATUS_ERROR`), at the field too.
   */
  "/sys/chainAppInfo/auditAppJoined": {
    auth: "user",
    permission: "services",
    payload: joinRef.extend({
      auditState: z.number().int(),
      comments: z.string().trim().max(REVIEW_COMMENTS_MAX).optional(),
    }),
    data: z.object({ auditState: z.number().int() }),
  },
  "/sys/chainAppInfo/disableJoin": {
    auth: "user",
    permission: "services",
    payload: joinRef.extend({ comments: z.string().trim().min(1, "validation.required").max(REVIEW_COMMENTS_MAX) }),
    data: nothing,
  },
  "/sys/chainAppInfo/joinManageList": {
    auth: "user",
    permission: "read",
    payload: paged(
      z.object({ name: z.string().max(50).optional(), auditState: z.number().int().optional() }).default({}),
    ),
    data: pageOf(manageRowSchema),
  },
  "/sys/chainAppInfo/joinManageView": { auth: "user", permission: "read", payload: joinRef, data: manageViewSchema },
  "/sys/chainAppInfo/myCertificates": {
    auth: "user",
    permission: "read",
    payload: pageRequestSchema,
    data: pageOf(certificateSummarySchema),
  },
  /** A certificate (PEM) or its key: key trust's encrypted PKCS#8 any time, a participant certificate's key once. */
  "/sys/chainAppInfo/certificateFile": {
    auth: "user",
    permission: "services",
    payload: z.object({ certificateId: z.number().int().positive(), kind: z.enum(["certificate", "key"]) }),
    data: z.object({ fileName: z.string(), pem: z.string() }),
  },
  "/sys/ops/participations/list": {
    auth: "operator",
    payload: z.object(pagingFields),
    data: pageOf(opsItemSchema),
  },
  /** Tests only (TEST_FIXTURES=1): set the certificate mode and public flag of one of the caller's running services. */
  "/test/participation/service": {
    auth: "user",
    permission: "services",
    payload: z.object({
      appId: z.number().int().positive(),
      certificateMode: z.number().int().min(1).max(3).optional(),
      isPublic: z.boolean().optional(),
    }),
    data: nothing,
  },
  /** Tests only (TEST_FIXTURES=1): the deadline of the caller's unpaid node order passes now (the expiry job has not run yet). */
  "/test/participation/order": { auth: "user", permission: "services", payload: joinRef, data: nothing },
  "/sys/ops/participations/decide": {
    auth: "operator",
    payload: joinRef.extend(decisionFields()),
    data: z.object({ auditState: z.number().int() }),
  },
} satisfies Record<string, PathSpec>;

/**
 * The participant's access kit (issue 28 item 7; docs/decisions/070): a zip of what reaching the service takes
 * (endpoints, TLS CA, the certificate chain, contracts or chaincode functions, a sample script), never a key.
 */
export const participationDownloads = {
  "participant-access-kit": { auth: "user", permission: "services", payload: joinRef },
  /**
   * The publisher's download of their service's CA certificate (PEM; docs/decisions/068): the MSP a connected Fabric
   * network's admin adds to the service's channel. Anyone else's service is a 404.
   */
  "service-ca-certificate": {
    auth: "user",
    permission: "services",
    payload: z.object({ appId: z.number().int().positive() }),
  },
} satisfies Record<string, DownloadSpec>;
