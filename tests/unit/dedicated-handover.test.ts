import { describe, expect, it, vi } from "vitest";
import type { Deps } from "#backend/deps.ts";
import { basicHeader, hashPassword } from "#backend/domains/chain/dedicated/credentials.ts";
import type { NetworkRuntime } from "#backend/domains/chain/dedicated/network.ts";
import { EmbeddedProvisioner } from "#backend/domains/chain/dedicated/provisioner.ts";
import type { Entry, NetworkRow } from "#backend/domains/chain/dedicated/provisioner-state.ts";
import type { NetworkStatus } from "#backend/domains/chain/dedicated/types.ts";
import { NODE_UNAVAILABLE } from "#backend/domains/chain/remote.ts";
import { NotLeaseHolderError } from "#backend/kit/engine-lease.ts";
import { EngineUnreachableError } from "#backend/kit/engine-link.ts";
import type { EngineOwnership } from "#backend/kit/engine-owner.ts";

/**
 * The dedicated networks run here as the holder of the `dedicated` lease, when they move to another process while a
 * call is under way (docs/decisions/109): the networks' halt fails the call; a read through a network's gateway and
 * a network's status are asked of the next holder, a send and a change of a network are refused as unanswered.
 */
class Probe extends EmbeddedProvisioner {
  status$: () => Promise<NetworkStatus> = async () => ({ name: "here" }) as NetworkStatus;

  constructor(ownership: EngineOwnership) {
    super({ env: { dataDir: "/nonexistent" } } as unknown as Deps);
    this.ownership = ownership;
  }

  add(entry: Entry) {
    this.entries.set(entry.row.name, entry);
  }

  change<T>(name: string, work: () => Promise<T>): Promise<T> {
    return this.locked(name, work);
  }

  protected override statusOf(): Promise<NetworkStatus> {
    return this.status$();
  }
}

describe("a dedicated network's call under way when the networks change hands", () => {
  const credentials = { user: "alice", password: "open sesame" };
  const stopped = () => new Error("the worker backend/domains/chain/dedicated/network.worker.ts exited with 1");
  const setUp = async (fail: (method: string) => Error | undefined) => {
    let moved = false;
    const call = vi.fn(async (path: string, _args: unknown[], _resendable: boolean) =>
      path === "/serve"
        ? { status: 200, body: { jsonrpc: "2.0", id: 1, result: "holder's answer" } }
        : { name: "holder's status" },
    );
    const ownership = {
      get answersHere() {
        return !moved;
      },
      call,
    } as unknown as EngineOwnership;
    const gateway = {
      request: async ({ method }: { method: string }) => {
        const error = fail(method);
        if (error) throw error;
        return `here ${method}`;
      },
    };
    const row = {
      name: "net-a",
      state: "running",
      authUser: credentials.user,
      authPasswordHash: await hashPassword(credentials.password),
      requestsPerSecond: null,
      storageLimitBytes: null,
    } as unknown as NetworkRow;
    const provisioner = new Probe(ownership);
    provisioner.add({
      row,
      runtime: { gateway } as unknown as NetworkRuntime,
      phase: "ready",
      counters: new Map(),
      verified: new Map(),
      windows: new Map(),
      funding: Promise.resolve(),
    } as unknown as Entry);
    const serve = (method: string) =>
      provisioner.serve({
        network: "net-a",
        target: "gateway",
        method: "POST",
        authorization: basicHeader(credentials),
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: [] }),
      });
    return { provisioner, serve, call, move: () => (moved = true) };
  };

  it("while the networks stay here, a node's answers and failures are its own", async () => {
    const { serve, call } = await setUp((m) => (m === "eth_call" ? stopped() : undefined));
    await expect(serve("eth_blockNumber")).resolves.toMatchObject({
      status: 200,
      body: { result: "here eth_blockNumber" },
    });
    // The node's own failure is answered as an internal error, and logged (as before the lease).
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const failed = await serve("eth_call");
    expect(failed.body).toMatchObject({ id: 7, error: { code: -32603 } });
    expect(logged).toHaveBeenCalledWith("chain rpc failed", expect.objectContaining({ message: stopped().message }));
    expect(call).not.toHaveBeenCalled();
  });

  it("moved during a read through the gateway: the next holder's gateway answers it", async () => {
    const { serve, call, move } = await setUp(() => (move(), stopped()));
    await expect(serve("eth_getBalance")).resolves.toEqual({
      status: 200,
      body: { jsonrpc: "2.0", id: 7, result: "holder's answer" },
    });
    expect(call).toHaveBeenCalledWith(
      "/serve",
      [
        expect.objectContaining({
          network: "net-a",
          target: "gateway",
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [] }),
        }),
      ],
      true,
    );
  });

  it("moved during a send through the gateway: NODE_UNAVAILABLE, never sent again", async () => {
    const { serve, call, move } = await setUp(() => (move(), stopped()));
    const reply = await serve("eth_sendRawTransaction");
    expect(reply).toMatchObject({ status: 200, body: { id: 7, error: { code: NODE_UNAVAILABLE } } });
    expect(call).not.toHaveBeenCalled();
  });

  it("a network's status moved under way is the next holder's", async () => {
    const { provisioner, call, move } = await setUp(() => undefined);
    provisioner.status$ = async () => {
      move();
      throw stopped();
    };
    await expect(provisioner.status("net-a")).resolves.toEqual({ name: "holder's status" });
    expect(call).toHaveBeenCalledWith("/status", ["net-a"], true);
  });

  it("a change moved under way is refused as unanswered; the next one in its lock does not run here", async () => {
    const { provisioner, call, move } = await setUp(() => undefined);
    const underWay = provisioner
      .change("net-a", async () => {
        move();
        throw stopped();
      })
      .catch((error: unknown) => error);
    const work = vi.fn(async () => "changed");
    const next = provisioner.change("net-a", work).catch((error: unknown) => error);
    const refused = await underWay;
    expect(refused).toBeInstanceOf(EngineUnreachableError);
    expect((refused as EngineUnreachableError).sent).toBe(true);
    expect((refused as Error).message).toMatch(/dedicated engine moved to another process during the call/);
    const late = await next;
    expect(late).toBeInstanceOf(EngineUnreachableError);
    expect((late as EngineUnreachableError).sent).toBe(false);
    expect(work).not.toHaveBeenCalled();
    expect(call).not.toHaveBeenCalled();
  });

  it("a change's own failure stands while the networks stay here; the fence's refusal is a clean refusal", async () => {
    const { provisioner } = await setUp(() => undefined);
    await expect(
      provisioner.change("net-a", async () => {
        throw new Error("net-a grows only: from 4 to at most 16 peers");
      }),
    ).rejects.toThrow("grows only");
    const fenced = await provisioner
      .change("net-a", async () => {
        throw new NotLeaseHolderError("dedicated");
      })
      .catch((error: unknown) => error);
    expect(fenced).toBeInstanceOf(EngineUnreachableError);
    expect((fenced as Error).message).toMatch(/being taken over by another process/);
  });
});
