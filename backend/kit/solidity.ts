import type { FailureSuggestion } from "#contract/test-services-codes.ts";

/*
 * Which compiled Solidity contract a deployment creates and its constructor's arguments from the comma-separated
 * init params (SPEC §5): shared by test services (docs/decisions/034) and consortium services on their own
 * chain (docs/decisions/038). Pure: the compiler's output in, a choice or a reason out.
 */

type Compiled = { file: string; name: string; abi: unknown[]; bytecode: string };

/**
 * The contract a service deploys: the one named `main` when given, else the only contract with creation code
 * (interfaces, libraries without code and abstract contracts have none). A refusal is a reason and its suggestion.
 */
export function chooseContract(
  contracts: readonly Compiled[],
  main: string,
): { contract: Compiled } | { reason: string; suggestion: FailureSuggestion } {
  const deployable = contracts.filter((c) => c.bytecode && c.bytecode !== "0x");
  if (main) {
    const named = contracts.find((c) => c.name === main);
    if (!named)
      return {
        reason: `no contract named ${main} in the sources (found: ${contracts.map((c) => c.name).join(", ") || "none"})`,
        suggestion: "noContract",
      };
    if (!deployable.includes(named))
      return { reason: `${main} is abstract or an interface: it has no creation code`, suggestion: "noContract" };
    return { contract: named };
  }
  if (deployable.length === 1) return { contract: deployable[0]! };
  if (!deployable.length)
    return {
      reason: "the sources define no contract that can be deployed (only interfaces, libraries or abstract contracts)",
      suggestion: "noContract",
    };
  return {
    reason: `several contracts can be deployed (${deployable.map((c) => c.name).join(", ")}): name the main contract`,
    suggestion: "severalContracts",
  };
}

type AbiInput = { type: string; name?: string };

/**
 * The constructor's arguments from the init params (SPEC §5: comma-separated): one per constructor input, as
 * viem encodes them (integers as bigint, bool as true/false, the rest as typed). A mismatch is a reason.
 */
export function constructorArgs(abi: readonly unknown[], initParams: string): { args: unknown[] } | { reason: string } {
  const ctor = abi.find(
    (item): item is { type: string; inputs?: AbiInput[] } =>
      typeof item === "object" && item !== null && (item as { type?: unknown }).type === "constructor",
  );
  const inputs = ctor?.inputs ?? [];
  const given = initParams.trim() === "" ? [] : initParams.split(",").map((p) => p.trim());
  if (given.length !== inputs.length)
    return {
      reason: `the constructor takes ${inputs.length} parameter(s) (${inputs.map((i) => `${i.type} ${i.name ?? ""}`.trim()).join(", ") || "none"}) and the init params give ${given.length}`,
    };
  const args: unknown[] = [];
  for (const [i, input] of inputs.entries()) {
    const value = given[i]!;
    if (/^u?int\d*$/.test(input.type)) {
      if (!/^-?\d+$/.test(value)) return { reason: `init param ${i + 1} (${input.type}) is not an integer: ${value}` };
      args.push(BigInt(value));
    } else if (input.type === "bool") {
      if (value !== "true" && value !== "false")
        return { reason: `init param ${i + 1} (bool) is neither true nor false: ${value}` };
      args.push(value === "true");
    } else if (input.type === "address" || input.type === "string" || /^bytes\d*$/.test(input.type)) args.push(value);
    else return { reason: `init param ${i + 1} has the type ${input.type}, which init params cannot give` };
  }
  return { args };
}
