import * as z from "zod";
import { type PathSpec } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { idempotencyKey, moneyAmount, required } from "./rules.ts";
import { ACCOUNT_NAME_RE, GAS_RANGES, KEY_TYPES, PUBLIC_CHAIN_FRAMEWORKS, STATS_RANGES } from "./public-chain-codes.ts";
export * from "./public-chain-codes.ts";

/*
 * The public chain (SPEC §1, §2 PermissionlessServices, §3, §4, §5, §7, §8, §9; docs/decisions/026): the
 * organisation nodes that offer it with their plans, plans bought from the balance, open-alliance projects
 * with their keyed JSON-RPC endpoint, and chain accounts with gas. Form fields keep the typed strings;
 * record ids are numbers. Validation messages are keys of the `publicChain` namespace or the shared ones.
 */

const id = () => z.number().int().positive();

/** SPEC §3 Public-chain organisation node record, with the plan it offers and its limits. */
export const pubOrgSchema = z.object({
  orgId: z.number().int(),
  orgCode: z.string(),
  orgName: z.string(),
  orgNameZh: z.string(),
  opName: z.string(),
  opNameZh: z.string().nullable(),
  planName: z.string(),
  planNameZh: z.string(),
  appType: z.number().int(),
  /** The plan's fee for its period, USD cents. */
  priceCents: z.number().int(),
  periodDays: z.number().int(),
  /** Whether the caller holds a plan on this node, and that plan's id. */
  userHaveOrg: z.boolean(),
  clientHaveOrgId: z.number().int().nullable(),
  haveProjectMax: z.number().int(),
  haveProjectNum: z.number().int(),
  haveProject: z.boolean(),
  /** The daily requests a project of this plan may ask for: from haveDayMinReq to haveDayMaxReq. */
  haveDayMinReq: z.number().int(),
  haveDayMaxReq: z.number().int(),
  frameworks: z.array(z.string()),
});
export type PubOrg = z.infer<typeof pubOrgSchema>;

/** SPEC §7 /sys/pubChainOrg/queryPubOrgList: page{pageSize,pageIndex,condition{orgName,appType,orgId}}. */
export const pubOrgListPayload = z.object({
  page: z
    .object({
      pageSize: z.number().int().min(1).max(999).default(10),
      pageIndex: z.number().int().min(1).default(1),
      condition: z
        .object({
          orgName: z.string().trim().max(50).optional(),
          appType: z.number().int().optional(),
          orgId: z.number().int().positive().optional(),
        })
        .default({}),
    })
    .default({ pageSize: 10, pageIndex: 1, condition: {} }),
});

export const planSchema = z.object({
  planId: z.number().int(),
  orgId: z.number().int(),
  orgName: z.string(),
  orgNameZh: z.string(),
  planName: z.string(),
  planNameZh: z.string(),
  status: z.number().int(),
  billId: z.number().int().nullable(),
  billNo: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  projectMax: z.number().int(),
  projectNum: z.number().int(),
});
export type Plan = z.infer<typeof planSchema>;

export const projectSchema = z.object({
  projectId: z.number().int(),
  planId: z.number().int(),
  orgName: z.string(),
  orgNameZh: z.string(),
  name: z.string(),
  framework: z.string(),
  /** The chain it runs on (the open-alliance chain) and its EIP-155 id. */
  chain: z.string(),
  chainId: z.number().int().nullable(),
  dailyRequests: z.number().int(),
  status: z.number().int(),
  failReason: z.string().nullable(),
  /** The key: whether one is provisioned, enabled, and its last 4 characters. */
  keyProvisioned: z.boolean(),
  keyEnabled: z.boolean(),
  keyHint: z.string().nullable(),
  /** The endpoint paths (under the site's root): with the key in the path, and with the x-api-key header. */
  endpointPath: z.string().nullable(),
  headerEndpointPath: z.string(),
  requestsToday: z.number().int(),
  createdAt: z.string(),
});
export type Project = z.infer<typeof projectSchema>;

