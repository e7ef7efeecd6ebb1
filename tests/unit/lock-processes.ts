import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

/** Helpers for the tests that run real processes holding a DATA_DIR (tests/unit/fixtures/hold-data-dir.ts). */
const root = path.resolve(__dirname, "../..");
const fixture = path.join(__dirname, "fixtures/hold-data-dir.ts");

export type Holding = { child: ChildProcess; pid: number };
export type Outcome = { code: number | null; line: string; stdout: string; stderr: string };

/** Starts a holder process; resolves with its first line of output and, when it exits, its code. */
export function startHolder(dataDir: string, mode: "plain" | "serve" | "backups" | "server" = "plain") {
  const child = spawn(process.execPath, ["--import", "tsx", fixture, dataDir, mode], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Outcome>((resolve) =>
    child.once("exit", (code) => resolve({ code, line: stdout.split("\n")[0], stdout, stderr })),
  );
  const firstLine = new Promise<string>((resolve) => {
    const check = () => {
      if (stdout.includes("\n")) resolve(stdout.split("\n")[0]);
    };
    child.stdout!.on("data", check);
    void exited.then(() => resolve(stdout.split("\n")[0] || `exited: ${stderr.trim()}`));
  });
  return { child, firstLine, exited };
}

/** A holder that reports HELD; fails the test otherwise. */
export async function hold(dataDir: string, mode: "plain" | "serve" | "backups" = "plain"): Promise<Holding> {
  const started = startHolder(dataDir, mode);
  const line = await started.firstLine;
  if (!line.startsWith("HELD ")) throw new Error(`expected the process to hold ${dataDir}, it said: ${line}`);
  return { child: started.child, pid: Number(line.slice(5)) };
}

/** Ends a holder: SIGKILL (the kernel drops its lock) or SIGTERM (it gives the lock back); waits for the exit. */
export async function stop(holding: Holding, signal: "SIGKILL" | "SIGTERM" = "SIGTERM") {
  if (holding.child.exitCode !== null || holding.child.signalCode !== null) return;
  const exited = new Promise((resolve) => holding.child.once("exit", resolve));
  holding.child.kill(signal);
  await exited;
}
