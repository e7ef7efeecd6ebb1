import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { decisionFields } from "./rules.ts";
import {
  CROSS_APP_CODE_PATTERN,
  CROSS_CALLS_PAGE_MAX,
  CROSS_MESSAGE_MAX,
  CROSS_SAMPLE_KINDS,
  CrossProtocol,
} from "./cross-chain-codes.ts";
export * from "./cross-chain-codes.ts";

/*
 * Cross-chain services (SPEC §2 CrossChainService, §3 cross-chain call record and the service's cross-chain flag
 * and protocol, §4, §5 "Cross-chain", §8, §9; docs/decisions/048): the user's services opened to cross-chain,
 * opening (dredge), deactivating and closing them under operator review, and the call records of the relayer
 * that delivers each message of a service's chain to its target chain.
 */

const appRef = z.object({ appId: z.coerce.number().int().positive() });
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "validation.invalid");
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "validation.invalid");

/** The calls of a service counted by status. */
export const crossCountsSchema = z.object({
  total: z.number().int(),
  success: z.number().int(),
  failure: z.number().int(),
  pending: z.number().int(),
});

/** A service opened to cross-chain (Index), with its status, protocol, chain and call counts. */
export const crossServiceSchema = z.object({
  appId: z.number().int(),
  appCode: z.string(),
  name: z.string(),
  framework: z.string(),
  /** SPEC §4 Cross-chain: 0 deactivated, 1 activated, 2 closed, 3 pending activation, 4 pending deactivation. */
  crossStatus: z.number().int(),
  /** SPEC §9: 1 or 2. */
  protocol: z.number().int().nullable(),
  /** Protocol 2's APPCode. */
  crossAppCode: z.string().nullable(),
  /** The service's own chain (registry name and chain id). */
  chainName: z.string().nullable(),
  chainId: z.number().int().nullable(),
  counts: crossCountsSchema,
  /** When the service last asked to open or deactivate, or was reviewed. */
  updatedAt: z.string(),
});
export type CrossService = z.infer<typeof crossServiceSchema>;

/** SelectService: one of the user's running services and whether it can be opened now (else the §5/§8 message key why not). */
export const crossSelectableSchema = z.object({
  appId: z.number().int(),
  appCode: z.string(),
  name: z.string(),
  framework: z.string(),
  crossStatus: z.number().int(),
  chainName: z.string().nullable(),
  /** The protocol and APPCode chosen before (in the publish wizard or an earlier opening), to prefill Dredge. */
  protocol: z.number().int().nullable(),
  crossAppCode: z.string().nullable(),
  /** The protocols all its city nodes support. */
  protocols: z.array(z.number().int()),
  canOpen: z.boolean(),
  /** A message key (MSG_…) when it cannot be opened. */
  reason: z.string().nullable(),
});

/** Dredge: open a service to cross-chain with a protocol; the second protocol requires an APPCode (§5). One schema for the form and the path. */
export const crossDredgeSchema = z
  .object({
    appId: z.coerce.number().int().positive(),
    protocol: z.coerce
      .number({ error: "validation.required" })
      .int()
      .refine((p) => p === CrossProtocol.ENTERPRISE || p === CrossProtocol.APP, "validation.required"),
    appCode: z.string().trim().max(32, "validation.tooLong").optional(),
  })
  .superRefine((value, ctx) => {
    if (value.protocol !== CrossProtocol.APP) return;
    if (!value.appCode) ctx.addIssue({ code: "custom", path: ["appCode"], message: "validation.required" });
    else if (!CROSS_APP_CODE_PATTERN.test(value.appCode))
      ctx.addIssue({ code: "custom", path: ["appCode"], message: "validation.invalid" });
  });

