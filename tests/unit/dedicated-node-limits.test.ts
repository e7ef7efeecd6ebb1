import { describe, expect, it } from "vitest";
import {
  PRN_HOST_LIMITS,
  PRN_RATE_WINDOW_SECONDS,
  prnCallsPerWindow,
  prnNodeLimits,
} from "#contract/dedicated-node-limits.ts";
import { PRN_HOST_CONFIG_CODES } from "#contract/dedicated-nodes-codes.ts";
import {
  RATE_WINDOW_SECONDS,
  RateWindow,
  STORAGE_FULL,
  callsIn,
  storageGuarded,
} from "#backend/domains/chain/dedicated/limits.ts";

const GIB = 1024 ** 3;

// docs/decisions/074: each host configuration's enforced limits, and how the gateway counts and refuses.
describe("dedicated node limits", () => {
  it.each([
    ["c2m4", 20, { requestsPerSecond: 10, storageBytes: 30 * GIB }],
    ["c2m4", 200, { requestsPerSecond: 10, storageBytes: 210 * GIB }],
    ["c4m8", 20, { requestsPerSecond: 25, storageBytes: 40 * GIB }],
    ["c4m8", 50, { requestsPerSecond: 25, storageBytes: 70 * GIB }],
    ["c8m16", 100, { requestsPerSecond: 50, storageBytes: 140 * GIB }],
  ])("%s with %i GB of data: %o", (host, gb, limits) => {
    expect(prnNodeLimits(host, gb)).toEqual(limits);
  });

  it.each([
    ["c1m1", 20],
    ["", 20],
    ["c2m4", 0],
    ["c2m4", -20],
    ["c2m4", 20.5],
  ])("refuses %s with %s GB", (host, gb) => {
    expect(prnNodeLimits(host, gb)).toBeNull();
  });

  it("maps every host configuration, a larger host never taking less", () => {
    expect(Object.keys(PRN_HOST_LIMITS).sort()).toEqual([...PRN_HOST_CONFIG_CODES].sort());
    const rates = PRN_HOST_CONFIG_CODES.map((c) => PRN_HOST_LIMITS[c].requestsPerSecond);
    expect([...rates].sort((a, b) => a - b)).toEqual(rates);
    expect(prnCallsPerWindow(prnNodeLimits("c2m4", 20)!)).toBe(10 * PRN_RATE_WINDOW_SECONDS);
    expect(RATE_WINDOW_SECONDS).toBe(PRN_RATE_WINDOW_SECONDS);
  });

  it("counts calls in the window, refuses above it without counting the refused, and forgets what left it", () => {
    const w = new RateWindow();
    const t = 1_000_000_000;
    expect(w.admit(60, 10, t)).toBe(true);
    expect(w.admit(41, 10, t + 500)).toBe(false);
    expect(w.admit(40, 10, t + 900)).toBe(true);
    expect(w.admit(1, 10, t + 9_000)).toBe(false);
    expect(w.admit(1, 25, t + 9_000)).toBe(true);
    expect(w.admit(99, 10, t + RATE_WINDOW_SECONDS * 1000)).toBe(true);
    expect(w.admit(1, 10, t + RATE_WINDOW_SECONDS * 1000)).toBe(false);
  });

  it("counts a batch's calls", () => {
    expect(callsIn('{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}')).toBe(1);
    expect(callsIn(JSON.stringify(Array.from({ length: 7 }, (_, id) => ({ id, method: "eth_chainId" }))))).toBe(7);
    expect(callsIn("[]")).toBe(1);
    expect(callsIn("not json")).toBe(1);
  });

  it("refuses transactions, not reads, while the stored data is over the limit", async () => {
    let stored = 2_000;
    const node = storageGuarded({ request: async (call) => call.method }, 1_000, async () => stored);
    await expect(node.request({ method: "eth_blockNumber" })).resolves.toBe("eth_blockNumber");
    await expect(node.request({ method: "eth_sendRawTransaction", params: ["0x00"] })).rejects.toMatchObject({
      code: STORAGE_FULL,
      message: expect.stringContaining("storage limit"),
    });
    stored = 1_000;
    await expect(node.request({ method: "eth_sendRawTransaction", params: ["0x00"] })).resolves.toBe(
      "eth_sendRawTransaction",
    );
  });
});
