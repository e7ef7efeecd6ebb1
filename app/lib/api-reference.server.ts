import * as z from "zod";
import { accountPaths } from "@contract/accounts";
import { auditPaths } from "@contract/audit";
import { billingFixturePaths, billingPaths } from "@contract/billing";
import { configurationPaths } from "@contract/configuration";
import { contractPaths } from "@contract/contracts";
import { docPaths } from "@contract/docs";
import { inboxPaths } from "@contract/inbox";
import { invoicePaths } from "@contract/invoices";
import { ipfsFixturePaths, ipfsPaths } from "@contract/ipfs";
import { marketPaths } from "@contract/market";
import { operationFixturePaths, operationPaths } from "@contract/operations";
import { operatorAuthFixturePaths, operatorAuthPaths } from "@contract/operator-auth";
import { paths, type PathSpec } from "@contract/paths";
import { participationPaths } from "@contract/participation";
import { paymentPaths } from "@contract/payments";
import { platformPaths } from "@contract/platform";
import { pricePaths } from "@contract/prices";
import { profilePaths } from "@contract/profile";
import { publicChainPaths } from "@contract/public-chain";
import { serviceWizardPaths } from "@contract/service-wizard";
import { serviceFixturePaths, servicePaths } from "@contract/services";
import { storePaths } from "@contract/store";
import { testServicePaths } from "@contract/test-services";

/**
 * The API reference (issue 15; docs/decisions/042): every /vueapi path of contract/paths.ts with who may call
 * it and the JSON Schema of its payload and of its `data`, made by zod's own `z.toJSONSchema` from the very
 * schemas the backend parses with, so it cannot drift from the protocol. Grouped by the contract module that
 * declares the path; a path of a module not named below still appears (under "other"), so nothing is left
 * out when a domain is added.
 */
const GROUPS: readonly [string, Record<string, PathSpec>][] = [
  ["accounts", { ...accountPaths, ...operatorAuthPaths }],
  ["platform", platformPaths],
  ["inbox", inboxPaths],
  ["billing", billingPaths],
  ["payments", paymentPaths],
  ["invoices", invoicePaths],
  ["profile", profilePaths],
  ["services", servicePaths],
  ["serviceWizard", serviceWizardPaths],
  ["store", storePaths],
  ["participation", participationPaths],
  ["configuration", configurationPaths],
  ["prices", pricePaths],
  ["publicChain", publicChainPaths],
  ["contracts", contractPaths],
  ["testServices", testServicePaths],
  ["ipfs", ipfsPaths],
  ["docs", docPaths],
  ["market", marketPaths],
  ["operations", { ...operationPaths, ...auditPaths }],
  ["testFixtures", { ...billingFixturePaths, ...serviceFixturePaths, ...operationFixturePaths, ...operatorAuthFixturePaths, ...ipfsFixturePaths }],
];

export type ApiPath = { path: string; auth: PathSpec["auth"]; payload: string; data: string };
export type ApiGroup = { group: string; paths: ApiPath[] };

function schemaText(schema: z.ZodType, io: "input" | "output"): string {
  try {
    const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
    delete json.$schema;
    return JSON.stringify(json, null, 2);
  } catch {
    return "{}";
  }
}

let built: ApiGroup[] | null = null;

export function apiReference(): ApiGroup[] {
  if (built) return built;
  const all = paths as Record<string, PathSpec>;
  const seen = new Set<string>();
  const describe = (path: string): ApiPath => {
    seen.add(path);
    const spec = all[path];
    return { path, auth: spec.auth, payload: schemaText(spec.payload, "input"), data: schemaText(spec.data, "output") };
  };
  const groups = GROUPS.map(([group, map]) => ({ group, paths: Object.keys(map).filter((p) => p in all && !seen.has(p)).sort().map(describe) }));
  const rest = Object.keys(all).filter((p) => !seen.has(p)).sort().map(describe);
  if (rest.length) groups.push({ group: "other", paths: rest });
  built = groups.filter((g) => g.paths.length > 0);
  return built;
}
