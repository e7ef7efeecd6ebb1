import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { nothing } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { IDE_ARGS_MAX, IDE_ARG_MAX, IDE_FILE_MAX, IDE_NAME_MAX, IDE_PATH_MAX, IDE_PATH_PATTERN } from "./ide-codes.ts";
export * from "./ide-codes.ts";

/*
 * The online IDE (SPEC §1, §2 IDEServices and /ide/portal, §8 MSG_20016; docs/decisions/044): a user's
 * workspaces of Solidity files kept in the database, compiled on the server, deployed as a contract deployment
 * of one of the user's open-alliance projects, and called through forms made from the ABI. Every call on a
 * workspace's content needs a live IDE authorisation (`/sys/ide/grant`), renewed by each call.
 */

const id = () => z.number().int().positive();

/** A workspace's name: required, at most 50, trimmed. */
export const ideName = () =>
  z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .max(IDE_NAME_MAX, "validation.tooLong");
/** A file's or folder's path in a workspace ("contracts/Token.sol"). */
export const idePath = () =>
  z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .max(IDE_PATH_MAX, "validation.tooLong")
    .regex(IDE_PATH_PATTERN, "ide:validation.path");

const args = z
  .array(z.string().max(IDE_ARG_MAX, "validation.tooLong"))
  .max(IDE_ARGS_MAX, "ide:validation.args")
  .default([]);

