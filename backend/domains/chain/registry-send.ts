import { randomUUID } from "node:crypto";
import type { Deps } from "#backend/deps.ts";
import type { BackendEnv } from "#backend/env.ts";
import { EngineOwnership } from "#backend/kit/engine-owner.ts";
import { openWith, sealWith, type SealPurpose } from "#backend/kit/sealed.ts";
import { forwardTo } from "./registry-calls.ts";

/**
 * One sender's transactions through several processes (issue 32 item 3, docs/decisions/099): the nonce of every
 * transaction on an embedded chain is taken in the chains' holder, in its queue per chain and sender, wherever the
 * send began. A forwarding process asks the holder to sign (`/sign`: the holder queues it, takes the next nonce and
 * answers the signed transaction), keeps it as its caller asks (`onSigned`, ADR 045), then tells the holder to send
 * it (`/broadcast`) or to let the nonce go (`/abandon`). The key travels sealed with the deployment's secret.
 */
type SendInput = { to?: string; data?: string; value?: bigint; gasLimit?: bigint };
type Send = (
  name: string,
  privateKey: string,
  input: SendInput,
  onSigned?: (hash: string, raw: string) => Promise<void>,
) => Promise<string>;

const LINKED_KEYS: SealPurpose = { label: "bsn-engine-link-sender-key", fallbackFile: "chain-secret" };
/** How long the holder keeps a signed transaction's nonce for the forwarding process's next step. */
const CONFIRM_MS = 30_000;

type Wire = { name: string; key: string; to?: string; data?: string; value?: string; gasLimit?: string };
type Signed = { ticket: string; hash: string; raw: string };

/** A forwarding process's send: signed in the holder's queue, kept here, then sent by the holder. */
export async function sendThroughHolder(
  ownership: EngineOwnership,
  env: BackendEnv,
  name: string,
  privateKey: string,
  input: SendInput,
  onSigned?: (hash: string, raw: string) => Promise<void>,
): Promise<string> {
  const wire: Wire = {
    name,
    key: sealWith(env, LINKED_KEYS, privateKey),
    to: input.to,
    data: input.data,
    value: input.value?.toString(),
    gasLimit: input.gasLimit?.toString(),
  };
  const signed = await forwardTo<Signed>(ownership, "/sign", wire, false);
  try {
    await onSigned?.(signed.hash, signed.raw);
  } catch (error) {
    await forwardTo(ownership, "/abandon", { ticket: signed.ticket }, true).catch(() => undefined);
    throw error;
  }
  return (await forwardTo<{ hash: string }>(ownership, "/broadcast", { ticket: signed.ticket }, false)).hash;
}

type Held = { go: () => void; stop: (error: Error) => void; done: Promise<string>; timer: NodeJS.Timeout };

/** The holder's side: the sends signed for other processes, waiting for their next step. */
export class HeldSends {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly env: BackendEnv,
    private readonly send: Send,
  ) {}

  /** `/sign`, `/broadcast` or `/abandon`; undefined for any other path. */
  async answer(path: string, body: unknown): Promise<unknown> {
    if (path === "/sign") return this.sign(body as Wire);
    const ticket = String((body as { ticket?: unknown } | null)?.ticket ?? "");
    const held = this.held.get(ticket);
    if (path === "/abandon") {
      held?.stop(new Error("the sending process let the transaction go"));
      return { abandoned: !!held };
    }
    if (path !== "/broadcast") return undefined;
    if (!held) throw new Error("the signed transaction is no longer held (more than 30 s passed, or a takeover)");
    held.go();
    return { hash: await held.done };
  }

  private sign(wire: Wire): Promise<Signed> {
    const ticket = randomUUID();
    let gate!: { go: () => void; stop: (error: Error) => void };
    const released = new Promise<void>((go, stop) => (gate = { go, stop }));
    return new Promise<Signed>((answer, refuse) => {
      const done = this.send(
        wire.name,
        openWith(this.env, LINKED_KEYS, wire.key),
        {
          to: wire.to,
          data: wire.data,
          value: wire.value === undefined ? undefined : BigInt(wire.value),
          gasLimit: wire.gasLimit === undefined ? undefined : BigInt(wire.gasLimit),
        },
        async (hash, raw) => {
          answer({ ticket, hash, raw });
          // The queue of this sender waits here until the forwarding process has kept the transaction.
          await released;
        },
      );
      const timer = setTimeout(() => gate.stop(new Error("the sending process did not confirm in 30 s")), CONFIRM_MS);
      timer.unref();
      this.held.set(ticket, { ...gate, done, timer });
      const forget = () => {
        clearTimeout(timer);
        this.held.delete(ticket);
      };
      // Failed before it was signed (the gas estimate, a bad input): the caller gets the chain's reason.
      done.then(forget, (error: unknown) => {
        forget();
        refuse(error);
      });
    });
  }
}

/**
 * One sender's nonces on nodes by URL (CHAIN_NODES) with several portal processes on one database
 * (docs/decisions/106): nothing runs here, the nodes are external, but two processes sending for one key (the
 * treasury's gas assignments) would each take the node's next nonce and one of them would be refused. So one process,
 * the holder of the `chain-sends` lease, takes every process's sends in its queues, as the chains' holder does for
 * the embedded chains; the others ask it, and another takes over when it dies or stops.
 */
export function sendsLease(deps: Deps, send: Send): EngineOwnership {
  let held: HeldSends | undefined;
  return new EngineOwnership(
    deps,
    "chain-sends",
    {
      becomeOwner: async () => undefined,
      becomePeer: async () => undefined,
      answer: async (path, body) => {
        if (path === "/health") return {};
        const answered = await (held ??= new HeldSends(deps.env, send)).answer(path, body);
        if (answered === undefined) throw new Error(`no engine call ${path}`);
        return answered;
      },
    },
    // A cluster's peer worker never holds an engine (docs/decisions/031).
    deps.env.cluster?.role !== "peer",
  );
}

/** Runs `run` after the sends of `queue` before it (one sender on one node: each takes the next nonce). */
export function inQueue<T>(queues: Map<string, Promise<unknown>>, queue: string, run: () => Promise<T>): Promise<T> {
  const result = (queues.get(queue) ?? Promise.resolve()).then(run, run);
  queues.set(
    queue,
    result.catch(() => undefined),
  );
  return result;
}
