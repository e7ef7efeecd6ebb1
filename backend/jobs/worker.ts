import { randomBytes } from "node:crypto";
import { readlinkSync } from "node:fs";
import { hostname } from "node:os";

/**
 * Who runs a job (docs/decisions/005): the process that claimed it, written on the job row as `locked_by`.
 * A random id per start tells two lives of one pid apart; host, pid namespace and pid let another process
 * on the same machine see that the holder has ended, so its jobs need not wait for their leases to run out.
 */
export type Worker = {
  readonly host: string;
  /** The pid namespace (Linux, "/proc/self/ns/pid"), so that containers sharing a host name are told apart; "" elsewhere. */
  readonly pidSpace: string;
  readonly pid: number;
  /** Random, new at every start of a process. */
  readonly instance: string;
};

function pidNamespace(): string {
  try {
    return readlinkSync("/proc/self/ns/pid").replace(/\D/g, "");
  } catch {
    return "";
  }
}

export function newWorker(overrides: Partial<Worker> = {}): Worker {
  return {
    host: hostname(),
    pidSpace: pidNamespace(),
    pid: process.pid,
    instance: randomBytes(6).toString("hex"),
    ...overrides,
  };
}

/** This process, for as long as it lives. */
export const thisProcess: Worker = newWorker();

/** The text stored in `jobs.locked_by`: "<host>:<pid namespace>:<pid>:<instance>". */
export function workerLabel(worker: Worker): string {
  return `${worker.host}:${worker.pidSpace}:${worker.pid}:${worker.instance}`;
}

/** The worker a `locked_by` text names, or null when it is not one. */
export function parseWorker(label: string | null | undefined): Worker | null {
  const match = /^(.+):(\d*):(\d+):([0-9a-f]+)$/.exec(label ?? "");
  if (!match) return null;
  const pid = Number(match[3]);
  return pid > 0 ? { host: match[1], pidSpace: match[2], pid, instance: match[4] } : null;
}

/** Whether a process with this pid exists in this process's pid namespace (EPERM: it does, owned by another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether `holder` has certainly ended, as far as `me` can tell: only a holder on the same host and in the
 * same pid namespace can be checked; it has ended when it had my pid but another instance (an earlier life
 * of this pid, e.g. pid 1 in a restarted container) or when no process has its pid any more. Anything else
 * (another host, a live pid) is left to its lease.
 */
export function hasEnded(holder: Worker, me: Worker, alive: (pid: number) => boolean = pidAlive): boolean {
  if (holder.host !== me.host || holder.pidSpace !== me.pidSpace || holder.instance === me.instance) return false;
  if (holder.pid === me.pid) return true;
  return !alive(holder.pid);
}