export const ideWorkspaceSchema = z.object({
  workspaceId: z.number().int(),
  name: z.string(),
  templateId: z.string(),
  files: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type IdeWorkspace = z.infer<typeof ideWorkspaceSchema>;

export const ideFileSchema = z.object({
  fileId: z.number().int(),
  path: z.string(),
  folder: z.boolean(),
  content: z.string(),
  updatedAt: z.string(),
});
export type IdeFile = z.infer<typeof ideFileSchema>;

/** One message of the compiler, mapped to its file and line (1-based; null when it names none). */
export const ideDiagnosticSchema = z.object({
  severity: z.enum(["error", "warning", "info"]),
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
  message: z.string(),
});
export type IdeDiagnostic = z.infer<typeof ideDiagnosticSchema>;

export const ideCompiledSchema = z.object({
  file: z.string(),
  name: z.string(),
  abi: z.array(z.record(z.string(), z.unknown())),
  bytecode: z.string(),
  compiledAt: z.string(),
});
export type IdeCompiled = z.infer<typeof ideCompiledSchema>;

/** A contract deployed from the workspace: the contracts domain's deployment (docs/decisions/033) it became. */
export const ideDeploymentSchema = z.object({
  /** "project": a contract deployment of a project (contractId its id); "test": the test network (contractId the IDE's record). */
  network: z.enum(["project", "test"]),
  /** The chain it is on (a project's chain, or the test network's chain of the time). */
  chainName: z.string(),
  contractId: z.number().int(),
  file: z.string(),
  name: z.string(),
  projectId: z.number().int().nullable(),
  projectName: z.string().nullable(),
  accountId: z.number().int().nullable(),
  /** The project's account, or the address of the user's test-network account. */
  accountName: z.string(),
  /** SPEC §4 Contract deployment: 0 pending, 1 deploying, 2 success, 3 failed. */
  status: z.number().int(),
  failReason: z.string().nullable(),
  address: z.string().nullable(),
  txHash: z.string().nullable(),
  blockNumber: z.number().int().nullable(),
  abi: z.array(z.record(z.string(), z.unknown())),
  createdAt: z.string(),
});
export type IdeDeployment = z.infer<typeof ideDeploymentSchema>;

export const ideWorkspaceDetailSchema = ideWorkspaceSchema.extend({
  files: z.array(ideFileSchema),
  compiled: z.array(ideCompiledSchema),
  diagnostics: z.array(ideDiagnosticSchema),
  compiledAt: z.string().nullable(),
  compiler: z.string().nullable(),
  deployments: z.array(ideDeploymentSchema),
  /** When the IDE authorisation ends unless renewed. */
  grantExpiresAt: z.string(),
});
export type IdeWorkspaceDetail = z.infer<typeof ideWorkspaceDetailSchema>;

export const ideTemplateSchema = z.object({
  templateId: z.string(),
  /** "sample": the portal's Solidity samples; "market": a Solidity entry of the chaincode market. */
  origin: z.enum(["sample", "market"]),
  /** A market entry's own title (samples are named in locales by templateId). */
  title: z.string().nullable(),
  files: z.array(z.string()),
});
export type IdeTemplate = z.infer<typeof ideTemplateSchema>;

const workspaceRef = z.object({ workspaceId: id() });

export const ideCreateSchema = z.object({
  name: ideName(),
  templateId: z.string().trim().min(1, "ide:validation.template").max(80, "ide:validation.template"),
});
export const ideRenameSchema = workspaceRef.extend({ name: ideName() });
export const ideFileCreateSchema = workspaceRef.extend({ path: idePath(), folder: z.boolean().default(false) });
export const ideFileRenameSchema = workspaceRef.extend({ fileId: id(), path: idePath() });
export const ideFileSaveSchema = workspaceRef.extend({
  fileId: id(),
  content: z.string().max(IDE_FILE_MAX, "validation.tooLong"),
});
export const ideDeploySchema = workspaceRef.extend({
  /** `<file>:<contract>` of the last compilation. */
  contract: z
    .string()
    .trim()
    .min(1, "ide:validation.contract")
    .max(IDE_PATH_MAX + 101, "ide:validation.contract"),
  /** "test": the test network, signed by the caller's test-network account (docs/decisions/044 addendum). */
  network: z.enum(["project", "test"]).default("project"),
  /** A project deployment: the project and its custody account. */
  projectId: id().optional(),
  accountId: id().optional(),
  constructorArgs: args,
});
export const ideCallSchema = workspaceRef.extend({
  /** "test": contractId is a test-network deployment of the workspace. */
  network: z.enum(["project", "test"]).default("project"),
  contractId: id(),
  /** The function's signature, `name(type,…)`. */
  signature: z.string().trim().min(1, "ide:validation.function").max(1000, "ide:validation.function"),
  args,
  /** Write functions: the custody account that signs (one of the deployment's project). */
  accountId: id().optional(),
});

const valueRow = z.object({ name: z.string(), type: z.string(), value: z.string() });
export const ideEventSchema = z.object({
  logIndex: z.number().int(),
  address: z.string(),
  eventName: z.string().nullable(),
  args: z.array(z.object({ name: z.string(), value: z.string() })),
  topics: z.array(z.string()),
  data: z.string(),
});
export const ideCallResultSchema = z.object({
  signature: z.string(),
  kind: z.enum(["read", "write"]),
  outputs: z.array(valueRow),
  transaction: z
    .object({
      hash: z.string(),
      from: z.string(),
      to: z.string(),
      nonce: z.number().int(),
      input: z.string(),
      value: z.string(),
    })
    .nullable(),
  receipt: z
    .object({
      status: z.enum(["success", "reverted"]),
      blockNumber: z.number().int(),
      gasUsed: z.string(),
      effectiveGasPrice: z.string(),
    })
    .nullable(),
  events: z.array(ideEventSchema),
});
export type IdeCallResult = z.infer<typeof ideCallResultSchema>;

/** The /vueapi paths of the IDE. */
export const idePaths = {
  "/sys/ide/template/list": {
    auth: "user",
    permission: "read",
    payload: z.object({}),
    data: z.array(ideTemplateSchema),
  },
  "/sys/ide/workspace/list": {
    auth: "user",
    permission: "read",
    payload: z.object({ ...pagingFields }),
    data: pageOf(ideWorkspaceSchema),
  },
  "/sys/ide/workspace/create": {
    auth: "user",
    permission: "services",
    payload: ideCreateSchema,
    data: ideWorkspaceSchema,
  },
  "/sys/ide/workspace/rename": {
    auth: "user",
    permission: "services",
    payload: ideRenameSchema,
    data: ideWorkspaceSchema,
  },
  "/sys/ide/workspace/delete": { auth: "user", permission: "services", payload: workspaceRef, data: nothing },
  /** Issues (or renews) the caller's IDE authorisation for this session: when it ends. */
  "/sys/ide/grant": {
    auth: "user",
    permission: "services",
    payload: z.object({}),
    data: z.object({ expiresAt: z.string(), minutes: z.number().int() }),
  },
  "/sys/ide/workspace/open": {
    auth: "user",
    permission: "services",
    payload: workspaceRef,
    data: ideWorkspaceDetailSchema,
  },
  "/sys/ide/file/create": { auth: "user", permission: "services", payload: ideFileCreateSchema, data: ideFileSchema },
  "/sys/ide/file/rename": { auth: "user", permission: "services", payload: ideFileRenameSchema, data: ideFileSchema },
  "/sys/ide/file/delete": {
    auth: "user",
    permission: "services",
    payload: workspaceRef.extend({ fileId: id() }),
    data: nothing,
  },
  "/sys/ide/file/save": { auth: "user", permission: "services", payload: ideFileSaveSchema, data: ideFileSchema },
  /** Compiles every .sol file of the workspace: the contracts kept, or the errors by file and line. */
  "/sys/ide/compile": {
    auth: "user",
    permission: "services",
    payload: workspaceRef,
    data: z.object({
      ok: z.boolean(),
      compiled: z.array(ideCompiledSchema),
      diagnostics: z.array(ideDiagnosticSchema),
      compiler: z.string().nullable(),
    }),
  },
  /** Deploys a compiled contract as a contract deployment of one of the caller's projects (one at a time). */
  "/sys/ide/deploy": { auth: "user", permission: "services", payload: ideDeploySchema, data: ideDeploymentSchema },
  /** Calls a function of a contract deployed from the workspace: a read with eth_call, a write as a transaction. */
  "/sys/ide/call": { auth: "user", permission: "services", payload: ideCallSchema, data: ideCallResultSchema },
} satisfies Record<string, PathSpec>;

/* The portal's forms (one schema per form, parsed by the action and by useForm). */

// Conform turns the posted digits into numbers for z.number() fields (parseWithZod).
const formId = () => z.number({ error: "validation.required" }).int().positive();

/** The editor: a file's content, saved (intent "save") or saved then compiled ("compile"). */
export const ideEditorFormSchema = z.object({
  fileId: formId(),
  content: z.string().max(IDE_FILE_MAX, "validation.tooLong").default(""),
});
export const ideNewFileFormSchema = z.object({ path: idePath(), kind: z.enum(["file", "folder"]).default("file") });
export const ideRenameFileFormSchema = z.object({ fileId: formId(), path: idePath() });
/**
 * The deployment form: the compiled contract, where to ("test" for the test network, else the id of a custody
 * account whose project follows), the constructor's arguments one per line.
 */
export const ideDeployFormSchema = z.object({
  contract: z
    .string({ error: "ide:validation.contract" })
    .trim()
    .min(1, "ide:validation.contract")
    .max(IDE_PATH_MAX + 101, "ide:validation.contract"),
  target: z
    .string({ error: "ide:validation.account" })
    .trim()
    .regex(/^(test|[1-9][0-9]{0,9})$/, "ide:validation.account"),
  constructorArgsText: z
    .string()
    .max(IDE_ARGS_MAX * (IDE_ARG_MAX + 1), "validation.tooLong")
    .optional()
    .refine((v) => argsOfText(v).length <= IDE_ARGS_MAX, "ide:validation.args"),
});
/** A function's form: its signature, an argument per parameter, and for a write the signing account. */
export const ideCallFormSchema = z.object({
  network: z.enum(["project", "test"]).default("project"),
  contractId: formId(),
  signature: z.string().trim().min(1, "ide:validation.function").max(1000, "ide:validation.function"),
  args: z.array(z.string().max(IDE_ARG_MAX, "validation.tooLong")).max(IDE_ARGS_MAX, "ide:validation.args").default([]),
  accountId: z.number().int().positive().optional(),
});
export const ideWorkspaceFormSchema = z.object({
  name: ideName(),
  templateId: z
    .string({ error: "ide:validation.template" })
    .trim()
    .min(1, "ide:validation.template")
    .max(80, "ide:validation.template"),
});
export const ideRenameFormSchema = z.object({ workspaceId: formId(), name: ideName() });

/** Constructor arguments as typed in the deployment form: one per line, blank lines skipped. */
export const argsOfText = (text: string | undefined) =>
  (text ?? "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
