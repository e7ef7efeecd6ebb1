import type { MarketFunction } from "#contract/market.ts";

/**
 * The sample chaincode packages the market ships (issue 15; docs/decisions/042, "Shipped content"): real
 * sources, zipped at start; their descriptions in locales/<lang>/market.json (`shipped.<key>`). Each passes
 * the service test job with its functions (tests/backend/market.test.ts runs it): the Solidity ones compile
 * with the platform's solc and have every FUNC in their ABI.
 */
export type ShippedPackage = {
  key: string;
  name: string;
  language: "go" | "java" | "node" | "solidity";
  version: string;
  mainPath: string;
  initParams: string;
  functions: MarketFunction[];
  files: Record<string, string>;
};

const fn = (func: string, name: string, inputFormat: string, outputFormat: string, funcType = 1): MarketFunction => ({
  func,
  name,
  funcType,
  inputFormat,
  outputFormat,
});

const ASSET_GO = `package main

import (
	"encoding/json"
	"fmt"

	"github.com/hyperledger/fabric-chaincode-go/shim"
	peer "github.com/hyperledger/fabric-protos-go/peer"
)

// Asset is one item of the ledger: an id, an owner and an appraised value.
type Asset struct {
	ID    string \`json:"id"\`
	Owner string \`json:"owner"\`
	Value int    \`json:"value"\`
}

// AssetTransfer keeps assets and moves them between owners.
type AssetTransfer struct{}

func (t *AssetTransfer) Init(stub shim.ChaincodeStubInterface) peer.Response { return shim.Success(nil) }

func (t *AssetTransfer) Invoke(stub shim.ChaincodeStubInterface) peer.Response {
	fn, args := stub.GetFunctionAndParameters()
	switch fn {
	case "createAsset":
		return t.createAsset(stub, args)
	case "readAsset":
		return t.readAsset(stub, args)
	case "transferAsset":
		return t.transferAsset(stub, args)
	case "deleteAsset":
		return t.deleteAsset(stub, args)
	}
	return shim.Error("unknown function " + fn)
}

// createAsset(id, owner, value) stores a new asset; an existing id is refused.
func (t *AssetTransfer) createAsset(stub shim.ChaincodeStubInterface, args []string) peer.Response {
	if len(args) != 3 {
		return shim.Error("createAsset needs id, owner and value")
	}
	if existing, _ := stub.GetState(args[0]); existing != nil {
		return shim.Error("asset " + args[0] + " exists already")
	}
	var value int
	if _, err := fmt.Sscan(args[2], &value); err != nil {
		return shim.Error("value must be a whole number")
	}
	bytes, _ := json.Marshal(Asset{ID: args[0], Owner: args[1], Value: value})
	if err := stub.PutState(args[0], bytes); err != nil {
		return shim.Error(err.Error())
	}
	return shim.Success(bytes)
}

// readAsset(id) answers the asset as JSON.
func (t *AssetTransfer) readAsset(stub shim.ChaincodeStubInterface, args []string) peer.Response {
	if len(args) != 1 {
		return shim.Error("readAsset needs an id")
	}
	bytes, err := stub.GetState(args[0])
	if err != nil || bytes == nil {
		return shim.Error("asset " + args[0] + " not found")
	}
	return shim.Success(bytes)
}

// transferAsset(id, newOwner) changes the owner.
func (t *AssetTransfer) transferAsset(stub shim.ChaincodeStubInterface, args []string) peer.Response {
	if len(args) != 2 {
		return shim.Error("transferAsset needs an id and the new owner")
	}
	bytes, err := stub.GetState(args[0])
	if err != nil || bytes == nil {
		return shim.Error("asset " + args[0] + " not found")
	}
	var asset Asset
	if err := json.Unmarshal(bytes, &asset); err != nil {
		return shim.Error(err.Error())
	}
	asset.Owner = args[1]
	bytes, _ = json.Marshal(asset)
	if err := stub.PutState(asset.ID, bytes); err != nil {
		return shim.Error(err.Error())
	}
	return shim.Success(bytes)
}

// deleteAsset(id) removes the asset.
func (t *AssetTransfer) deleteAsset(stub shim.ChaincodeStubInterface, args []string) peer.Response {
	if len(args) != 1 {
		return shim.Error("deleteAsset needs an id")
	}
	if err := stub.DelState(args[0]); err != nil {
		return shim.Error(err.Error())
	}
	return shim.Success(nil)
}

func main() {
	if err := shim.Start(new(AssetTransfer)); err != nil {
		fmt.Printf("error starting AssetTransfer: %s", err)
	}
}
`;

