import { describe, expect, it } from "vitest";
import { privateToAddress, privateToPublic, bytesToHex, toChecksumAddress } from "@ethereumjs/util";
import { accountCreateSchema, projectCreateSchema } from "#contract/public-chain.ts";
import {
  addressOfPublicKey,
  checkedAddress,
  chinaDay,
  etherToWei,
  lastDays,
  meterRows,
  methodsOf,
  planActive,
  requestUnits,
} from "#backend/domains/public-chain/rules.ts";

const MB = 1024 * 1024;

describe("SPEC §9: a request counts max(calls, ceil(size / 5 MB))", () => {
  it.each([
    [1, 100, 1],
    [0, 100, 1],
    [3, 100, 3],
    [1, 5 * MB, 1],
    [1, 5 * MB + 1, 2],
    [1, 12 * MB, 3],
    [2, 12 * MB, 3],
    [5, 12 * MB, 5],
    [1, 32 * MB, 7],
  ])("%i calls in %i bytes count %i", (calls, bytes, units) => expect(requestUnits(calls, bytes)).toBe(units));

  it("the meter's rows sum to the count, one call per method and the size's extra on the first", () => {
    expect(meterRows(["eth_call", "eth_call", "eth_chainId"], 100)).toEqual([
      { method: "eth_call", requests: 2, calls: 2 },
      { method: "eth_chainId", requests: 1, calls: 1 },
    ]);
    expect(meterRows(["eth_sendRawTransaction"], 12 * MB)).toEqual([
      { method: "eth_sendRawTransaction", requests: 3, calls: 1 },
    ]);
    expect(meterRows([], 10)).toEqual([{ method: "(invalid)", requests: 1, calls: 0 }]);
  });

  it("reads the methods of one call or a batch", () => {
    expect(methodsOf('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}')).toEqual(["eth_chainId"]);
    expect(methodsOf('[{"method":"eth_call"},{"id":2},3]')).toEqual(["eth_call", "(invalid)", "(invalid)"]);
    expect(methodsOf("{")).toEqual([]);
  });
});

describe("days in UTC+8", () => {
  it("a day starts at 16:00 UTC", () => {
    expect(chinaDay(new Date("2026-11-23T15:59:59Z"))).toBe("2026-11-23");
    expect(chinaDay(new Date("2026-11-23T16:00:00Z"))).toBe("2026-11-24");
    expect(lastDays(new Date("2026-11-23T00:00:00Z"), 3)).toEqual(["2026-11-21", "2026-11-22", "2026-11-23"]);
  });
});

describe("SPEC §5 chain addresses and keys", () => {
  const key = new Uint8Array(32).fill(7);
  const address = toChecksumAddress(bytesToHex(privateToAddress(key)));

  it("takes lower or upper case, a valid checksum, and refuses a bad checksum or shape", () => {
    expect(checkedAddress(address.toLowerCase())).toBe(address);
    expect(checkedAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(address);
    expect(checkedAddress(address)).toBe(address);
    const flipped = address.replace(/[a-f]/, (c) => c.toUpperCase());
    expect(checkedAddress(flipped)).toBeNull();
    expect(checkedAddress("0x12")).toBeNull();
    expect(checkedAddress(`${address}00`)).toBeNull();
    expect(checkedAddress("0xzz00000000000000000000000000000000000000")).toBeNull();
  });

  it("derives the address of a public key (64 bytes or SEC1), refuses what is not a key", () => {
    const pub = privateToPublic(key);
    expect(addressOfPublicKey(bytesToHex(pub))).toBe(address);
    expect(addressOfPublicKey(`04${bytesToHex(pub).slice(2)}`)).toBe(address);
    expect(addressOfPublicKey("0x1234")).toBeNull();
    expect(addressOfPublicKey(`0x${"00".repeat(64)}`)).toBeNull();
  });

  it("converts ether to wei", () => {
    expect(etherToWei("0.01")).toBe(10n ** 16n);
    expect(etherToWei("1")).toBe(10n ** 18n);
    expect(etherToWei("0.000000000000000001")).toBe(1n);
  });

  it("a plan is active until it expires or is deactivated", () => {
    const now = new Date("2026-11-23T00:00:00Z");
    expect(planActive({ status: 1, expiresAt: new Date("2026-12-01T00:00:00Z") }, now)).toBe(true);
    expect(planActive({ status: 1, expiresAt: now }, now)).toBe(false);
    expect(planActive({ status: 2, expiresAt: new Date("2026-12-01T00:00:00Z") }, now)).toBe(false);
  });
});

describe("the forms' schemas", () => {
  it.each([
    ["a name of letters, digits, Chinese, spaces and .:-_@", "测试 acct.1:-_@x", true],
    ["a name with another symbol", "acct#1", false],
    ["a name over 50", "a".repeat(51), false],
  ])("account %s", (_label, name, ok) => {
    expect(accountCreateSchema.safeParse({ projectId: 1, name, keyType: "1", gasWarning: "0.01" }).success).toBe(ok);
  });
  it("needs the public key for type 2, the address for type 3, and a gas warning value", () => {
    expect(accountCreateSchema.safeParse({ projectId: 1, name: "a", keyType: "2", gasWarning: "0.01" }).success).toBe(
      false,
    );
    expect(accountCreateSchema.safeParse({ projectId: 1, name: "a", keyType: "3", gasWarning: "0.01" }).success).toBe(
      false,
    );
    expect(accountCreateSchema.safeParse({ projectId: 1, name: "a", keyType: "1" }).success).toBe(false);
  });
  it("a project needs its name, framework and whole daily requests", () => {
    expect(
      projectCreateSchema.safeParse({ planId: 1, name: "p", framework: "evm", dailyRequests: "1000" }).success,
    ).toBe(true);
    expect(
      projectCreateSchema.safeParse({ planId: 1, name: " ", framework: "evm", dailyRequests: "1000" }).success,
    ).toBe(false);
    expect(projectCreateSchema.safeParse({ planId: 1, name: "p", framework: "", dailyRequests: "1000" }).success).toBe(
      false,
    );
    expect(
      projectCreateSchema.safeParse({ planId: 1, name: "p", framework: "evm", dailyRequests: "1.5" }).success,
    ).toBe(false);
  });
});
