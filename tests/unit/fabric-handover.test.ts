import { describe, expect, it, vi } from "vitest";
import type { RemoteHost } from "#backend/domains/fabric/cluster.ts";
import { HandedOverHost } from "#backend/domains/fabric/handed-over.ts";
import { ChaincodeRefused, type FabricHost } from "#backend/domains/fabric/peer/host.ts";
import type { ProposalInput } from "#backend/domains/fabric/peer-api.ts";
import { NotLeaseHolderError } from "#backend/kit/engine-lease.ts";
import { EngineUnreachableError } from "#backend/kit/engine-link.ts";

/**
 * The Fabric peer run here as the holder of the `fabric` lease, when it moves to another process while a call is
 * under way (docs/decisions/109): the peer's close fails the call; a read is asked of the next holder (RemoteHost), a
 * write is refused as sent but unanswered, and the peer's own answers stand.
 */
describe("a Fabric call under way when the peer changes hands", () => {
  const closed = () => new Error("the chaincode process ended: the Fabric peer is closed");
  const setUp = (fail: (what: string) => Error | undefined) => {
    let moved = false;
    const here = (what: string, value: unknown) => async () => {
      const error = fail(what);
      if (error) throw error;
      return value;
    };
    const embedded = {
      channel: "alliance",
      chaincode: () => ({ name: "cc", version: "1" }),
      height: () => 3n,
      definition: here("definition", { name: "cc", version: "1", sequence: 1 }),
      simulate: here("simulate", "here's simulation"),
      order: here("order", { txId: "t1", blockNumber: 3n, validationCode: 0 }),
      commitStatus: here("commitStatus", "here's status"),
      waitForCommit: here("waitForCommit", "here's commit"),
    };
    const local = {
      peer: vi.fn(async () => {
        const error = fail("peer");
        if (error) throw error;
        return embedded;
      }),
      install: vi.fn(here("install", { name: "cc", version: "2", initTxId: null, upgraded: true })),
      dropChannels: vi.fn(here("drop", undefined)),
    } as unknown as FabricHost;
    const holderPeer = {
      simulate: vi.fn(async () => "holder's simulation"),
      definition: vi.fn(async () => ({ name: "cc", version: "2", sequence: 2 })),
      commitStatus: vi.fn(async () => "holder's status"),
      waitForCommit: vi.fn(async () => "holder's commit"),
      order: vi.fn(async () => "holder's order"),
    };
    const remote = { peer: vi.fn(async () => holderPeer) } as unknown as RemoteHost;
    const host = new HandedOverHost(local, remote, () => moved);
    return { host, remote, holderPeer, move: () => (moved = true) };
  };
  const proposal = { txId: "t1" } as unknown as ProposalInput;
  const order = { channel: "alliance", txId: "t1" } as never;

  it("while the peer stays here, its answers and failures are its own", async () => {
    const { host, remote } = setUp((w) => (w === "simulate" ? closed() : undefined));
    const peer = await host.peer("alliance");
    await expect(peer.commitStatus("t1")).resolves.toBe("here's status");
    await expect(peer.simulate(proposal)).rejects.toThrow("the Fabric peer is closed");
    expect(remote.peer).not.toHaveBeenCalled();
  });

  it("moved during a read: the next holder answers it", async () => {
    const { host, remote, holderPeer, move } = setUp((w) => (w === "peer" ? undefined : (move(), closed())));
    const peer = await host.peer("alliance");
    await expect(peer.simulate(proposal)).resolves.toBe("holder's simulation");
    await expect(peer.definition!("cc")).resolves.toEqual({ name: "cc", version: "2", sequence: 2 });
    await expect(peer.commitStatus("t1")).resolves.toBe("holder's status");
    await expect(peer.waitForCommit("t1", new AbortController().signal)).resolves.toBe("holder's commit");
    expect(remote.peer).toHaveBeenCalledWith("alliance");
    expect(holderPeer.simulate).toHaveBeenCalledWith(proposal, false);
  });

  it("moved while a channel was being opened: the holder's channel", async () => {
    const { host, holderPeer, move } = setUp(() => (move(), closed()));
    await expect(host.peer("alliance")).resolves.toBe(holderPeer);
  });

  it("moved during a write: refused as sent and unanswered, never asked again", async () => {
    const { host, remote, holderPeer, move } = setUp((w) => (w === "peer" ? undefined : (move(), closed())));
    const peer = await host.peer("alliance");
    for (const write of [
      () => peer.order(order),
      () => host.install({ channel: "alliance", name: "cc", version: "2", packageZip: new Uint8Array() }),
      () => host.dropChannels(["alliance"]),
    ]) {
      const refused = await write().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(EngineUnreachableError);
      expect((refused as EngineUnreachableError).sent).toBe(true);
      expect((refused as Error).message).toMatch(/fabric engine moved to another process during the call/);
    }
    expect(holderPeer.order).not.toHaveBeenCalled();
    expect(remote.peer).not.toHaveBeenCalled();
  });

  it("a refused package stands, moved or not; a block the fence refused is a clean refusal", async () => {
    const refusedPackage = setUp((w) =>
      w === "install" ? (refusedPackage.move(), new ChaincodeRefused(["no package.json"])) : undefined,
    );
    await expect(
      refusedPackage.host.install({ channel: "alliance", name: "cc", version: "2", packageZip: new Uint8Array() }),
    ).rejects.toBeInstanceOf(ChaincodeRefused);
    const fenced = setUp((w) => (w === "order" ? new NotLeaseHolderError("fabric") : undefined));
    const refused = await (await fenced.host.peer("alliance")).order(order).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EngineUnreachableError);
    expect((refused as Error).message).toMatch(/being taken over by another process/);
  });
});
