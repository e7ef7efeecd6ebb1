import * as z from "zod";
import { type PathSpec } from "./path-spec.ts";
import { ideCallResultSchema } from "./ide.ts";
import { pageOf, pagingFields } from "./platform.ts";
import {
  CONTRACT_ABI_MAX,
  CONTRACT_ARGS_MAX,
  CONTRACT_ARG_MAX,
  CONTRACT_BYTECODE_MAX_HEX,
  CONTRACT_NAME_MAX,
  CONTRACT_SOURCES,
  CONTRACT_SOURCE_MAX,
} from "./contracts-codes.ts";
export * from "./contracts-codes.ts";

/*
 * Contract deployment on an open-alliance project (SPEC §4 Contract deployment, §5 Contract name;
 * docs/decisions/033): from Solidity source compiled on the server, or from an ABI and its bytecode, deployed
 * by a job from one of the project's custody chain accounts; read functions called with eth_call, events read
 * from the chain's logs. Validation messages are keys of the `contracts` namespace or the shared ones.
 */

const id = () => z.number().int().positive();

/** SPEC §5 Contract name: required, at most 50, no leading or trailing spaces (refused, not trimmed). */
export const contractName = () =>
  z
    .string({ error: "validation.required" })
    .min(1, "validation.required")
    .max(CONTRACT_NAME_MAX, "validation.tooLong")
    .refine((v) => v.trim().length > 0, "validation.required")
    .refine((v) => v === v.trim(), "contracts:validation.nameSpaces");

const args = z
  .array(z.string().max(CONTRACT_ARG_MAX, "validation.tooLong"))
  .max(CONTRACT_ARGS_MAX, "contracts:validation.args")
  .default([]);

const deployFields = {
  projectId: id(),
  accountId: id(),
  name: contractName(),
  sourceKind: z.enum(CONTRACT_SOURCES, { error: "contracts:validation.sourceKind" }),
  /** Solidity source (sourceKind "source"). */
  source: z.string().max(CONTRACT_SOURCE_MAX, "validation.tooLong").optional(),
  /** The contract of the source to deploy, when it holds several. */
  mainContract: z.string().trim().max(100, "validation.tooLong").optional(),
  /** ABI JSON and creation bytecode (sourceKind "abi"). */
  abi: z.string().max(CONTRACT_ABI_MAX, "validation.tooLong").optional(),
  bytecode: z.string().trim().max(CONTRACT_BYTECODE_MAX_HEX, "validation.tooLong").optional(),
};

type DeployFields = { sourceKind: string; source?: string; abi?: string; bytecode?: string };
/** What the chosen source needs: Solidity source, or an ABI and a bytecode. */
function checkSource(v: DeployFields, ctx: z.RefinementCtx) {
  if (v.sourceKind === "source" && !v.source?.trim())
    ctx.addIssue({ code: "custom", path: ["source"], message: "contracts:validation.source" });
  if (v.sourceKind === "abi" && !v.abi?.trim())
    ctx.addIssue({ code: "custom", path: ["abi"], message: "contracts:validation.abi" });
  if (v.sourceKind === "abi" && !/^0x([0-9a-fA-F]{2})+$/.test(v.bytecode ?? ""))
    ctx.addIssue({ code: "custom", path: ["bytecode"], message: "contracts:validation.bytecode" });
}

export const contractCreateSchema = z.object({ ...deployFields, constructorArgs: args }).superRefine(checkSource);

/** The constructor's arguments as typed in the portal's form: one per line. */
export const constructorArgsOfText = (text: string | undefined) =>
  (text ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);

/** The portal's deployment form: the same rules, the constructor's arguments one per line (at most 20). */
export const contractDeployFormSchema = z
  .object({
    ...deployFields,
    constructorArgsText: z
      .string()
      .max(CONTRACT_ARGS_MAX * (CONTRACT_ARG_MAX + 1), "validation.tooLong")
      .optional()
      .refine((v) => constructorArgsOfText(v).length <= CONTRACT_ARGS_MAX, "contracts:validation.args")
      .refine((v) => constructorArgsOfText(v).every((a) => a.length <= CONTRACT_ARG_MAX), "validation.tooLong"),
  })
  .superRefine(checkSource);

export const contractSchema = z.object({
  contractId: z.number().int(),
  projectId: z.number().int(),
  projectName: z.string(),
  accountId: z.number().int(),
  accountName: z.string(),
  accountAddress: z.string(),
  name: z.string(),
  sourceKind: z.string(),
  /** The Solidity contract deployed (source), or null (ABI and bytecode). */
  mainContract: z.string().nullable(),
  /** SPEC §4: 0 pending, 1 deploying, 2 success, 3 failed. */
  status: z.number().int(),
  /** The compiler's or the chain's reason of a failure. */
  failReason: z.string().nullable(),
  address: z.string().nullable(),
  txHash: z.string().nullable(),
  blockNumber: z.number().int().nullable(),
  gasUsed: z.string().nullable(),
  chainId: z.number().int().nullable(),
  createdAt: z.string(),
  deployedAt: z.string().nullable(),
});
export type Contract = z.infer<typeof contractSchema>;