export const projectCreateSchema = z.object({
  planId: id(),
  name: required().max(50, "validation.tooLong"),
  framework: z.enum(PUBLIC_CHAIN_FRAMEWORKS, { error: "publicChain:validation.framework" }),
  dailyRequests: z
    .string({ error: "publicChain:validation.dailyRequests" })
    .trim()
    .regex(/^[1-9][0-9]{0,9}$/, "publicChain:validation.dailyRequests"),
});

export const keySchema = z.object({
  projectId: z.number().int(),
  keyEnabled: z.boolean(),
  keyHint: z.string().nullable(),
  /** The key itself: only in the answer to show or regenerate. */
  apiKey: z.string().nullable(),
});

export const statsSchema = z.object({
  range: z.string(),
  days: z.array(z.string()),
  /** Requests counted (§9 rule) per day and method. */
  rows: z.array(z.object({ day: z.string(), method: z.string(), requests: z.number().int(), calls: z.number().int() })),
  total: z.number().int(),
});

/** A gas amount in wei, as a decimal string (it exceeds 2^53). */
const weiText = z.string();

export const chainAccountSchema = z.object({
  accountId: z.number().int(),
  projectId: z.number().int(),
  projectName: z.string(),
  name: z.string(),
  address: z.string(),
  keyType: z.number().int(),
  /** The gas (energy) balance read from the chain, wei; null when the chain did not answer. */
  gasWei: weiText.nullable(),
  gasWarningWei: weiText,
  /** The balance is below the warning value. */
  gasLow: z.boolean(),
  createdAt: z.string(),
});
export type ChainAccount = z.infer<typeof chainAccountSchema>;

/** Gas amounts as typed: ether with up to 18 decimals. */
const ETHER_RE = /^(0|[1-9][0-9]{0,8})(\.[0-9]{1,18})?$/;

export const accountCreateSchema = z
  .object({
    projectId: id(),
    name: required().max(50, "validation.tooLong").regex(ACCOUNT_NAME_RE, "publicChain:validation.accountName"),
    keyType: z.enum(KEY_TYPES.map(String) as [string, ...string[]], { error: "publicChain:validation.keyType" }),
    publicKey: z.string().trim().max(200, "validation.tooLong").optional(),
    address: z.string().trim().max(100, "validation.tooLong").optional(),
    gasWarning: z
      .string({ error: "publicChain:validation.gasWarning" })
      .trim()
      .regex(ETHER_RE, "publicChain:validation.gasWarning"),
  })
  .superRefine((v, ctx) => {
    if (v.keyType === "2" && !v.publicKey)
      ctx.addIssue({ code: "custom", path: ["publicKey"], message: "publicChain:validation.publicKey" });
    if (v.keyType === "3" && !v.address)
      ctx.addIssue({ code: "custom", path: ["address"], message: "publicChain:validation.addressRequired" });
  });

export const gasAssignmentSchema = z.object({
  assignmentId: z.number().int(),
  accountId: z.number().int(),
  billId: z.number().int(),
  billNo: z.string(),
  amountCents: z.number().int(),
  wei: weiText,
  status: z.number().int(),
  txHash: z.string().nullable(),
  failReason: z.string().nullable(),
  replayed: z.boolean(),
});

const projectRef = z.object({ projectId: id() });
const accountRef = z.object({ accountId: id() });

