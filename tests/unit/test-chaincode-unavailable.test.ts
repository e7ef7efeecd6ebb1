import { describe, expect, it, vi } from "vitest";
import { Msg } from "#contract/messages.ts";
import type { Deps } from "#backend/deps.ts";
import { callChaincode } from "#backend/domains/test-services/fabric.ts";
import type { TestServiceRow } from "#backend/domains/test-services/machine.ts";
import { ApiError } from "#backend/http/errors.ts";
import { EngineUnreachableError } from "#backend/kit/engine-link.ts";

const peer = vi.hoisted(() => ({
  simulate: async () => ({
    response: { status: 200, message: "", payload: new TextEncoder().encode("7") },
    results: new Uint8Array(),
    chaincodeId: { name: "cc", version: "1" },
  }),
  order: async (): Promise<never> => {
    throw new Error("unset");
  },
}));
vi.mock("#backend/domains/fabric/index.ts", () => ({
  ChaincodeRefused: class extends Error {},
  default: {
    api: {
      peerFor: async () => peer,
      localProposal: async () => ({ txId: "t1", creator: { serialized: new Uint8Array() }, timestamp: new Date() }),
      endorsedEnvelope: () => new Uint8Array(),
      mspIdOf: () => "CCMSP",
    },
  },
}));

/**
 * A Fabric test service's console call when the peer's holder cannot answer it (docs/decisions/109): the peer moved
 * to another process during the order (or its holder is unreachable), so the order is unanswered. The console shows
 * the chain not answering (MSG_42016) instead of a 500; the peer's other failures are unchanged.
 */
describe("a test chaincode's call when the Fabric peer cannot answer", () => {
  const row = { channel: "test-cc", contractName: "cc", certificatePem: null } as unknown as TestServiceRow;
  const invoke = () => callChaincode({} as Deps, row, { mode: "invoke", fn: "set", args: ["7"] });

  it("an order refused as unanswered is the chain not answering", async () => {
    peer.order = async () => {
      throw new EngineUnreachableError("the fabric engine moved to another process during the call (closed)", true);
    };
    const refused = await invoke().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).messageKey).toBe(Msg.CHAIN_UNAVAILABLE);
  });

  it("any other failure is unchanged", async () => {
    peer.order = async () => {
      throw new Error("the ledger refused the block");
    };
    await expect(invoke()).rejects.toThrow("the ledger refused the block");
  });
});