export const contractDetailSchema = contractSchema.extend({
  /** The ABI (JSON array) once known: compiled, or given. */
  abi: z.array(z.record(z.string(), z.unknown())).nullable(),
  source: z.string().nullable(),
  compiler: z.string().nullable(),
  constructorArgs: z.array(z.string()),
});

const contractRef = z.object({ contractId: id() });

/** A read function's call: its name, its signature among overloads, the arguments as typed. */
export const contractCallSchema = contractRef.extend({
  functionName: z.string().trim().min(1, "validation.required").max(100, "validation.tooLong"),
  signature: z.string().trim().max(1000).optional(),
  args,
});

/** A write function's transaction (issue 30 item 15b): signed by one of the project's custody accounts. */
export const contractWriteSchema = contractRef.extend({
  signature: z.string().trim().min(1, "validation.required").max(1000, "validation.tooLong"),
  args,
  accountId: id(),
});

/** The /vueapi paths of contract deployment (SPEC §7: the /sys/opc… family). */
export const contractPaths = {
  "/sys/opc/contract/create": {
    auth: "user",
    permission: "services",
    payload: contractCreateSchema,
    data: contractSchema,
  },
  "/sys/opc/contract/list": {
    auth: "user",
    permission: "read",
    payload: z.object({ ...pagingFields, projectId: id() }),
    data: pageOf(contractSchema).extend({ busy: z.boolean() }),
  },
  "/sys/opc/contract/detail": { auth: "user", permission: "read", payload: contractRef, data: contractDetailSchema },
  /** Renames a contract; refused while it is being deployed (§4). */
  "/sys/opc/contract/update": {
    auth: "user",
    permission: "services",
    payload: contractRef.extend({ name: contractName() }),
    data: contractSchema,
  },
  /** A failed deployment (3) queued again (→ 0), unless another of the project is under way. */
  "/sys/opc/contract/redeploy": { auth: "user", permission: "services", payload: contractRef, data: contractSchema },
  /** A read function (view or pure) called with eth_call: arguments as typed, the decoded result. */
  "/sys/opc/contract/call": {
    auth: "user",
    permission: "read",
    payload: contractCallSchema,
    data: z.object({
      functionName: z.string(),
      signature: z.string(),
      outputs: z.array(z.object({ name: z.string(), type: z.string(), value: z.string() })),
    }),
  },
  /** A write function sent as a transaction from a custody account (as the IDE does): the receipt, decoded events. */
  "/sys/opc/contract/write": {
    auth: "user",
    permission: "services",
    payload: contractWriteSchema,
    data: ideCallResultSchema,
  },
  /** The contract's events, newest first, decoded with its ABI. */
  "/sys/opc/contract/events": {
    auth: "user",
    permission: "read",
    payload: z.object({ ...pagingFields, contractId: id() }),
    data: pageOf(
      z.object({
        blockNumber: z.number().int(),
        txHash: z.string(),
        logIndex: z.number().int(),
        eventName: z.string().nullable(),
        args: z.array(z.object({ name: z.string(), value: z.string() })),
        topics: z.array(z.string()),
        data: z.string(),
      }),
    ),
  },
  /**
   * One transaction by its hash (issue 35 §2, docs/decisions/089): read from its chain's node, for the account whose
   * chain account or contract sent it, received it or was created by it; its events decoded with the ABI of the
   * account's contract that emitted each one. Another account's transaction, or none, is not found.
   */
  "/sys/opc/transaction": {
    auth: "user",
    permission: "read",
    payload: z.object({ hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "validation.invalid") }),
    data: z.object({
      hash: z.string(),
      chain: z.string(),
      status: z.enum(["success", "reverted", "pending"]),
      blockNumber: z.number().int().nullable(),
      blockHash: z.string().nullable(),
      /** The block's time (ISO), null while pending. */
      time: z.string().nullable(),
      nonce: z.number().int(),
      from: z.string(),
      to: z.string().nullable(),
      /** The contract the transaction created. */
      created: z.string().nullable(),
      valueWei: z.string(),
      gasUsed: z.string().nullable(),
      effectiveGasPrice: z.string().nullable(),
      input: z.string(),
      /** The account's own chain accounts and contracts among the addresses above. */
      parties: z.array(
        z.object({
          address: z.string(),
          kind: z.enum(["account", "contract"]),
          id: z.number().int(),
          name: z.string(),
        }),
      ),
      events: z.array(
        z.object({
          logIndex: z.number().int(),
          address: z.string(),
          /** The account's contract that emitted it, whose ABI decoded it; null for any other address. */
          contractId: z.number().int().nullable(),
          eventName: z.string().nullable(),
          args: z.array(z.object({ name: z.string(), value: z.string() })),
          topics: z.array(z.string()),
          data: z.string(),
        }),
      ),
    }),
  },
} satisfies Record<string, PathSpec>;
