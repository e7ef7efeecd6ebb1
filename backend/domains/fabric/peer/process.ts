import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import type { ChaincodeResponse } from "../peer-api.ts";
import type { ChaincodeListener } from "./listener.ts";
import type { ChaincodeSession, TxContext } from "./session.ts";

/** The limits of one chaincode process (docs/decisions/064 gives the numbers and why). */
export type ProcessLimits = {
  /** V8's old space (`--max-old-space-size`, MB). */
  heapMb: number;
  /** The resident size (MB) past which the peer kills the process (off-heap buffers included). */
  rssMb: number;
  /** One Init or Invoke (ms). */
  invocationMs: number;
  /** From spawn to REGISTER (ms). */
  startMs: number;
};

export const DEFAULT_LIMITS: ProcessLimits = { heapMb: 192, rssMb: 384, invocationMs: 30_000, startMs: 20_000 };

const fail = (message: string): { response: ChaincodeResponse } => ({
  response: { status: 500, message, payload: new Uint8Array() },
});

/**
 * One chaincode's child process (issue 28 item 2): untrusted code, so `node --experimental-permission` may read
 * only its unpacked package, the launcher and the shim runtime; no `--allow-fs-write`, `--allow-child-process`,
 * `--allow-worker`; an environment with nothing but the peer's address and a one-time token. A process that
 * throws, loops past the time limit, grows past its memory or exits answers the proposals under way with an
 * error; the next proposal starts a new one.
 */
export class ChaincodeProcess {
  private child: ChildProcess | null = null;
  private session: Promise<ChaincodeSession> | null = null;
  private exitReason: string | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  inFlight = 0;
  lastUsed = Date.now();
  /** How many processes this chaincode has started (a restart after a failure counts). */
  starts = 0;

  constructor(
    readonly key: string,
    private readonly options: {
      name: string;
      packageDir: string;
      launcher: string;
      runtime: { shim: string; api: string; readable: string[] };
      listener: ChaincodeListener;
      limits: ProcessLimits;
    },
  ) {}

  get running(): boolean {
    return this.child !== null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  private start(): Promise<ChaincodeSession> {
    const { listener, limits, runtime, packageDir, launcher, name } = this.options;
    const expected = listener.expect();
    const args = [
      "--experimental-permission",
      `--allow-fs-read=${packageDir}/`,
      `--allow-fs-read=${launcher}`,
      ...runtime.readable.map((dir) => `--allow-fs-read=${dir}`),
      `--max-old-space-size=${limits.heapMb}`,
      "--disable-warning=ExperimentalWarning",
      launcher,
      runtime.shim,
      runtime.api,
    ];
    const child: ChildProcess = spawn(process.execPath, args, {
      cwd: packageDir,
      env: {
        CORE_PEER_ADDRESS: listener.address,
        CORE_CHAINCODE_ID_NAME: `${name}:${expected.token}`,
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "ignore", "pipe"],
    });
    this.child = child;
    this.starts++;
    this.exitReason = null;
    let stderr = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    const exited = new Promise<never>((_, reject) => {
      child.once("exit", (code: number | null, signal: string | null) => {
        const oom = /heap out of memory|Allocation failed/i.test(stderr);
        const reason =
          this.exitReason ??
          (oom
            ? `the chaincode ran out of memory (${limits.heapMb} MB heap) and was stopped`
            : `the chaincode process exited (${signal ?? `code ${code}`})`);
        this.onExit(child, reason);
        reject(new Error(reason));
      });
      child.once("error", (e: Error) => reject(e));
    });
    exited.catch(() => undefined);
    this.watchdog = setInterval(() => void this.checkMemory(child), 250);
    this.watchdog.unref();
    const timer = setTimeout(() => expected.cancel(), limits.startMs);
    const session = Promise.race([expected.session, exited]).finally(() => clearTimeout(timer));
    session.then(
      (s) => s.whenClosed((reason) => this.kill(reason)),
      () => this.kill("the chaincode process did not register"),
    );
    return session;
  }

  private async checkMemory(child: ChildProcess) {
    if (!child.pid || this.child !== child) return;
    const status = await readFile(`/proc/${child.pid}/status`, "utf8").catch(() => "");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    if (kb > this.options.limits.rssMb * 1024)
      this.kill(`the chaincode used more than ${this.options.limits.rssMb} MB and was stopped`);
  }

  private onExit(child: ChildProcess, reason: string) {
    if (this.child !== child) return;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    this.child = null;
    const session = this.session;
    this.session = null;
    void session?.then((s) => s.close(reason)).catch(() => undefined);
  }

  /** Kills the process (SIGKILL); proposals under way answer `reason`. */
  kill(reason: string) {
    const child = this.child;
    if (!child) return;
    this.exitReason ??= reason;
    // Detached at once: the next proposal starts a new process even before this one's exit is seen.
    this.onExit(child, reason);
    child.kill("SIGKILL");
  }

  /** Runs one Init or Invoke within the time limit (never rejects: a failure is a 500 response). */
  async invoke(input: {
    init: boolean;
    channel: string;
    txId: string;
    args: Uint8Array[];
    signedProposal: Uint8Array;
    ctx: TxContext;
  }): Promise<{ response: ChaincodeResponse; event?: Uint8Array }> {
    this.inFlight++;
    this.lastUsed = Date.now();
    try {
      if (!this.session || !this.child) this.session = this.start();
      let session: ChaincodeSession;
      try {
        session = await this.session;
      } catch (error) {
        return fail(error instanceof Error ? error.message : String(error));
      }
      let timer: NodeJS.Timeout | undefined;
      const limit = this.options.limits.invocationMs;
      const timeout = new Promise<{ response: ChaincodeResponse }>((resolve) => {
        timer = setTimeout(() => {
          const message = `the chaincode did not answer within ${limit} ms and was stopped`;
          this.kill(message);
          resolve(fail(message));
        }, limit);
      });
      try {
        return await Promise.race([session.invoke(input), timeout]);
      } finally {
        clearTimeout(timer);
      }
    } finally {
      this.inFlight--;
      this.lastUsed = Date.now();
    }
  }

  /** Stops the process (idle, or the peer closing). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    this.kill("the chaincode process was stopped");
    await gone;
  }
}
