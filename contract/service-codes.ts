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
/** The frameworks that run Solidity contracts on an EVM (docs/decisions/034): only they take `solidity` packages. */
export const EVM_FRAMEWORKS = ["fisco", "cita"] as const;
export const isEvmFramework = (framework: string | null | undefined) =>
  (EVM_FRAMEWORKS as readonly string[]).includes(framework ?? "");
/** The chaincode languages a framework takes: `solidity` only on an EVM framework (the wizard offers these; the server refuses the others). */
export const languagesFor = (framework: string | null | undefined) =>
  LANGUAGES.filter((l) => l !== "solidity" || isEvmFramework(framework));
/** §9 two interchain protocols: 1 the enterprise interchain framework, 2 the NFT/deposit framework (needs APPCode). */
export const CROSS_PROTOCOLS = ["1", "2"] as const;

/** SPEC §2 "Service wizard" steps, in order (app_versions.wizardStep keeps the furthest one reached). */
export const WIZARD_STEPS = ["basic", "packages", "functions", "roles", "nodes", "certificate", "cost"] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];
