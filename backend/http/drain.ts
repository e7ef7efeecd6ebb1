/**
 * Counts the calls a process is answering, so that a shutdown can wait for them before it closes the
 * database. Once `close()` is called, `admit()` refuses new calls; `close()` resolves when the last call
 * admitted before it has ended.
 */
export function createDrain() {
  let inFlight = 0;
  let closing = false;
  const waiting: (() => void)[] = [];
  const settle = () => {
    if (inFlight === 0) waiting.splice(0).forEach((resolve) => resolve());
  };
  return {
    get closing() {
      return closing;
    },
    get inFlight() {
      return inFlight;
    },
    /** Runs `work` as one call, or answers `refused()` when the drain has begun. */
    async admit<T>(work: () => Promise<T>, refused: () => T): Promise<T> {
      if (closing) return refused();
      inFlight += 1;
      try {
        return await work();
      } finally {
        inFlight -= 1;
        settle();
      }
    },
    /** Refuses new calls and resolves once every admitted call has ended. */
    close(): Promise<void> {
      closing = true;
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        settle();
      });
    },
  };
}

export type Drain = ReturnType<typeof createDrain>;
