import * as z from "zod";
import { accountPaths } from "#contract/accounts.ts";
import { auditPaths } from "#contract/audit.ts";
import { billingFixturePaths, billingPaths } from "#contract/billing.ts";
import { configurationPaths } from "#contract/configuration.ts";
import { contractPaths } from "#contract/contracts.ts";
import { docPaths } from "#contract/docs.ts";
import { inboxPaths } from "#contract/inbox.ts";
import { invoicePaths } from "#contract/invoices.ts";
import { ipfsFixturePaths, ipfsPaths } from "#contract/ipfs.ts";
import { marketPaths } from "#contract/market.ts";
import { operationFixturePaths, operationPaths } from "#contract/operations.ts";
import { operatorAuthFixturePaths, operatorAuthPaths } from "#contract/operator-auth.ts";
import { paths, type PathSpec } from "#contract/paths.ts";
import { participationPaths } from "#contract/participation.ts";
import { paymentPaths } from "#contract/payments.ts";
import { platformPaths } from "#contract/platform.ts";
import { pricePaths } from "#contract/prices.ts";
import { profilePaths } from "#contract/profile.ts";
import { publicChainPaths } from "#contract/public-chain.ts";
import { serviceWizardPaths } from "#contract/service-wizard.ts";
import { serviceFixturePaths, servicePaths } from "#contract/services.ts";
import { storePaths } from "#contract/store.ts";
import { testServicePaths } from "#contract/test-services.ts";

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
  [
    "testFixtures",
    {
      ...billingFixturePaths,
      ...serviceFixturePaths,
      ...operationFixturePaths,
      ...operatorAuthFixturePaths,
      ...ipfsFixturePaths,
    },
  ],
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
  const groups = GROUPS.map(([group, map]) => ({
    group,
    paths: Object.keys(map)
      .filter((p) => p in all && !seen.has(p))
      .sort()
      .map(describe),
  }));
  const rest = Object.keys(all)
    .filter((p) => !seen.has(p))
    .sort()
    .map(describe);
  if (rest.length) groups.push({ group: "other", paths: rest });
  built = groups.filter((g) => g.paths.length > 0);
  return built;
}