const TRACE_JS = `'use strict';

const { Contract } = require('fabric-contract-api');

/**
 * Supply-chain traceability: a product is registered by its maker, each handover adds a step with the
 * holder, the place and the time, and anyone in the channel reads its whole history.
 */
class SupplyTrace extends Contract {
  async registerProduct(ctx, productId, name, maker) {
    const key = ctx.stub.createCompositeKey('product', [productId]);
    const existing = await ctx.stub.getState(key);
    if (existing && existing.length > 0) throw new Error(\`product \${productId} exists already\`);
    const product = { productId, name, maker, steps: [{ holder: maker, place: 'factory', at: ctx.stub.getTxTimestamp().seconds.toString() }] };
    await ctx.stub.putState(key, Buffer.from(JSON.stringify(product)));
    return JSON.stringify(product);
  }

  async addStep(ctx, productId, holder, place) {
    const product = await this.read(ctx, productId);
    product.steps.push({ holder, place, at: ctx.stub.getTxTimestamp().seconds.toString() });
    await ctx.stub.putState(ctx.stub.createCompositeKey('product', [productId]), Buffer.from(JSON.stringify(product)));
    return JSON.stringify(product);
  }

  async traceProduct(ctx, productId) {
    return JSON.stringify(await this.read(ctx, productId));
  }

  async read(ctx, productId) {
    const bytes = await ctx.stub.getState(ctx.stub.createCompositeKey('product', [productId]));
    if (!bytes || bytes.length === 0) throw new Error(\`product \${productId} not found\`);
    return JSON.parse(bytes.toString());
  }
}

module.exports.contracts = [SupplyTrace];
`;

