import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import solc from "solc";
import { serveWorker } from "#backend/kit/worker.ts";
import type { CompileResult, Diagnostic, WorkspaceCompileResult } from "./compile.ts";

/** The Solidity compiler's thread (solc-js 0.8.37): first compile ~1.2 s, then ~0.45 s (docs/decisions/025). */

type Output = {
  errors?: {
    severity: string;
    formattedMessage: string;
    message: string;
    sourceLocation?: { file: string; start: number; end: number };
  }[];
  contracts?: Record<
    string,
    Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >;
  sources?: Record<string, unknown>;
};

function run(
  sources: Record<string, string>,
  findImports?: (path: string) => { contents: string } | { error: string },
): Output {
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(Object.entries(sources).map(([file, content]) => [file, { content }])),
    settings: {
      evmVersion: "prague",
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
    },
  };
  return JSON.parse(
    findImports ? solc.compile(JSON.stringify(input), { import: findImports }) : solc.compile(JSON.stringify(input)),
  ) as Output;
}

const contractsOf = (output: Output) =>
  Object.entries(output.contracts ?? {}).flatMap(([file, byName]) =>
    Object.entries(byName).map(([name, c]) => ({
      file,
      name,
      abi: c.abi,
      bytecode: `0x${c.evm.bytecode.object}`,
      deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
    })),
  );

/** The libraries a workspace may import by package name (docs/decisions/044): OpenZeppelin Contracts. */
const LIBRARIES = ["@openzeppelin/contracts/"];
const require = createRequire(import.meta.url);

/** An import outside the given sources: a .sol file of a library package, or "File not found". */
function libraryImport(path: string): { contents: string } | { error: string } {
  if (!LIBRARIES.some((prefix) => path.startsWith(prefix)) || !path.endsWith(".sol") || path.includes(".."))
    return { error: "File not found" };
  try {
    return { contents: readFileSync(require.resolve(path), "utf8") };
  } catch {
    return { error: "File not found" };
  }
}

/** 1-based line and column of a character offset (solc counts bytes of UTF-8). */
function lineOf(source: string | undefined, start: number): { line: number; column: number } | null {
  if (source === undefined || start < 0) return null;
  const before = Buffer.from(source, "utf8").subarray(0, start).toString("utf8");
  const lines = before.split("\n");
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

serveWorker({
  compile(sources: Record<string, string>): CompileResult {
    // No import callback: a contract imports only the sources given with it.
    const output = run(sources);
    const errors = (output.errors ?? []).filter((e) => e.severity === "error").map((e) => e.formattedMessage.trim());
    const warnings = (output.errors ?? []).filter((e) => e.severity !== "error").map((e) => e.formattedMessage.trim());
    if (errors.length) return { ok: false, errors, warnings };
    return { ok: true, contracts: contractsOf(output), warnings, compiler: solc.version() };
  },
  /**
   * A workspace's files (path → source) with imports between them and from OpenZeppelin Contracts; every message
   * of the compiler mapped to its file and line; only the workspace's own contracts are answered.
   */
  compileWorkspace(sources: Record<string, string>): WorkspaceCompileResult {
    const output = run(sources, libraryImport);
    const diagnostics: Diagnostic[] = (output.errors ?? []).map((e) => {
      const at = e.sourceLocation ? lineOf(sources[e.sourceLocation.file], e.sourceLocation.start) : null;
      return {
        severity: e.severity === "error" ? "error" : e.severity === "warning" ? "warning" : "info",
        file: e.sourceLocation?.file ?? null,
        line: at?.line ?? null,
        column: at?.column ?? null,
        message: e.message,
        formatted: e.formattedMessage.trim(),
      };
    });
    const ok = !diagnostics.some((d) => d.severity === "error");
    return {
      ok,
      contracts: ok ? contractsOf(output).filter((c) => c.file in sources) : [],
      diagnostics,
      compiler: solc.version(),
    };
  },
});
