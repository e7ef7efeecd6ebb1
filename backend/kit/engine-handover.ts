import { NotLeaseHolderError } from "./engine-lease.ts";
import { EngineUnreachableError } from "./engine-link.ts";

/** How a call the holder makes on its own engine is treated when the engine changes hands under it. */
export type HeldCallOptions<T> = {
  /** Whether the engine moved to another process (this one is a peer now, or stopping): EngineOwnership.answersHere. */
  movedOn: () => boolean;
  /** The same call asked of the next holder, for a call that is safe to repeat (a read); none for a write. */
  again?: () => Promise<T>;
  /** Failures that are the engine's own answer even after a move (a refused package): thrown as they are. */
  stands?: (error: unknown) => boolean;
};

/**
 * A call the holder of a lease makes directly on the engine it runs, not through EngineOwnership.call: the Fabric
 * peer's host, the dedicated networks (docs/decisions/109; the chains have their own, registry-calls.ts). When it fails
 * and the engine moved to another process meanwhile (a graceful stop handing the lease over, or a takeover behind a
 * stalled holder: both change the role before the engine is closed, so `movedOn` is already true when the stop fails
 * the call), the failure is not the engine's answer. A read is asked of the next holder (`again`); a write is refused
 * as sent but unanswered, EngineUnreachableError, as a forwarded call that lost its holder is. A write the lease's
 * fence refused (the lease was lost before this process learnt it) is refused the same way. Any other failure is the
 * engine's own answer, thrown as it is.
 */
export async function heldCall<T>(engine: string, run: () => Promise<T>, options: HeldCallOptions<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (options.stands?.(error)) throw error;
    if (error instanceof NotLeaseHolderError)
      throw new EngineUnreachableError(`the ${engine} engine is being taken over by another process`, true);
    if (!options.movedOn()) throw error;
    if (options.again) return options.again();
    throw new EngineUnreachableError(
      `the ${engine} engine moved to another process during the call (${(error as Error)?.message ?? String(error)})`,
      true,
    );
  }
}
