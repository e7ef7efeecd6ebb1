/**
 * The wizard's choice lists without Zod (contract/service-wizard.ts re-exports them), for pages that only
 * show them.
 */

export const INDUSTRIES = [
  "finance",
  "government",
  "logistics",
  "healthcare",
  "energy",
  "education",
  "manufacturing",
  "other",
] as const;
export const FRAMEWORKS = ["fabric", "fisco", "xuperchain", "cita"] as const;
export const PLATFORM_TYPES = ["web", "mobile", "api", "hybrid"] as const;
export const LANGUAGES = ["go", "java", "node", "solidity"] as const;
/**
 * The frameworks that run Solidity contracts on an EVM (docs/decisions/034, 038, 052): FISCO BCOS, CITA and
 * XuperChain (its EVM contract VM). Each such service runs on a chain of its own in the registry.
 */
export const EVM_FRAMEWORKS = ["fisco", "cita", "xuperchain"] as const;
export const isEvmFramework = (framework: string | null | undefined) =>
  (EVM_FRAMEWORKS as readonly string[]).includes(framework ?? "");

/**
 * Where a package language runs for a framework (docs/decisions/052), or null when it cannot run there:
 * - "embedded": on this portal's own network (Solidity on an EVM framework's chain; Node.js on the embedded
 *   Fabric peer, docs/decisions/064);
 * - "connected": on the Fabric network named by FABRIC_PEER_ENDPOINT (Go, Java and Node.js on Fabric when one
 *   is configured). Without one, Go and Java run nowhere and are refused.
 */
export type LanguageRun = "embedded" | "connected";
export function languageRun(
  framework: string | null | undefined,
  language: string,
  fabricConnected: boolean,
): LanguageRun | null {
  if (isEvmFramework(framework)) return language === "solidity" ? "embedded" : null;
  if (framework !== "fabric") return null;
  if (fabricConnected && (language === "go" || language === "java" || language === "node")) return "connected";
  return language === "node" ? "embedded" : null;
}

/** The chaincode languages a framework takes, the one that runs first (the wizard offers these; the server refuses the others). */
export const languagesFor = (framework: string | null | undefined, fabricConnected = false) =>
  [...LANGUAGES]
    .sort((a, b) => Number(b === "solidity" || b === "node") - Number(a === "solidity" || a === "node"))
    .filter((l) => languageRun(framework, l, fabricConnected) !== null);

/** The language a new package of `framework` starts with: one that runs there. */
export const defaultLanguageFor = (framework: string | null | undefined, fabricConnected = false) =>
  languagesFor(framework, fabricConnected)[0] ?? "solidity";

/** An example main function path per language (the wizard's hint; the test job looks for it in the zip). */
export const MAIN_PATH_EXAMPLES: Record<(typeof LANGUAGES)[number], string> = {
  solidity: "contracts/Ledger.sol",
  node: "lib/chaincode.js",
  go: "chaincode/main.go",
  java: "src/main/java/org/example/Chaincode.java",
};

/** A consortium service's JSON-RPC endpoint: /chain/service/<key>, or through one city node /chain/service/<code>/<key>. */
export const SERVICE_RPC_PREFIX = "/chain/service/";
/** The path of a city node of a service on its EVM chain (docs/decisions/052), to which the viewer's key is appended. */
export const serviceNodeEndpointPath = (nodeCode: string) => `${SERVICE_RPC_PREFIX}${nodeCode.toLowerCase()}`;

/** §9 two interchain protocols: 1 the enterprise interchain framework, 2 the NFT/deposit framework (needs APPCode). */
export const CROSS_PROTOCOLS = ["1", "2"] as const;

/** SPEC §2 "Service wizard" steps, in order (app_versions.wizardStep keeps the furthest one reached). */
export const WIZARD_STEPS = ["basic", "packages", "functions", "roles", "nodes", "certificate", "cost"] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];
