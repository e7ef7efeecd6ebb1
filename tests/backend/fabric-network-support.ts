import { spawn, execFile, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { migratedPgdata } from "./in-process.ts";

/**
 * The stand-in Fabric network (scripts/fabric-network.ts, docs/decisions/068) as the tests run it: `serve` as a child
 * process of its own (its own PGlite under the directory, TLS on a free port), and the admin's commands.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const script = path.join(root, "scripts/fabric-network.ts");
const run = promisify(execFile);

export type StandIn = {
  child: ChildProcess;
  dir: string;
  port: number;
  endpoint: string;
  tlsCaFile: string;
  output: () => string;
  /** Ends it: SIGTERM (a clean stop) or SIGKILL (a crash); resolves once it is gone. */
  stop(signal?: "SIGTERM" | "SIGKILL"): Promise<void>;
};

/**
 * Starts `serve` on `dir` (a free port) and resolves once it says where it serves. A new directory's database starts
 * as a copy of the migrated template (./in-process.ts `migratedPgdata`) instead of migrating a fresh PGlite; a
 * restart on the same directory opens the database it left.
 */
export async function startStandIn(dir: string): Promise<StandIn> {
  const pgdata = path.join(dir, "data", "pgdata");
  if (!existsSync(pgdata)) {
    mkdirSync(path.dirname(pgdata), { recursive: true });
    cpSync(await migratedPgdata(), pgdata, { recursive: true });
  }
  // BENCH_CPU_PROF=<dir> (bench:fabric) writes the stand-in's CPU profile there when it stops.
  const prof = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, "--import", "tsx", script, "serve", "--dir", dir, "--port", "0"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (b: Buffer) => (output += b.toString()));
  child.stderr!.on("data", (b: Buffer) => (output += b.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const seen = () => {
      const m = /serving grpcs:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (m) resolve(Number(m[1]));
    };
    child.stdout!.on("data", seen);
    child.once("exit", (code, signal) => reject(new Error(`the stand-in ended (${code ?? signal}): ${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    dir,
    port,
    endpoint: `grpcs://127.0.0.1:${port}`,
    tlsCaFile: path.join(dir, "tls-ca.pem"),
    output: () => output,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** One admin command (`add-msp`, `install`) against the stand-in on `dir`: its printed answer, or it throws. */
export async function standInAdmin(dir: string, command: "add-msp" | "install", args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", script, command, "--dir", dir, ...args], {
    cwd: root,
  });
  return stdout;
}
