import { strFromU8, unzipSync } from "fflate";
import type { FailureSuggestion } from "#contract/test-services-codes.ts";
import { centralDirectory, entriesProblem } from "#backend/kit/zip-safety.ts";
export { chooseContract, constructorArgs } from "#backend/kit/solidity.ts";

/**
 * Pure rules of test services (docs/decisions/034): the Solidity files of a chaincode package and the
 * suggestion (SPEC §4) that goes with a failure; which compiled contract a service deploys and its constructor
 * arguments are backend/kit/solidity.ts (consortium services deploy the same way).
 */

/** The .sol files of a chaincode package (zip), by their path inside it; null when the zip is unreadable or unsafe. */
export function solidityFilesOf(bytes: Uint8Array): Record<string, string> | null {
  const entries = centralDirectory(bytes);
  if (!entries || entriesProblem(entries)) return null;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (f) => f.name.toLowerCase().endsWith(".sol") && !f.name.endsWith("/") });
  } catch {
    return null;
  }
  const out: Record<string, string> = {};
  for (const [name, data] of Object.entries(files))
    out[name.replace(/\\/g, "/").replace(/^\.?\/+/, "")] = strFromU8(data);
  return Object.keys(out).length ? out : null;
}

/** The suggestion for a chain's refusal (network or revert). */
export function suggestionOfChainError(message: string): FailureSuggestion {
  return /revert|out of gas|invalid opcode/i.test(message) ? "reverted" : "network";
}

/** The deployment name shown in the access parameters: the service's name and version, as a DApp names it. */
export const deploymentNameOf = (name: string, version: string) => `${name.trim().replace(/\s+/g, "-")}-v${version}`;