/** The /vueapi paths of the public chain (SPEC §7: /sys/pubChainOrg/queryPubOrgList and the /sys/opc… family). */
export const publicChainPaths = {
  "/sys/pubChainOrg/queryPubOrgList": {
    auth: "user",
    permission: "read",
    payload: pubOrgListPayload,
    data: pageOf(pubOrgSchema),
  },
  "/sys/opc/plan/buy": {
    auth: "user",
    permission: "services",
    payload: z.object({ orgId: id(), idempotencyKey: idempotencyKey() }),
    data: z.object({ planId: z.number().int(), billId: z.number().int(), billNo: z.string(), replayed: z.boolean() }),
  },
  "/sys/opc/plan/list": { auth: "user", permission: "read", payload: z.object({}), data: z.array(planSchema) },
  "/sys/opc/project/create": {
    auth: "user",
    permission: "services",
    payload: projectCreateSchema,
    data: projectSchema,
  },
  "/sys/opc/project/list": {
    auth: "user",
    permission: "read",
    payload: z.object({ ...pagingFields, planId: id().optional(), name: z.string().trim().max(50).optional() }),
    data: pageOf(projectSchema),
  },
  "/sys/opc/project/detail": { auth: "user", permission: "read", payload: projectRef, data: projectSchema },
  /** The user's moves of §4 (docs/decisions/026): enable (11, 15 or 20 → 16), deactivate (16 → 20). */
  "/sys/opc/project/enable": { auth: "user", permission: "services", payload: projectRef, data: projectSchema },
  "/sys/opc/project/deactivate": { auth: "user", permission: "services", payload: projectRef, data: projectSchema },
  /** A failed deployment (5) queued again (→ 1). */
  "/sys/opc/project/redeploy": { auth: "user", permission: "services", payload: projectRef, data: projectSchema },
  /** The project key: show it, regenerate it (the old one stops at once), enable or disable it. */
  "/sys/opc/project/key": {
    auth: "user",
    permission: "services",
    payload: z.object({ projectId: id(), action: z.enum(["show", "regenerate", "enable", "disable"]) }),
    data: keySchema,
  },
  "/sys/opc/project/stats": {
    auth: "user",
    permission: "read",
    payload: z.object({
      projectId: id(),
      range: z.enum(Object.keys(STATS_RANGES) as [keyof typeof STATS_RANGES]).default("7d"),
    }),
    data: statsSchema,
  },
  "/sys/opc/account/create": {
    auth: "user",
    permission: "services",
    payload: accountCreateSchema,
    data: chainAccountSchema,
  },
  "/sys/opc/account/list": {
    auth: "user",
    permission: "read",
    payload: z.object({ ...pagingFields, projectId: id().optional() }),
    data: pageOf(chainAccountSchema),
  },
  "/sys/opc/account/detail": {
    auth: "user",
    permission: "read",
    payload: z.object({
      accountId: id(),
      gasRange: z.enum(Object.keys(GAS_RANGES) as [keyof typeof GAS_RANGES]).default("5d"),
    }),
    data: chainAccountSchema.extend({
      /** Gas spent per day by this account's transactions, from the chain's receipts (wei). */
      gasUsed: z.array(z.object({ day: z.string(), wei: weiText, transactions: z.number().int() })),
      /** The operators' gas rate: the price of one coin (10^18 wei) in USD cents (docs/decisions/073). */
      coinPriceCents: z.number().int(),
    }),
  },
  /** A custody account's key as an encrypted keystore (Web3 Secret Storage v3), with a password of at least 8. */
  "/sys/opc/account/keystore": {
    auth: "user",
    permission: "services",
    payload: z.object({
      accountId: id(),
      password: z
        .string({ error: "publicChain:validation.keystorePassword" })
        .min(8, "publicChain:validation.keystorePassword")
        .max(128, "validation.tooLong"),
    }),
    data: z.object({ fileName: z.string(), keystore: z.string() }),
  },
  /** Assign gas from the account balance (§9 bill type 50): a bill, one ledger entry, a transfer on the chain. */
  "/sys/opc/account/assignGas": {
    auth: "user",
    permission: "services",
    payload: accountRef.extend({ amount: moneyAmount(), idempotencyKey: idempotencyKey() }),
    data: gasAssignmentSchema,
  },
} satisfies Record<string, PathSpec>;
