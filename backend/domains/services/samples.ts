import { strToU8, zipSync } from "fflate";

/**
 * Small real chaincode packages (zip bytes) for the demo data and the tests-only fixture: a Go chaincode
 * whose source defines the given FUNCs, or a deliberately bad one the test job must catch.
 */
export type SampleKind = "good" | "zip" | "mainPath" | "language" | "func" | "size";

function goSource(pkg: string, funcs: string[]): string {
  const cases = funcs.map((f) => `\tcase "${f}":\n\t\treturn s.${f}(stub, args)`).join("\n");
  const bodies = funcs
    .map(
      (f) =>
        `func (s *SmartContract) ${f}(stub shim.ChaincodeStubInterface, args []string) peer.Response {\n\treturn shim.Success(nil)\n}`,
    )
    .join("\n\n");
  return `package main

import (
\t"github.com/hyperledger/fabric-chaincode-go/shim"
\tpeer "github.com/hyperledger/fabric-protos-go/peer"
)

// SmartContract of ${pkg}.
type SmartContract struct{}

func (s *SmartContract) Init(stub shim.ChaincodeStubInterface) peer.Response { return shim.Success(nil) }

func (s *SmartContract) Invoke(stub shim.ChaincodeStubInterface) peer.Response {
\tfn, args := stub.GetFunctionAndParameters()
\tswitch fn {
${cases}
\t}
\treturn shim.Error("unknown function " + fn)
}

${bodies}

func main() { _ = shim.Start(new(SmartContract)) }
`;
}

/** Zip bytes of a Go chaincode with main at `main/main.go`. */
export function sampleChaincode(pkg: string, funcs: string[], kind: SampleKind = "good"): Uint8Array {
  if (kind === "zip") return strToU8("this is not a zip archive, just text with a .zip name\n");
  const readme = strToU8(`# ${pkg}\n\nChaincode package of the service.\n`);
  if (kind === "mainPath") {
    return zipSync({ "src/contract.go": strToU8(goSource(pkg, funcs)), "README.md": readme });
  }
  if (kind === "language") {
    return zipSync({ "main/Main.py": strToU8(`# ${funcs.join(", ")}\n`), "README.md": readme });
  }
  if (kind === "func") {
    return zipSync({ "main/main.go": strToU8(goSource(pkg, funcs.slice(0, 1))), "README.md": readme });
  }
  if (kind === "size") {
    // 20 MB of zeros compress to about 20 KB: a ratio no real package has, refused before inflating (a zip bomb).
    return zipSync(
      { "main/main.go": strToU8(goSource(pkg, funcs)), "data/blob.bin": new Uint8Array(20 * 1024 * 1024) },
      { level: 9 },
    );
  }
  return zipSync({
    "main/main.go": strToU8(goSource(pkg, funcs)),
    "README.md": readme,
    "go.mod": strToU8(`module ${pkg}\n\ngo 1.20\n`),
  });
}

export const SAMPLE_MAIN_PATH = "main/main.go";

/** A Solidity contract whose public functions are the given FUNCs (a ledger of named values). */
function soliditySource(pkg: string, funcs: string[]): string {
  const bodies = funcs
    .map(
      (f) =>
        `  function ${f}(string calldata key, uint256 value) external { values[key] = value; emit Changed(msg.sender, key, value); }`,
    )
    .join("\n");
  return `// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// Chaincode ${pkg.replace(/[^A-Za-z0-9_ ]/g, "")} for FISCO BCOS and CITA (an EVM).
contract Ledger {
  event Changed(address indexed by, string key, uint256 value);
  mapping(string => uint256) public values;
${bodies}
}
`;
}

/**
 * Zip bytes of a Solidity chaincode package (docs/decisions/034) with main at `contracts/Ledger.sol`; with
 * `broken` its source has a syntax error the compiler reports.
 */
export function sampleSolidityChaincode(pkg: string, funcs: string[], broken = false): Uint8Array {
  const source = soliditySource(pkg, funcs);
  return zipSync({
    "contracts/Ledger.sol": strToU8(
      broken
        ? source.replace("mapping(string => uint256) public values;", "mapping(string => uint256) public values")
        : source,
    ),
    "README.md": strToU8(`# ${pkg}\n\nSolidity chaincode.\n`),
  });
}

export const SAMPLE_SOLIDITY_MAIN_PATH = "contracts/Ledger.sol";