/** A cross-chain call record (SPEC §3): time, source and target chain, both transaction hashes, status and fee. */
export const crossCallSchema = z.object({
  callId: z.number().int(),
  appId: z.number().int(),
  /** The source contract's sequence number of the message. */
  sequence: z.number().int(),
  protocol: z.number().int(),
  kind: z.enum(CROSS_SAMPLE_KINDS),
  sourceChain: z.string(),
  sourceChainId: z.number().int(),
  targetChain: z.string(),
  targetChainId: z.number().int(),
  /** The receiving contract on the target chain. */
  targetAddress: z.string(),
  /** SPEC §4 Cross-chain call: 0 unknown, 1 success, 2 failure. */
  status: z.number().int(),
  sourceTxHash: z.string(),
  targetTxHash: z.string().nullable(),
  /** Deliveries tried so far. */
  attempts: z.number().int(),
  /** The target's revert reason (decoded) or the chain's error, of the last failed attempt. */
  reason: z.string().nullable(),
  /** The fee of the call (USD cents): the unit price when it succeeded, 0 otherwise. */
  feeCents: z.number().int(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type CrossCall = z.infer<typeof crossCallSchema>;

/** A contract of the service's cross-chain set on one chain. */
export const crossContractSchema = z.object({
  chainName: z.string(),
  chainId: z.number().int(),
  /** messenger (the protocol's message contract), inbox (receives text messages), nft, deposit. */
  role: z.enum(["messenger", "inbox", "nft", "deposit"]),
  address: z.string(),
});

/** A chain a service may send to: the open-alliance chain, or a running activated service's chain the user owns or joined. */
export const crossTargetSchema = z.object({
  chainName: z.string(),
  chainId: z.number().int(),
  kind: z.enum(["openAlliance", "service"]),
  appId: z.number().int().nullable(),
  serviceName: z.string().nullable(),
});

/** The live state of a service's cross-chain (CrossChainDetail, and the service detail's cross-chain info tab). */
export const crossDetailSchema = crossServiceSchema.extend({
  /** The relayer's account (the same address on every chain), which delivers the messages. */
  relayerAddress: z.string().nullable(),
  /** The account that sends the service's sample messages on its chain. */
  senderAddress: z.string().nullable(),
  contracts: z.array(crossContractSchema),
  recentCalls: z.array(crossCallSchema),
  /** The unit price of a call (USD cents). */
  unitPriceCents: z.number().int(),
});

export const crossCallsPayload = z.object({
  appId: z.coerce.number().int().positive(),
  status: z.coerce.number().int().min(0).max(2).optional(),
  /** Days in UTC+8 (the console's time zone), inclusive. */
  from: isoDate.optional(),
  to: isoDate.optional(),
  /** A target chain's name. */
  target: z.string().trim().max(100).optional(),
  pageIndex: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(CROSS_CALLS_PAGE_MAX).default(10),
});

/** Send a sample message from the service's side (one schema for the form and the path). */
export const crossSendSchema = z
  .object({
    appId: z.coerce.number().int().positive(),
    target: z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(100),
    kind: z.enum(CROSS_SAMPLE_KINDS, { error: "validation.required" }),
    /** message: its text; deposit: the note of the record. */
    text: z.string().trim().max(CROSS_MESSAGE_MAX, "validation.tooLong").optional(),
    /** call: the contract on the target chain and its call data. */
    to: address.optional(),
    data: z
      .string()
      .regex(/^0x([0-9a-fA-F]{2}){0,4096}$/, "validation.invalid")
      .optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.kind === "message" || value.kind === "deposit") && !value.text)
      ctx.addIssue({ code: "custom", path: ["text"], message: "validation.required" });
    if (value.kind === "call" && !value.to)
      ctx.addIssue({ code: "custom", path: ["to"], message: "validation.required" });
    if (value.kind === "call" && !value.data)
      ctx.addIssue({ code: "custom", path: ["data"], message: "validation.required" });
  });

/** An item of the operators' queue: pending activation (3) or deactivation (4), with the owner's account name. */
export const crossQueueItemSchema = crossServiceSchema.extend({ owner: z.string() });

/** The operators' review: 3 → 1 or 0 (approve, reject), 4 → 0 or 1. Comments are required to reject. */
export const crossReviewSchema = z
  .object({ appId: z.coerce.number().int().positive(), ...decisionFields() })
  .superRefine((v, ctx) => {
    if (v.decision === "reject" && !v.comments)
      ctx.addIssue({ code: "custom", path: ["comments"], message: "validation.required" });
  });

/** One call record, named with its service. */
export const crossCallRef = z.object({
  appId: z.coerce.number().int().positive(),
  callId: z.coerce.number().int().positive(),
});

const statusAnswer = z.object({ appId: z.number().int(), crossStatus: z.number().int() });

export const crossChainPaths = {
  /** Index: the user's services opened to cross-chain (any status but never opened), newest first. */
  "/sys/crossChain/list": {
    auth: "user",
    permission: "read",
    payload: z.object({ ...pagingFields, status: z.coerce.number().int().min(0).max(4).optional() }),
    data: pageOf(crossServiceSchema),
  },
  /** SelectService: the user's running services (verState 25), each with whether it can be opened and why not. */
  "/sys/crossChain/selectable": {
    auth: "user",
    permission: "read",
    payload: z.object({}),
    data: z.array(crossSelectableSchema),
  },
  /** Dredge: asks to open the service with a protocol (→ 3, pending activation); every §5/§8 rule re-checked. */
  "/sys/crossChain/dredge": { auth: "user", permission: "services", payload: crossDredgeSchema, data: statusAnswer },
  /** Asks to deactivate an activated service (1 → 4, pending deactivation): §5 "Cannot be stopped while enabled". */
  "/sys/crossChain/deactivate": { auth: "user", permission: "services", payload: appRef, data: statusAnswer },
  /** Closes (unsubscribes) cross-chain (0|3 → 2); refused while the service or its configuration is upgrading (§5). */
  "/sys/crossChain/close": { auth: "user", permission: "services", payload: appRef, data: statusAnswer },
  /** The live state: protocol, contract addresses on each chain involved, relayer, counts, recent calls. */
  "/sys/crossChain/detail": { auth: "user", permission: "read", payload: appRef, data: crossDetailSchema },
  /** CrossChainDetailView: the call records with filters; pageSize up to 1000 so that the CSV export pages through all. */
  "/sys/crossChain/calls": {
    auth: "user",
    permission: "read",
    payload: crossCallsPayload,
    data: pageOf(crossCallSchema),
  },
  /** CrossChainDetailView: one call record of the caller's service by its id (another service's call is not found). */
  "/sys/crossChain/call": { auth: "user", permission: "services", payload: crossCallRef, data: crossCallSchema },
  /** The chains this service may send to. */
  "/sys/crossChain/targets": { auth: "user", permission: "read", payload: appRef, data: z.array(crossTargetSchema) },
  /** Sends a sample message on the service's chain (activated only); the relayer delivers it. Answers the call record (status 0). */
  "/sys/crossChain/send": { auth: "user", permission: "services", payload: crossSendSchema, data: crossCallSchema },
  /** Operations: services pending activation (3) and deactivation (4), oldest first. */
  "/sys/ops/crossChain/pending": {
    auth: "operator",
    payload: z.object({ ...pagingFields, status: z.coerce.number().int().min(3).max(4).optional() }),
    data: pageOf(crossQueueItemSchema),
  },
  /** Operations: review a pending request (3 → 1 | 0, 4 → 0 | 1); activation deploys the protocol's contracts. */
  "/sys/ops/crossChain/review": { auth: "operator", payload: crossReviewSchema, data: statusAnswer },
} satisfies Record<string, PathSpec>;

/** Tests only (TEST_FIXTURES=1): a delivered call record of one of the caller's services, without a chain (the security suites' call ids). */
export const crossChainFixturePaths = {
  "/test/crossChain/call": { auth: "user", permission: "services", payload: appRef, data: crossCallSchema },
} satisfies Record<string, PathSpec>;
