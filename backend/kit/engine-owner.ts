import { randomBytes } from "node:crypto";
import type { Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import type { BackendEnv } from "#backend/env.ts";
import { thisProcess, workerLabel } from "#backend/jobs/worker.ts";
import { EngineLease, type LeaseHolder } from "./engine-lease.ts";
import {
  EngineUnreachableError,
  NotEngineHolderError,
  callLinked,
  callLinkedStream,
  linkKeys,
  startEngineLink,
  type EngineLinkServer,
  type EngineLinkStreamRoute,
  type StreamAnswer,
} from "./engine-link.ts";
import type { EngineRoute } from "./engine-calls.ts";
import { serverSecrets } from "./sealed.ts";

/**
 * Who runs an embedded engine among the portal processes on one database (issue 32, docs/decisions/095): the holder
 * of its lease runs it and answers the others' calls over the engine link; every other process forwards its calls
 * there. Any process may become the holder (a takeover when the holder dies, a handover when it stops) and a holder
 * that loses the lease stops at once; the engine's hooks open and close what it runs on each change.
 */
export type OwnershipHooks = {
  /** Opens the engine here (from the state the previous holder left in the database); the lease is held. */
  becomeOwner: () => Promise<void>;
  /** Stops running it here (the lease was lost or handed over); calls are forwarded from now on. */
  becomePeer: () => Promise<void>;
  /** The holder's answers to the others' calls. */
  answer: EngineRoute;
  /** The holder's answers to the others' streamed calls (IPFS uploads and downloads), when the engine has any. */
  stream?: EngineLinkStreamRoute;
};

/** How long a forwarded call waits for a holder that answers (a takeover takes up to the lease's ttl and a poll). */
export const FORWARD_PATIENCE_MS = 20_000;

/**
 * The engine link of a service (one port for all its engines), opened by the first engine that needs it. One per
 * environment: a server has one; two services opened in one test process each answer on a port of their own.
 */
const linkHolder = globalThis as typeof globalThis & {
  __bsnEngineLinks?: WeakMap<BackendEnv, Promise<EngineLinkServer>>;
};
const linkOf = (env: BackendEnv, keys: Buffer[]) => {
  const links = (linkHolder.__bsnEngineLinks ??= new WeakMap());
  let link = links.get(env);
  if (!link) links.set(env, (link = startEngineLink(keys, env.engineLink!.host, env.engineLink!.port)));
  return link;
};

/** The engines each opened service owns or forwards (one service per process; tests open several). */
const ownerships = new WeakMap<Deps, Map<string, EngineOwnership>>();

/**
 * /healthz `engines`: for each engine run through a lease, who holds it (its address, epoch, and whether it is this
 * process), or null while nobody does; an operator's load balancer or monitor reads it per engine.
 */
export async function engineHolders(
  deps: Deps,
): Promise<Record<string, Awaited<ReturnType<EngineOwnership["holder"]>>>> {
  const out: Record<string, Awaited<ReturnType<EngineOwnership["holder"]>>> = {};
  for (const [engine, ownership] of ownerships.get(deps) ?? []) out[engine] = await ownership.holder();
  return out;
}

export class EngineOwnership {
  /** What this process does with the engine: nothing yet (starting), run it, or forward to its holder. */
  private state: "none" | "owner" | "peer" = "none";
  /** Stopped (a graceful stop: the engine is closed next, then the lease handed over): calls go to the next holder. */
  private stopping = false;
  private lease: EngineLease | undefined;
  private link: EngineLinkServer | undefined;
  private readonly keys: Buffer[];
  private holderCache: LeaseHolder | null = null;
  /** Changes of role happen one at a time. */
  private switching: Promise<void> = Promise.resolve();
  private readonly route: EngineRoute;

  constructor(
    private readonly deps: Deps,
    readonly engine: string,
    private readonly hooks: OwnershipHooks,
    /** False for a cluster's peer worker (docs/decisions/031): it keeps nothing of its own and never runs an engine. */
    private readonly contend: boolean,
  ) {
    this.keys = linkKeys(serverSecrets(deps.env, "session-secret"));
    this.route = (path, body) => hooks.answer(path, body);
  }

  /** Whether this process runs the engine now. */
  get isOwner(): boolean {
    return this.state === "owner";
  }

  /** Whether calls are answered here: the holder, not stopping (after a stop they go to the next holder). */
  get answersHere(): boolean {
    return this.state === "owner" && !this.stopping;
  }

  /** Takes the lease if it is free and opens the engine, else waits until the holder answers `/health`. */
  async start(): Promise<void> {
    let mine = ownerships.get(this.deps);
    if (!mine) ownerships.set(this.deps, (mine = new Map()));
    mine.set(this.engine, this);
    const link = (this.link = await linkOf(this.deps.env, this.keys));
    const host = this.deps.env.engineLink!.host;
    const address =
      this.deps.env.engineLink!.url ??
      `http://${host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host}:${link.port}`;
    // One name per opened service: two services in one process (tests) are two holders.
    const me = `${workerLabel(thisProcess)}/${randomBytes(3).toString("hex")}`;
    this.lease = new EngineLease(
      this.deps.db,
      this.engine,
      address,
      {
        onAcquired: () => this.switchTo("owner"),
        onLost: () => this.switchTo("peer"),
      },
      me,
    );
    if (this.contend && (await this.lease.tryAcquire())) await this.lease.keepWhile(() => this.switchTo("owner"));
    if (this.contend) this.lease.start();
    if (this.state === "owner") return;
    await this.waitForHolder();
    // Unless this process took the lease over while it waited.
    if (this.state === "none") await this.switchTo("peer");
  }

  private switchTo(target: "owner" | "peer"): Promise<void> {
    this.switching = this.switching.then(async () => {
      if (target === this.state) return;
      if (target === "owner") {
        const started = performance.now();
        await this.hooks.becomeOwner();
        this.state = "owner";
        this.link!.serve(this.engine, this.route, this.hooks.stream);
        console.warn(
          `${this.engine} engine: run by this process from now on (opened in ${Math.round(performance.now() - started)} ms)`,
        );
      } else {
        this.link!.serve(this.engine, null);
        this.state = "peer";
        await this.hooks.becomePeer();
      }
    });
    return this.switching;
  }

  /** A peer at start: until the holder answers (or this process became the holder meanwhile). */
  private async waitForHolder(timeoutMs = 120_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      try {
        await this.call("/health", null, true);
        return;
      } catch (error) {
        if (this.state === "owner") return;
        if (Date.now() > until) throw error;
      }
    }
  }

  /** The holder now: its address and epoch, and whether it is this process (/healthz). */
  async holder(): Promise<{ holder: string; address: string; epoch: number; self: boolean } | null> {
    const now = await this.lease?.current();
    return now
      ? { holder: now.holder, address: now.address, epoch: now.epoch, self: now.holder === this.lease!.me }
      : null;
  }

  /**
   * One call to the engine: answered here when this process runs it, else forwarded to the holder. A call that
   * cannot have run (no holder yet, the holder refused the connection or no longer runs the engine) is sent again
   * until a holder answers, for up to FORWARD_PATIENCE_MS; so is any call that is safe to repeat (`resendable`).
   */
  async call<T>(path: string, body: unknown, resendable: boolean): Promise<T> {
    const until = Date.now() + FORWARD_PATIENCE_MS;
    for (;;) {
      if (this.answersHere) {
        try {
          return (await this.hooks.answer(path, body)) as T;
        } catch (error) {
          await this.handedOverDuring(error, resendable);
          continue;
        }
      }
      try {
        const holder = (this.holderCache ??= (await this.lease!.current()) ?? null);
        if (!holder) throw new EngineUnreachableError(`no process runs the ${this.engine} engine now`, false);
        if (holder.holder === this.lease!.me) throw new NotEngineHolderError("this process is taking the engine over");
        return await callLinked<T>(this.keys, holder.address, this.engine, path, body);
      } catch (error) {
        const again =
          error instanceof NotEngineHolderError ||
          (error instanceof EngineUnreachableError && (!error.sent || resendable));
        if (!again || Date.now() > until) throw error;
        this.holderCache = null;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  /**
   * One streamed call (./engine-link.ts): answered here when this process runs the engine, else forwarded to the
   * holder. Sent again, as `call` does, while it cannot have run: no holder yet, a process that no longer runs the
   * engine (409), or one that cannot be reached before any of `body` was read (the link reads it only once the holder
   * has accepted the call); and a call without a body whenever it is `resendable`. A call whose body was read in part
   * is never sent again (the bytes are gone): its EngineUnreachableError says `sent`.
   */
  async stream(
    path: string,
    body: AsyncIterable<Uint8Array> | null,
    resendable: boolean,
    signal?: AbortSignal,
  ): Promise<StreamAnswer> {
    const until = Date.now() + FORWARD_PATIENCE_MS;
    for (;;) {
      if (this.answersHere) {
        try {
          return await this.hooks.stream!(path, body ?? (async function* () {})());
        } catch (error) {
          await this.handedOverDuring(error, resendable && !body);
          continue;
        }
      }
      try {
        const holder = (this.holderCache ??= (await this.lease!.current()) ?? null);
        if (!holder) throw new EngineUnreachableError(`no process runs the ${this.engine} engine now`, false);
        if (holder.holder === this.lease!.me) throw new NotEngineHolderError("this process is taking the engine over");
        return await callLinkedStream(this.keys, holder.address, this.engine, path, body, { signal });
      } catch (error) {
        const again =
          error instanceof NotEngineHolderError ||
          (error instanceof EngineUnreachableError && (!error.sent || (resendable && !body)));
        if (!again || Date.now() > until || signal?.aborted) throw error;
        this.holderCache = null;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  /**
   * A call answered here failed. When the lease moved on meanwhile (a handover or a takeover stopped the engine under
   * the call, docs/decisions/106), that is not the engine's answer: a call safe to repeat goes to the new holder
   * (this returns), and one that may have run is refused as sent but unanswered (the caller's 503), never a 500.
   * Any other failure is the engine's own answer, thrown as it is.
   */
  private async handedOverDuring(error: unknown, resendable: boolean): Promise<void> {
    // A change of role under way ends first (the engine stops after the role changed).
    await this.switching;
    if (this.answersHere) throw error;
    if (!resendable)
      throw new EngineUnreachableError(
        `the ${this.engine} engine moved to another process during the call (${(error as Error).message ?? error})`,
        true,
      );
  }

  /** Inside a write's transaction: throws unless this process holds the lease (see EngineLease.fence). */
  fence(tx: Tx): Promise<void> {
    return this.lease!.fence(tx);
  }

  /** Stops renewing and taking the lease, and answering the others' calls (the engine is closed next). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.lease?.stop();
    await this.switching;
    if (this.state === "owner") this.link?.serve(this.engine, null);
  }

  /** Once the engine is closed: hands the lease over at once when this process held it. */
  async release(): Promise<void> {
    this.state = "none";
    ownerships.get(this.deps)?.delete(this.engine);
    await this.lease?.release();
  }
}
