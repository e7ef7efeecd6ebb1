import { createHash } from "node:crypto";
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

/** Compilations answered from memory, by operation and sources (only after `rememberCompilations`). */
let remembered: Map<string, Promise<unknown>> | undefined;
/** The most compilations remembered; the oldest is forgotten first. */
const REMEMBERED_MAX = 64;

/**
 * Opt-in for the backend tests: an identical compilation (same operation, same sources) is answered from memory
 * for the rest of the process instead of by the compiler again. The compiler is deterministic, so the answer is
 * the same; what is saved is its thread's start, about 1.7 CPU-seconds, which every service whose demo data
 * compiles its sample contracts paid again after the previous service's close (docs/decisions/088). A server
 * never calls this: each of its compilations runs.
 */
export function rememberCompilations(): void {
  remembered ??= new Map();
}

async function onCompiler<T>(op: string, sources: Record<string, string>): Promise<T> {
  if (!remembered) return compileNow<T>(op, sources);
  const key = createHash("sha256").update(op).update("\0").update(JSON.stringify(sources)).digest("hex");
  let answer = remembered.get(key) as Promise<T> | undefined;
  if (!answer) {
    answer = compileNow<T>(op, sources);
    remembered.set(key, answer);
    // A failed call (the thread ended under it) is not an answer of the compiler: the next call tries again.
    answer.catch(() => remembered?.delete(key));
    if (remembered.size > REMEMBERED_MAX) remembered.delete(remembered.keys().next().value!);
  }
  // Each caller gets its own copy, as it would from the thread.
  return structuredClone(await answer);
}

async function compileNow<T>(op: string, sources: Record<string, string>): Promise<T> {
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
