import { strToU8, zipSync } from "fflate";

/**
 * Small real chaincode packages (zip bytes) for the demo data and the tests-only fixture: a Node.js chaincode
 * for Fabric (fabric-contract-api) or a Solidity contract for the EVM frameworks, whose sources define the
 * given FUNCs, or a deliberately bad one the test job must catch (docs/decisions/052).
 */
export type SampleKind = "good" | "zip" | "mainPath" | "language" | "func" | "size";

function nodeSource(pkg: string, funcs: string[]): string {
  const bodies = funcs
    .map(
      (f) =>
        `  async ${f}(ctx, key, value) {\n    await ctx.stub.putState(key, Buffer.from(String(value ?? "")));\n  }`,
    )
    .join("\n\n");
  return `"use strict";
// Chaincode ${pkg.replace(/[^A-Za-z0-9_ ]/g, "")} for Hyperledger Fabric (fabric-contract-api).
const { Contract } = require("fabric-contract-api");

class Ledger extends Contract {
  // Init, with the package's init parameters ("init,1"): the first value the ledger holds.
  async init(ctx, value) {
    await ctx.stub.putState("init", Buffer.from(String(value ?? "")));
  }

${bodies}
}

module.exports.contracts = [Ledger];
`;
}

/** The files of a package of `kind`, around its good main file `main` (path and source) and a README. */
function packageOf(kind: SampleKind, pkg: string, main: [string, string], partial: string, extra = {}): Uint8Array {
  if (kind === "zip") return strToU8("this is not a zip archive, just text with a .zip name\n");
  const readme = strToU8(`# ${pkg}\n\nChaincode package of the service.\n`);
  const ext = main[0].slice(main[0].lastIndexOf("."));
  if (kind === "mainPath") return zipSync({ [`src/contract${ext}`]: strToU8(main[1]), "README.md": readme });
  if (kind === "language") return zipSync({ "main/Main.py": strToU8(`# ${pkg}\n`), "README.md": readme });
  if (kind === "func") return zipSync({ [main[0]]: strToU8(partial), "README.md": readme });
  if (kind === "size")
    // 20 MB of zeros compress to about 20 KB: a ratio no real package has, refused before inflating (a zip bomb).
    return zipSync({ [main[0]]: strToU8(main[1]), "data/blob.bin": new Uint8Array(20 * 1024 * 1024) }, { level: 9 });
  return zipSync({ [main[0]]: strToU8(main[1]), "README.md": readme, ...extra });
}

/** Zip bytes of a Node.js chaincode (Fabric) with main at `lib/chaincode.js`. */
export function sampleChaincode(pkg: string, funcs: string[], kind: SampleKind = "good"): Uint8Array {
  const manifest = {
    name: pkg.replace(/_/g, "-"),
    version: "1.0.0",
    main: SAMPLE_MAIN_PATH,
    dependencies: { "fabric-contract-api": "2.5.8", "fabric-shim": "2.5.8" },
  };
  return packageOf(kind, pkg, [SAMPLE_MAIN_PATH, nodeSource(pkg, funcs)], nodeSource(pkg, funcs.slice(0, 1)), {
    "package.json": strToU8(`${JSON.stringify(manifest, null, 2)}\n`),
  });
}

export const SAMPLE_MAIN_PATH = "lib/chaincode.js";

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

/// Chaincode ${pkg.replace(/[^A-Za-z0-9_ ]/g, "")} for FISCO BCOS, CITA and XuperChain (an EVM).
contract Ledger {
  event Changed(address indexed by, string key, uint256 value);
  mapping(string => uint256) public values;
${bodies}
}
`;
}

/**
 * Zip bytes of a Solidity chaincode package (docs/decisions/034) with main at `contracts/Ledger.sol`; a bad
 * `kind` as for sampleChaincode, or "compile": a syntax error the compiler reports.
 */
export function sampleSolidityChaincode(
  pkg: string,
  funcs: string[],
  kind: SampleKind | "compile" = "good",
): Uint8Array {
  const source = soliditySource(pkg, funcs);
  if (kind === "compile")
    return zipSync({
      [SAMPLE_SOLIDITY_MAIN_PATH]: strToU8(
        source.replace("mapping(string => uint256) public values;", "mapping(string => uint256) public values"),
      ),
      "README.md": strToU8(`# ${pkg}\n\nSolidity chaincode.\n`),
    });
  return packageOf(kind, pkg, [SAMPLE_SOLIDITY_MAIN_PATH, source], soliditySource(pkg, funcs.slice(0, 1)));
}

export const SAMPLE_SOLIDITY_MAIN_PATH = "contracts/Ledger.sol";
