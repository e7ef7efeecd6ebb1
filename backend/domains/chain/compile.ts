import { startWorker, type WorkerClient } from "#backend/kit/worker.ts";

/** A compiled contract: its ABI and creation and runtime bytecode. */
export type CompiledContract = {
  file: string;
  name: string;
  abi: unknown[];
  bytecode: string;
  deployedBytecode: string;
};
export type CompileResult =
  | { ok: true; contracts: CompiledContract[]; warnings: string[]; compiler: string }
  | { ok: false; errors: string[]; warnings: string[] };
/** One message of the compiler at its file, line and column (1-based; null when it names no place). */
export type Diagnostic = {
  severity: "error" | "warning" | "info";
  file: string | null;
  line: number | null;
  column: number | null;
  message: string;
  formatted: string;
};
/** A workspace's compilation (docs/decisions/044): its own contracts when there is no error, and every message. */
export type WorkspaceCompileResult = {
  ok: boolean;
  contracts: CompiledContract[];
  diagnostics: Diagnostic[];
  compiler: string;
};

/** The compiler's thread ends after this long without work (it holds ~245 MB). */
const IDLE_MS = 60_000;
/** Sources larger than this are refused before they reach the compiler. */
export const MAX_SOURCE_BYTES = 1_000_000;

let worker: WorkerClient | undefined;
let idle: NodeJS.Timeout | undefined;
let running = 0;

/**
 * Compiles Solidity sources (file name → source) with solc 0.8.37 for the Prague EVM, off the main thread:
 * the contracts, or the compiler's errors.
 */
export async function compileSolidity(sources: Record<string, string>): Promise<CompileResult> {
  const size = Object.values(sources).reduce((n, s) => n + Buffer.byteLength(s), 0);
  if (!Object.keys(sources).length) return { ok: false, errors: ["no source to compile"], warnings: [] };
  if (size > MAX_SOURCE_BYTES)
    return { ok: false, errors: [`the sources exceed ${MAX_SOURCE_BYTES} bytes`], warnings: [] };
  return onCompiler<CompileResult>("compile", sources);
}

/**
 * Compiles a workspace's Solidity files (path → source) off the main thread, resolving imports between them
 * and from OpenZeppelin Contracts: its contracts, and every error and warning at its file and line.
 */
export async function compileWorkspace(sources: Record<string, string>): Promise<WorkspaceCompileResult> {
  const size = Object.values(sources).reduce((n, s) => n + Buffer.byteLength(s), 0);
  const refuse = (message: string): WorkspaceCompileResult => ({
    ok: false,
    contracts: [],
    diagnostics: [{ severity: "error", file: null, line: null, column: null, message, formatted: message }],
    compiler: "",
  });
  if (!Object.keys(sources).length) return refuse("no source to compile");
  if (size > MAX_SOURCE_BYTES) return refuse(`the sources exceed ${MAX_SOURCE_BYTES} bytes`);
  return onCompiler<WorkspaceCompileResult>("compileWorkspace", sources);
}

async function onCompiler<T>(op: string, sources: Record<string, string>): Promise<T> {
  clearTimeout(idle);
  worker ??= startWorker("backend/domains/chain/solc.worker.ts");
  running++;
  // The compiler's thread does not keep the process alive: a caller awaiting it before the server listens (the
  // demo seed) would see Node exit with "unsettled top-level await" (13) without this timer.
  const alive = setInterval(() => undefined, 1_000);
  try {
    return await worker.call<T>(op, sources);
  } finally {
    clearInterval(alive);
    running--;
    if (!running) idle = setTimeout(() => void stopCompiler(), IDLE_MS).unref();
  }
}

/** Ends the compiler's thread (at shutdown, or when idle). */
export async function stopCompiler(): Promise<void> {
  clearTimeout(idle);
  const w = worker;
  worker = undefined;
  await w?.close();
}
