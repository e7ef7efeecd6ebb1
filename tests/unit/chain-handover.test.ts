import { describe, expect, it, vi } from "vitest";
import { RpcError } from "#backend/domains/chain/hex.ts";
import { forwardedNode, handedOverNode } from "#backend/domains/chain/registry-calls.ts";
import { NODE_UNAVAILABLE } from "#backend/domains/chain/remote.ts";
import { NotLeaseHolderError } from "#backend/kit/engine-lease.ts";
import type { EngineOwnership } from "#backend/kit/engine-owner.ts";

/**
 * A chain run here as the lease's holder, when the chains move to another process while a call is under way
 * (docs/decisions/106): the engine's stop fails the call; a read is asked of the new holder, a send is
 * NODE_UNAVAILABLE (the pages' "node unavailable", a 503), and the engine's own answers stand.
 */
describe("a chain's call under way when the chains change hands", () => {
  const setUp = (fail: (method: string) => Error | undefined) => {
    let moved = false;
    const call = vi.fn(async (_path: string, body: { method: string }) => ({ result: `holder's ${body.method}` }));
    const ownership = { call } as unknown as EngineOwnership;
    const node = {
      request: async ({ method }: { method: string }) => {
        const error = fail(method);
        if (error) throw error;
        return `here ${method}`;
      },
    };
    const holder = forwardedNode(ownership, "open-alliance");
    return { chain: handedOverNode(node, "open-alliance", holder, () => moved), call, move: () => (moved = true) };
  };
  const stopped = () => new Error("the worker backend/domains/chain/engine.worker.ts exited with 1");

  it("while the chains stay here, the engine's answers and failures are its own", async () => {
    const { chain, call } = setUp((m) => (m === "eth_call" ? stopped() : undefined));
    await expect(chain.request({ method: "eth_blockNumber", params: [] })).resolves.toBe("here eth_blockNumber");
    await expect(chain.request({ method: "eth_call", params: [] })).rejects.toThrow("exited with 1");
    expect(call).not.toHaveBeenCalled();
  });

  it("moved during a read: the new holder answers it", async () => {
    const { chain, call, move } = setUp(() => (move(), stopped()));
    await expect(chain.request({ method: "eth_getBalance", params: ["0x00", "latest"] })).resolves.toBe(
      "holder's eth_getBalance",
    );
    expect(call).toHaveBeenCalledWith(
      "/rpc/open-alliance",
      { method: "eth_getBalance", params: ["0x00", "latest"] },
      true,
    );
  });

  it("moved during a send: NODE_UNAVAILABLE, never sent again; the engine's own refusal stands", async () => {
    const { chain, call, move } = setUp(() => (move(), stopped()));
    const refused = await chain
      .request({ method: "eth_sendRawTransaction", params: ["0x02"] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RpcError);
    expect((refused as RpcError).code).toBe(NODE_UNAVAILABLE);
    expect(call).not.toHaveBeenCalled();
    const low = setUp(() => (low.move(), Object.assign(new Error("nonce too low"), { code: -32000 })));
    await expect(low.chain.request({ method: "eth_sendRawTransaction", params: ["0x02"] })).rejects.toMatchObject({
      code: -32000,
      message: "nonce too low",
    });
  });

  it("a block the lease's fence refused (lost before this process learnt it) is NODE_UNAVAILABLE", async () => {
    const { chain } = setUp(() => new NotLeaseHolderError("chain"));
    await expect(chain.request({ method: "eth_sendRawTransaction", params: ["0x02"] })).rejects.toMatchObject({
      code: NODE_UNAVAILABLE,
    });
  });
});
