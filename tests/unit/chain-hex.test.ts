import { describe, expect, it } from "vitest";
import {
  RPC,
  RpcError,
  data,
  paramsOf,
  parseAddress,
  parseBlockTag,
  parseCallRequest,
  parseData,
  parseLogFilter,
  parseQuantity,
  quantity,
} from "#backend/domains/chain/hex.ts";

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof RpcError ? error.code : "other";
  }
  return "none";
};

describe("chain JSON-RPC encodings", () => {
  it("encodes quantities without leading zeros and refuses negatives", () => {
    expect([quantity(0), quantity(26n), quantity(2n ** 256n - 1n)]).toEqual(["0x0", "0x1a", `0x${"f".repeat(64)}`]);
    expect(() => quantity(-1)).toThrow(RangeError);
  });
  it("parses quantities strictly", () => {
    expect(parseQuantity("0x0")).toBe(0n);
    expect(parseQuantity("0x1A")).toBe(26n);
    for (const bad of ["0x", "0x01", "1a", 26, "0xg", null, `0x1${"0".repeat(64)}`])
      expect(code(() => parseQuantity(bad))).toBe(RPC.INVALID_PARAMS);
  });
  it("encodes and parses data, with exact lengths for addresses", () => {
    expect(data(new Uint8Array([0, 255]))).toBe("0x00ff");
    expect(data(new Uint8Array())).toBe("0x");
    expect(parseData("0xABcd")).toBe("0xabcd");
    expect(code(() => parseData("0xabc"))).toBe(RPC.INVALID_PARAMS);
    expect(parseAddress(`0x${"A".repeat(40)}`)).toBe(`0x${"a".repeat(40)}`);
    expect(code(() => parseAddress(`0x${"a".repeat(38)}`))).toBe(RPC.INVALID_PARAMS);
  });
  it("reads block tags", () => {
    expect(parseBlockTag(undefined)).toBe("latest");
    expect(parseBlockTag("finalized")).toBe("latest");
    expect(parseBlockTag("earliest")).toBe("earliest");
    expect(parseBlockTag("0x10")).toBe(16n);
    expect(parseBlockTag({ blockNumber: "0x2" })).toBe(2n);
    expect(code(() => parseBlockTag("newest"))).toBe(RPC.INVALID_PARAMS);
  });
  it("checks call requests and log filters", () => {
    expect(parseCallRequest({ to: `0x${"1".repeat(40)}`, input: "0x12", value: "0x5" })).toMatchObject({
      data: "0x12",
      value: 5n,
    });
    expect(code(() => parseCallRequest({ data: "0x12", input: "0x13" }))).toBe(RPC.INVALID_PARAMS);
    expect(code(() => parseCallRequest("0x"))).toBe(RPC.INVALID_PARAMS);
    const topic = `0x${"a".repeat(64)}`;
    expect(parseLogFilter({ fromBlock: "0x1", topics: [topic, null, [topic]] })).toMatchObject({
      fromBlock: 1n,
      toBlock: "latest",
      addresses: [],
      topics: [[topic], null, [topic]],
    });
    expect(code(() => parseLogFilter({ topics: [null, null, null, null, null] }))).toBe(RPC.INVALID_PARAMS);
    expect(code(() => parseLogFilter({ blockHash: topic, fromBlock: "0x1" }))).toBe(RPC.INVALID_PARAMS);
  });
  it("checks the number of params", () => {
    expect(paramsOf(undefined, 0, 0)).toEqual([]);
    expect(code(() => paramsOf(["a"], 0, 0))).toBe(RPC.INVALID_PARAMS);
    expect(code(() => paramsOf({}, 0, 1))).toBe(RPC.INVALID_PARAMS);
  });
});
