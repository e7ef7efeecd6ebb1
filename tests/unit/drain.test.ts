import { describe, expect, it } from "vitest";
import { createDrain } from "#backend/http/drain.ts";

/** A call that ends when the test says so. */
function pending<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("the shutdown drain (backend/http/drain.ts)", () => {
  it("closes at once when no call is under way, and refuses calls afterwards", async () => {
    const drain = createDrain();
    expect(
      await drain.admit(
        async () => "done",
        () => "refused",
      ),
    ).toBe("done");
    await drain.close();
    expect(drain.closing).toBe(true);
    expect(
      await drain.admit(
        async () => "done",
        () => "refused",
      ),
    ).toBe("refused");
  });

  it("waits for every call admitted before it, including one that fails", async () => {
    const drain = createDrain();
    const a = pending<string>();
    const b = pending<string>();
    const first = drain.admit(
      () => a.promise,
      () => "refused",
    );
    const second = drain
      .admit(
        () => b.promise,
        () => "refused",
      )
      .catch((error: Error) => error.message);
    expect(drain.inFlight).toBe(2);
    let closed = false;
    const closing = drain.close().then(() => {
      closed = true;
    });
    // A call arriving while the drain waits is refused; it does not hold the close up.
    expect(
      await drain.admit(
        async () => "late",
        () => "refused",
      ),
    ).toBe("refused");
    a.resolve("a");
    expect(await first).toBe("a");
    await Promise.resolve();
    expect(closed).toBe(false);
    b.reject(new Error("b failed"));
    expect(await second).toBe("b failed");
    await closing;
    expect(closed).toBe(true);
    expect(drain.inFlight).toBe(0);
  });

  it("lets several closers wait for the same calls", async () => {
    const drain = createDrain();
    const a = pending<void>();
    const call = drain.admit(
      () => a.promise,
      () => undefined,
    );
    const order: string[] = [];
    const one = drain.close().then(() => order.push("one"));
    const two = drain.close().then(() => order.push("two"));
    await Promise.resolve();
    expect(order).toEqual([]);
    a.resolve();
    await Promise.all([call, one, two]);
    expect(order.sort()).toEqual(["one", "two"]);
  });
});
