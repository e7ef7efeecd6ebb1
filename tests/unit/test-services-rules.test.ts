import { describe, expect, it } from "vitest";
import { strToU8, zipSync } from "fflate";
import { TestServiceStatus as S } from "#contract/test-services-codes.ts";
import { testServiceMachine } from "#backend/domains/test-services/machine.ts";
import {
  chooseContract,
  constructorArgs,
  deploymentNameOf,
  solidityFilesOf,
  suggestionOfChainError,
} from "#backend/domains/test-services/rules.ts";
import { solidityFindings } from "#backend/domains/services/inspect.ts";
import { sampleSolidityChaincode } from "#backend/domains/services/samples.ts";

// docs/decisions/034: the pure rules of test services and of Solidity chaincode packages.

const ctor = (inputs: { type: string; name?: string }[]) => [{ type: "constructor", inputs }];
const c = (name: string, bytecode = "0x6001") => ({ file: "a.sol", name, abi: [], bytecode });

describe("test services' rules", () => {
  it.each([
    ["", [c("A")], "A"],
    ["B", [c("A"), c("B")], "B"],
    ["", [c("I", ""), c("A")], "A"],
  ])("the main contract %j of %j is %s", (main, contracts, name) => {
    const chosen = chooseContract(contracts, main);
    expect("contract" in chosen && chosen.contract.name).toBe(name);
  });

  it.each([
    ["", [c("A"), c("B")], "severalContracts"],
    ["", [c("I", "0x")], "noContract"],
    ["Z", [c("A")], "noContract"],
    ["I", [c("I", "")], "noContract"],
  ])("main %j of these contracts is refused with the suggestion %s", (main, contracts, suggestion) => {
    expect(chooseContract(contracts, main)).toMatchObject({ suggestion });
  });

  it.each([
    ["", [], []],
    ["hello, 7", [{ type: "string" }, { type: "uint256" }], ["hello", 7n]],
    ["true,-3", [{ type: "bool" }, { type: "int8" }], [true, -3n]],
    [
      "0x00000000000000000000000000000000000000aa",
      [{ type: "address" }],
      ["0x00000000000000000000000000000000000000aa"],
    ],
  ])("init params %j give the arguments", (params, inputs, args) => {
    expect(constructorArgs(ctor(inputs), params)).toEqual({ args });
  });

  it.each([
    ["1", []],
    ["", [{ type: "uint256" }]],
    ["x", [{ type: "uint256" }]],
    ["yes", [{ type: "bool" }]],
    ["1", [{ type: "uint256[]" }]],
  ])("init params %j for %j are refused with a reason", (params, inputs) => {
    expect(constructorArgs(ctor(inputs), params)).toHaveProperty("reason");
  });

  it("reads the .sol files of a package and refuses one without", () => {
    expect(solidityFilesOf(zipSync({ "x/A.sol": strToU8("contract A {}"), "x/readme.md": strToU8("r") }))).toEqual({
      "x/A.sol": "contract A {}",
    });
    expect(solidityFilesOf(zipSync({ "readme.md": strToU8("r") }))).toBeNull();
    expect(solidityFilesOf(strToU8("not a zip"))).toBeNull();
  });

  it("suggests by the chain's words, names deployments", () => {
    expect(suggestionOfChainError("execution reverted: zero")).toBe("reverted");
    expect(suggestionOfChainError("fetch failed")).toBe("network");
    expect(deploymentNameOf("My  service", "1.0.1")).toBe("My-service-v1.0.1");
  });

  it("a reset moves deployed and deploying services to re-deploy; nothing else", () => {
    expect(testServiceMachine.transition(S.DEPLOYED, "reset", "operator")).toEqual({ ok: true, to: S.TO_REDEPLOY });
    expect(testServiceMachine.transition(S.DEPLOYING, "reset", "operator")).toEqual({ ok: true, to: S.TO_REDEPLOY });
    expect(testServiceMachine.transition(S.FAILED, "reset", "operator").ok).toBe(false);
    expect(testServiceMachine.transition(S.DEPLOYING, "edit", "user").ok).toBe(false);
    expect(testServiceMachine.transition(S.FAILED, "edit", "user")).toEqual({ ok: true, to: S.FAILED });
  });
});

describe("Solidity chaincode packages", () => {
  it("the FUNCs are read from the ABI; the compiler's errors are the reasons", () => {
    const abi = [
      { type: "function", name: "put" },
      { type: "event", name: "get" },
    ];
    expect(solidityFindings({ name: "p", funcs: ["put"] }, { ok: true, contracts: [{ name: "L", abi }] })).toEqual([]);
    expect(
      solidityFindings({ name: "p", funcs: ["put", "get"] }, { ok: true, contracts: [{ name: "L", abi }] }),
    ).toEqual([{ key: "report.funcNotInAbi", params: { package: "p", funcs: "get" } }]);
    expect(solidityFindings({ name: "p", funcs: [] }, { ok: false, errors: ["ParserError: x"] })).toEqual([
      { key: "report.compileFailed", params: { package: "p", errors: "ParserError: x" } },
    ]);
  });

  it("the sample package holds a .sol source with the FUNCs, or a broken one", () => {
    const files = solidityFilesOf(sampleSolidityChaincode("ledger", ["put", "add"]))!;
    expect(Object.keys(files)).toEqual(["contracts/Ledger.sol"]);
    expect(files["contracts/Ledger.sol"]).toMatch(/function put\(/);
    expect(solidityFilesOf(sampleSolidityChaincode("ledger", ["put"], "compile"))!["contracts/Ledger.sol"]).toContain(
      "public values\n",
    );
  });
});
