import solc from "solc";
import { serveWorker } from "../../kit/worker";
import type { CompileResult } from "./compile";

/** The Solidity compiler's thread (solc-js 0.8.37): first compile ~1.2 s, then ~0.45 s (docs/decisions/025). */
serveWorker({
  compile(sources: Record<string, string>): CompileResult {
    const input = {
      language: "Solidity",
      sources: Object.fromEntries(Object.entries(sources).map(([file, content]) => [file, { content }])),
      settings: {
        evmVersion: "prague",
        optimizer: { enabled: true, runs: 200 },
        outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
      },
    };
    // No import callback: a contract imports only the sources given with it.
    const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
      errors?: { severity: string; formattedMessage: string; message: string }[];
      contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
    };
    const errors = (output.errors ?? []).filter((e) => e.severity === "error").map((e) => e.formattedMessage.trim());
    const warnings = (output.errors ?? []).filter((e) => e.severity !== "error").map((e) => e.formattedMessage.trim());
    if (errors.length) return { ok: false, errors, warnings };
    const contracts = Object.entries(output.contracts ?? {}).flatMap(([file, byName]) =>
      Object.entries(byName).map(([name, c]) => ({ file, name, abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, deployedBytecode: `0x${c.evm.deployedBytecode.object}` })),
    );
    return { ok: true, contracts, warnings, compiler: solc.version() };
  },
});
