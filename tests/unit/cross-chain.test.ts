import { describe, expect, it } from "vitest";
import { crossDredgeSchema, crossSendSchema } from "#contract/cross-chain.ts";
import { CITY_NODES } from "#backend/domains/platform/catalogue.ts";
import {
  isFinalAttempt,
  openRefusal,
  protocolsOfNodes,
  reasonOf,
  retryDelayMs,
  sampleAllowed,
  serviceUpgradeUnderWay,
  type OpenFacts,
} from "#backend/domains/cross-chain/rules.ts";

// The pure rules of cross-chain services (docs/decisions/048), by tables.

const open: OpenFacts = {
  verState: 25,
  hasChain: true,
  upgrading: false,
  unpaidCrossChainBill: false,
  protocols: [1, 2],
};

describe("the protocols of a service's city nodes", () => {
  it.each([
    {
      nodes: [
        [1, 2],
        [1, 2],
      ],
      protocols: [1, 2],
    },
    { nodes: [[1, 2], [1]], protocols: [1] },
    { nodes: [[2], [1]], protocols: [] },
    { nodes: [], protocols: [] },
  ])("$nodes → $protocols", ({ nodes, protocols }) => {
    expect(protocolsOfNodes(nodes.map((p) => ({ interchainProtocols: p })))).toEqual(protocols);
  });

  it("the catalogue has a node that supports only the first protocol, so the refusal is reachable", () => {
    expect(CITY_NODES.some((n) => n.interchainProtocols.length === 1 && n.interchainProtocols[0] === 1)).toBe(true);
    expect(CITY_NODES.every((n) => n.interchainProtocols.includes(1))).toBe(true);
  });
});

describe("opening a service to cross-chain (§5, §8)", () => {
  it.each([
    { facts: {}, protocol: 2, refusal: null },
    { facts: { verState: 30 }, protocol: 1, refusal: "MSG_48101" },
    { facts: { hasChain: false }, protocol: 1, refusal: "MSG_48105" },
    { facts: { upgrading: true }, protocol: 1, refusal: "MSG_48102" },
    { facts: { unpaidCrossChainBill: true }, protocol: 1, refusal: "MSG_48104" },
    { facts: { protocols: [1] }, protocol: 2, refusal: "MSG_48103" },
    { facts: { protocols: [1] }, protocol: 1, refusal: null },
    { facts: { protocols: [] }, protocol: undefined, refusal: "MSG_48103" },
    { facts: { upgrading: true, unpaidCrossChainBill: true }, protocol: 1, refusal: "MSG_48102" },
  ])("$facts with protocol $protocol → $refusal", ({ facts, protocol, refusal }) => {
    expect(openRefusal({ ...open, ...facts }, protocol)).toBe(refusal);
  });

  it.each([
    { current: 10, versions: [{ id: 10, verState: 25 }], underWay: false },
    {
      current: 10,
      versions: [
        { id: 10, verState: 25 },
        { id: 11, verState: 1 },
      ],
      underWay: true,
    },
    {
      current: 10,
      versions: [
        { id: 10, verState: 25 },
        { id: 11, verState: 24 },
      ],
      underWay: true,
    },
    {
      current: 11,
      versions: [
        { id: 10, verState: 30 },
        { id: 11, verState: 25 },
      ],
      underWay: false,
    },
    { current: null, versions: [{ id: 11, verState: 1 }], underWay: false },
  ])("a service upgrade is under way: $versions → $underWay", ({ current, versions, underWay }) => {
    expect(serviceUpgradeUnderWay(current, versions)).toBe(underWay);
  });

  it("the dredge form: a protocol is required, an APPCode for the second", () => {
    expect(crossDredgeSchema.safeParse({ appId: "3", protocol: "1" }).success).toBe(true);
    expect(crossDredgeSchema.safeParse({ appId: 3, protocol: 2, appCode: "APP-1" }).success).toBe(true);
    const noCode = crossDredgeSchema.safeParse({ appId: 3, protocol: 2 });
    expect(noCode.success).toBe(false);
    expect(noCode.error?.issues[0]).toMatchObject({ path: ["appCode"], message: "validation.required" });
    expect(crossDredgeSchema.safeParse({ appId: 3, protocol: 2, appCode: "a b" }).error?.issues[0]?.message).toBe(
      "validation.invalid",
    );
    expect(crossDredgeSchema.safeParse({ appId: 3, protocol: 3 }).success).toBe(false);
    expect(crossDredgeSchema.safeParse({ appId: 3 }).success).toBe(false);
  });
});

describe("sending and delivering", () => {
  it.each([
    { kind: "message", protocol: 1, allowed: true },
    { kind: "call", protocol: 1, allowed: true },
    { kind: "nft", protocol: 1, allowed: false },
    { kind: "deposit", protocol: 1, allowed: false },
    { kind: "nft", protocol: 2, allowed: true },
    { kind: "deposit", protocol: 2, allowed: true },
  ] as const)("$kind with protocol $protocol → $allowed", ({ kind, protocol, allowed }) => {
    expect(sampleAllowed(kind, protocol)).toBe(allowed);
  });

  it("the send form needs the fields of its kind", () => {
    expect(
      crossSendSchema.safeParse({ appId: 1, target: "open-alliance", kind: "message" }).error?.issues[0]?.path,
    ).toEqual(["text"]);
    expect(
      crossSendSchema.safeParse({ appId: 1, target: "open-alliance", kind: "call", to: "0x".padEnd(42, "1") }).error
        ?.issues[0]?.path,
    ).toEqual(["data"]);
    expect(crossSendSchema.safeParse({ appId: 1, target: "open-alliance", kind: "nft" }).success).toBe(true);
    expect(crossSendSchema.safeParse({ appId: 1, target: "", kind: "nft" }).success).toBe(false);
  });

  it.each([
    { attempt: 1, ms: 500, final: false },
    { attempt: 2, ms: 1000, final: false },
    { attempt: 3, ms: 2000, final: false },
    { attempt: 4, ms: 4000, final: true },
    { attempt: 9, ms: 8000, final: true },
  ])("after attempt $attempt: wait $ms ms, final $final", ({ attempt, ms, final }) => {
    expect(retryDelayMs(attempt)).toBe(ms);
    expect(isFinalAttempt(attempt)).toBe(final);
  });

  it.each([
    { error: new Error("execution reverted: empty message"), reason: "empty message" },
    { error: new Error("execution reverted"), reason: "the target reverted without a reason" },
    { error: { message: "insufficient funds\nmore" }, reason: "insufficient funds" },
    { error: "boom", reason: "boom" },
    // Hardhat's wording, and the revert's data that every node sends (ABI-encoded Error(string)).
    {
      error: new Error("Error: VM Exception while processing transaction: reverted with reason string 'empty message'"),
      reason: "empty message",
    },
    {
      error: Object.assign(new Error("whatever the node says"), {
        data:
          "0x08c379a0" +
          "20".padStart(64, "0") +
          "0d".padStart(64, "0") +
          Buffer.from("empty message").toString("hex").padEnd(64, "0"),
      }),
      reason: "empty message",
    },
  ])("the reason of $error", ({ error, reason }) => {
    expect(reasonOf(error)).toBe(reason);
  });
});