const TOKEN_SOL = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title ServiceToken: a fixed-supply fungible token with the ERC-20 interface.
/// @notice The whole supply goes to the deployer; holders transfer and approve spenders.
contract ServiceToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint256 supply) {
        name = name_;
        symbol = symbol_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "allowance too low");
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        require(to != address(0), "transfer to the zero address");
        require(balanceOf[from] >= value, "balance too low");
        unchecked {
            balanceOf[from] -= value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
`;

const NOTARY_SOL = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Notary: proves that a document existed at a time, by the hash of its content.
/// @notice The document itself stays off chain (for example on the platform's IPFS storage: keep its CID as the uri).
contract Notary {
    struct Record {
        address owner;
        uint64 notarisedAt;
        bool revoked;
        string uri;
    }

    mapping(bytes32 => Record) private records;

    event Notarised(bytes32 indexed hash, address indexed owner, string uri);
    event Revoked(bytes32 indexed hash, address indexed owner);

    function notarise(bytes32 hash, string calldata uri) external {
        require(records[hash].owner == address(0), "already notarised");
        records[hash] = Record(msg.sender, uint64(block.timestamp), false, uri);
        emit Notarised(hash, msg.sender, uri);
    }

    function verify(bytes32 hash) external view returns (bool valid, address owner, uint64 notarisedAt, string memory uri) {
        Record storage r = records[hash];
        return (r.owner != address(0) && !r.revoked, r.owner, r.notarisedAt, r.uri);
    }

    function revoke(bytes32 hash) external {
        Record storage r = records[hash];
        require(r.owner == msg.sender, "only the owner revokes");
        require(!r.revoked, "already revoked");
        r.revoked = true;
        emit Revoked(hash, msg.sender);
    }
}
`;

export const SHIPPED_PACKAGES: readonly ShippedPackage[] = [
  {
    key: "asset-transfer",
    name: "asset_transfer",
    language: "go",
    version: "1.0.0",
    mainPath: "asset/main.go",
    initParams: "",
    functions: [
      fn(
        "createAsset",
        "Create an asset",
        '["id","owner","value"]',
        '{"id":"string","owner":"string","value":"number"}',
      ),
      fn("readAsset", "Read an asset", '["id"]', '{"id":"string","owner":"string","value":"number"}', 2),
      fn(
        "transferAsset",
        "Transfer an asset",
        '["id","newOwner"]',
        '{"id":"string","owner":"string","value":"number"}',
      ),
      fn("deleteAsset", "Delete an asset", '["id"]', "null"),
    ],
    files: {
      "asset/main.go": ASSET_GO,
      "asset/go.mod":
        "module asset\n\ngo 1.20\n\nrequire (\n\tgithub.com/hyperledger/fabric-chaincode-go v0.0.0-20230731094759-d626e9ab09b9\n\tgithub.com/hyperledger/fabric-protos-go v0.3.0\n)\n",
      "README.md":
        "# asset_transfer\n\nA Go chaincode for Hyperledger Fabric: create, read, transfer and delete assets.\n\nFunctions: `createAsset(id, owner, value)`, `readAsset(id)`, `transferAsset(id, newOwner)`, `deleteAsset(id)`.\n",
    },
  },
  {
    key: "supply-trace",
    name: "supply_trace",
    language: "node",
    version: "1.0.0",
    mainPath: "lib/supplyTrace.js",
    initParams: "",
    functions: [
      fn(
        "registerProduct",
        "Register a product",
        '["productId","name","maker"]',
        '{"productId":"string","steps":"array"}',
      ),
      fn("addStep", "Add a handover step", '["productId","holder","place"]', '{"productId":"string","steps":"array"}'),
      fn("traceProduct", "Trace a product", '["productId"]', '{"productId":"string","steps":"array"}', 2),
    ],
    files: {
      "lib/supplyTrace.js": TRACE_JS,
      "index.js": "'use strict';\n\nmodule.exports = require('./lib/supplyTrace');\n",
      "package.json":
        JSON.stringify(
          {
            name: "supply-trace",
            version: "1.0.0",
            main: "index.js",
            scripts: { start: "fabric-chaincode-node start" },
            dependencies: { "fabric-contract-api": "^2.5.0", "fabric-shim": "^2.5.0" },
          },
          null,
          2,
        ) + "\n",
      "README.md":
        "# supply_trace\n\nA Node.js chaincode for Hyperledger Fabric: register a product, add each handover, trace its history.\n",
    },
  },
  {
    key: "service-token",
    name: "service_token",
    language: "solidity",
    version: "1.0.0",
    mainPath: "contracts/ServiceToken.sol",
    initParams: "name,symbol,supply",
    functions: [
      fn("transfer", "Transfer tokens", '["to","value"]', '{"ok":"bool"}'),
      fn("approve", "Approve a spender", '["spender","value"]', '{"ok":"bool"}'),
      fn("transferFrom", "Transfer for an owner", '["from","to","value"]', '{"ok":"bool"}'),
      fn("balanceOf", "Balance of an address", '["owner"]', '{"balance":"uint256"}', 2),
    ],
    files: {
      "contracts/ServiceToken.sol": TOKEN_SOL,
      "README.md":
        "# service_token\n\nA Solidity token with the ERC-20 interface for FISCO BCOS and CITA. Constructor: `name, symbol, supply` (the supply goes to the deployer).\n",
    },
  },
  {
    key: "notary",
    name: "notary_proof",
    language: "solidity",
    version: "1.0.0",
    mainPath: "contracts/Notary.sol",
    initParams: "",
    functions: [
      fn("notarise", "Notarise a document hash", '["hash","uri"]', "null"),
      fn(
        "verify",
        "Verify a document hash",
        '["hash"]',
        '{"valid":"bool","owner":"address","notarisedAt":"uint64","uri":"string"}',
        2,
      ),
      fn("revoke", "Revoke a notarisation", '["hash"]', "null"),
    ],
    files: {
      "contracts/Notary.sol": NOTARY_SOL,
      "README.md":
        "# notary_proof\n\nA Solidity notary for FISCO BCOS and CITA: notarise the hash of a document, verify it, revoke it.\n",
    },
  },
];
