import type { DownloadSpec } from "./download-spec.ts";
import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { optionalText, required } from "./rules.ts";
import { FUNC_RE, PACKAGE_NAME_RE, uploadSchema, VERSION_RE } from "./service-wizard.ts";
import { LANGUAGES } from "./service-codes.ts";

/*
 * The chaincode market (SPEC §2 DeveloperCommunity/ChaincodeMarket; issue 15; docs/decisions/042): sample
 * chaincode packages with their language, version, description and download count, downloadable as a zip,
 * readable file by file (the IDE lists the Solidity ones as templates), and usable in the publish wizard with
 * their functions. Operators add, update and withdraw entries; every entry passes the service test job.
 */

const id = () => z.number().int().positive();

export const marketFunctionSchema = z.object({
  name: z.string(),
  func: z.string(),
  funcType: z.number().int(),
  inputFormat: z.string(),
  outputFormat: z.string(),
});
export type MarketFunction = z.infer<typeof marketFunctionSchema>;

export const MARKET_STATUSES = ["published", "withdrawn"] as const;

export const marketPackageSchema = z.object({
  marketPackageId: z.number().int(),
  /** The package (contract) name, as the wizard takes it (SPEC §5 Chaincode package). */
  name: z.string(),
  language: z.enum(LANGUAGES),
  version: z.string(),
  descriptionEn: z.string(),
  descriptionZh: z.string(),
  mainPath: z.string(),
  initParams: z.string(),
  functions: z.array(marketFunctionSchema),
  fileName: z.string(),
  size: z.number().int(),
  downloads: z.number().int(),
  status: z.enum(MARKET_STATUSES),
  updatedAt: z.string(),
});
export type MarketPackage = z.infer<typeof marketPackageSchema>;

export const marketFileSchema = z.object({
  path: z.string(),
  size: z.number().int(),
  /** UTF-8 text, or null for a binary or large file. */ text: z.string().nullable(),
});

/**
 * The functions of an operator's form: one a line, `FUNC | name | input format | output format` (the formats
 * may be left out). Parsed here, so the portal and the backend read them alike.
 */
export function parseFunctionLines(text: string): { functions: MarketFunction[]; problem: string | null } {
  const functions: MarketFunction[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const [func = "", name = "", input = "", output = ""] = line.split("|").map((p) => p.trim());
    if (!FUNC_RE.test(func) || !name || name.length > 50)
      return { functions, problem: "market:validation.functionLine" };
    if (functions.some((f) => f.func === func)) return { functions, problem: "market:validation.functionDuplicate" };
    functions.push({ func, name, funcType: 1, inputFormat: input || "string[]", outputFormat: output || "bytes" });
  }
  if (functions.length === 0) return { functions, problem: "market:validation.functionsRequired" };
  if (functions.length > 50) return { functions, problem: "market:validation.functionLine" };
  return { functions, problem: null };
}

/** An operator's market entry form; the zip travels beside it (required for a new entry). */
export const marketFormSchema = z
  .object({
    name: required().regex(PACKAGE_NAME_RE, "wizard:validation.packageName"),
    language: z.enum(LANGUAGES, { error: "validation.required" }),
    version: required().regex(VERSION_RE, "wizard:validation.version"),
    descriptionEn: required().max(1000, "validation.tooLong"),
    descriptionZh: required().max(1000, "validation.tooLong"),
    mainPath: required().max(200, "validation.tooLong"),
    initParams: optionalText().refine(
      (v) => v === undefined || (v.length <= 500 && v.split(",").every((p) => p.trim().length > 0)),
      "wizard:validation.initParams",
    ),
    functions: required().max(10_000, "validation.tooLong"),
  })
  .superRefine((v, ctx) => {
    const { problem } = parseFunctionLines(v.functions);
    if (problem) ctx.addIssue({ code: "custom", path: ["functions"], message: problem });
  });
export type MarketForm = z.infer<typeof marketFormSchema>;

export const marketPaths = {
  /** The published packages, most downloaded first; `language` filters. */
  "/sys/market/list": {
    auth: "user",
    permission: "read",
    payload: z.object({ ...pagingFields, language: z.enum(LANGUAGES).optional() }),
    data: pageOf(marketPackageSchema),
  },
  /** A published package with its files (the text of each source), for reading and for the IDE's templates. */
  "/sys/market/detail": {
    auth: "user",
    permission: "read",
    payload: z.object({ marketPackageId: id() }),
    data: marketPackageSchema.extend({ files: z.array(marketFileSchema) }),
  },
  /** Operations: every entry, published or withdrawn. */
  "/sys/ops/market/list": {
    auth: "operator",
    payload: z.object({ ...pagingFields }),
    data: pageOf(marketPackageSchema),
  },
  /**
   * Adds (without marketPackageId; `file` required) or updates an entry. The zip (an upload of kind chaincode, checked
   * like the wizard's while it arrives) must pass the service test job's inspection with the entry's functions,
   * and a Solidity one must compile: otherwise MSG_46205 with the findings.
   */
  "/sys/ops/market/save": {
    auth: "operator",
    payload: z.object({ marketPackageId: id().optional(), form: marketFormSchema, file: uploadSchema.optional() }),
    data: z.object({ marketPackageId: z.number().int(), name: z.string() }),
  },
  /** Withdraws an entry from the market (or puts it back): a withdrawn one is not listed, downloaded or used. */
  "/sys/ops/market/withdraw": {
    auth: "operator",
    payload: z.object({ marketPackageId: id(), withdrawn: z.boolean() }),
    data: z.object({ marketPackageId: z.number().int(), status: z.enum(MARKET_STATUSES) }),
  },
} satisfies Record<string, PathSpec>;

/** The zip of a published package as bytes; counts one download (not the rest of a ranged one; docs/decisions/053). */
export const marketDownloads = {
  "market-package": { auth: "user", permission: "read", payload: z.object({ marketPackageId: id() }) },
} satisfies Record<string, DownloadSpec>;
