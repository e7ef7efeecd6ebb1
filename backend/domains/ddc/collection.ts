import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import {
  decodeEventLog,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  type Abi,
  type Hex,
} from "viem";
import type { Deps } from "#backend/deps.ts";
import chain from "#backend/domains/chain/index.ts";

/**
 * The DDC collection contract (docs/decisions/045): backend/domains/ddc/DDC.sol, OpenZeppelin's ERC-721 with
 * URI storage, compiled by the chain domain's solc worker with the OpenZeppelin sources it imports (read from
 * the installed @openzeppelin/contracts package: solc gets every imported file by name, it has no import
 * callback). Compiled once per process (re-creatable, so nothing is kept in the database).
 */
export const DDC_SOURCE_FILE = path.join(process.cwd(), "backend/domains/ddc/DDC.sol");
const OZ = "@openzeppelin/contracts/";

function ozRoot(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve(`${OZ}package.json`));
}

/** The source and every file it imports (transitively), by the names solc resolves them with. */
export function collectionSources(): Record<string, string> {
  const root = ozRoot();
  const sources: Record<string, string> = { "DDC.sol": readFileSync(DDC_SOURCE_FILE, "utf8") };
  const queue = ["DDC.sol"];
  while (queue.length) {
    const file = queue.shift()!;
    for (const match of sources[file]!.matchAll(/^\s*import\s+(?:[^"']*from\s+)?["']([^"']+)["']\s*;/gm)) {
      const spec = match[1]!;
      const name = spec.startsWith(".") ? path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)) : spec;
      if (sources[name] !== undefined) continue;
      if (!name.startsWith(OZ)) throw new Error(`DDC.sol imports ${name}, which is not an OpenZeppelin file`);
      sources[name] = readFileSync(path.join(root, name.slice(OZ.length)), "utf8");
      queue.push(name);
    }
  }
  return sources;
}

type Compiled = { abi: Abi; bytecode: Hex; compiler: string };
let compiled: Promise<Compiled> | undefined;

/** DDC.sol compiled (once per process). */
export function compiledCollection(): Promise<Compiled> {
  compiled ??= (async () => {
    const result = await chain.api.compile(collectionSources());
    if (!result.ok) throw new Error(`DDC.sol does not compile: ${result.errors.join("\n")}`);
    const ddc = result.contracts.find((c) => c.file === "DDC.sol" && c.name === "DDC");
    if (!ddc) throw new Error("DDC.sol has no contract DDC");
    return { abi: ddc.abi as Abi, bytecode: ddc.bytecode as Hex, compiler: result.compiler };
  })().catch((error: unknown) => {
    compiled = undefined;
    throw error;
  });
  return compiled;
}

type Receipt = {
  status: string;
  blockNumber: string;
  gasUsed: string;
  logs: { address: string; topics: Hex[]; data: Hex }[];
};

async function receiptOf(deps: Deps, chainName: string, hash: string): Promise<Receipt> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const receipt = (await chain.api.request(deps, chainName, {
      method: "eth_getTransactionReceipt",
      params: [hash],
    })) as Receipt | null;
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`no receipt for ${hash} after 60 seconds`);
}

/** A transaction's receipt now, or null when it is not mined (yet). */
export async function receiptNow(deps: Deps, chainName: string, hash: string): Promise<Receipt | null> {
  return (await chain.api.request(deps, chainName, {
    method: "eth_getTransactionReceipt",
    params: [hash],
  })) as Receipt | null;
}

/** Whether the chain knows a transaction (mined or waiting to be): a dropped or never-sent one it does not. */
export async function knownOnChain(deps: Deps, chainName: string, hash: string): Promise<boolean> {
  return (await chain.api.request(deps, chainName, { method: "eth_getTransactionByHash", params: [hash] })) !== null;
}

/** A signed transaction's hash, kept before it is sent (docs/decisions/045, crash recovery). */
export type OnSigned = (hash: string) => Promise<void>;

/** A transaction sent and mined: its hash and block, or throws when it reverted. */
async function transact(deps: Deps, chainName: string, key: string, to: string, data: Hex, onSigned?: OnSigned) {
  const txHash = await chain.api.send(deps, chainName, key, { to, data }, onSigned);
  const receipt = await receiptOf(deps, chainName, txHash);
  if (receipt.status !== "0x1")
    throw new Reverted(`the transaction ${txHash} reverted in block ${Number(receipt.blockNumber)}`);
  return { txHash, blockNumber: Number(receipt.blockNumber) };
}

/** The chain refused a transaction (estimate or revert): its reason, shown to the user. */
export class ChainRefusal extends Error {}

/** The transaction was mined and reverted: final (unlike a receipt not yet seen). */
export class Reverted extends ChainRefusal {}

const refusalOf = (error: unknown) =>
  error instanceof ChainRefusal
    ? error
    : new ChainRefusal((error instanceof Error ? error.message : String(error)).slice(0, 500));

/** Deploys a project's collection from `key`'s account: its address and transaction. */
export async function deployCollection(deps: Deps, chainName: string, key: string, name: string) {
  const { abi, bytecode } = await compiledCollection();
  const ctor = abi.find((e) => e.type === "constructor");
  const args = encodeAbiParameters(ctor && "inputs" in ctor ? ctor.inputs : [], [name]);
  try {
    return await chain.api.deploy(deps, chainName, key, `${bytecode}${args.slice(2)}`);
  } catch (error) {
    throw refusalOf(error);
  }
}

async function read(deps: Deps, chainName: string, address: string, functionName: string, args: unknown[]) {
  const { abi } = await compiledCollection();
  const data = encodeFunctionData({ abi, functionName, args });
  const out = (await chain.api.request(deps, chainName, {
    method: "eth_call",
    params: [{ to: address, data }, "latest"],
  })) as Hex;
  return decodeFunctionResult({ abi, functionName, data: out });
}

/** `ownerOf(tokenId)` read on the chain, or null when the token does not exist (the call reverts). */
export async function ownerOnChain(
  deps: Deps,
  chainName: string,
  address: string,
  tokenId: bigint,
): Promise<string | null> {
  try {
    return String(await read(deps, chainName, address, "ownerOf", [tokenId]));
  } catch {
    return null;
  }
}

export async function tokenUriOnChain(
  deps: Deps,
  chainName: string,
  address: string,
  tokenId: bigint,
): Promise<string | null> {
  try {
    return String(await read(deps, chainName, address, "tokenURI", [tokenId]));
  } catch {
    return null;
  }
}

/** Lets `minter` mint on the collection (signed by its owner's key) unless it already may. */
export async function allowMinter(deps: Deps, chainName: string, address: string, ownerKey: string, minter: string) {
  if ((await read(deps, chainName, address, "isMinter", [minter])) === true) return;
  const { abi } = await compiledCollection();
  try {
    await transact(
      deps,
      chainName,
      ownerKey,
      address,
      encodeFunctionData({ abi, functionName: "setMinter", args: [minter, true] }),
    );
  } catch (error) {
    throw refusalOf(error);
  }
}

/** Mints token `tokenId` to `to` from `key`'s account. */
export async function mintToken(
  deps: Deps,
  chainName: string,
  address: string,
  key: string,
  input: { to: string; tokenId: bigint; uri: string },
  onSigned?: OnSigned,
) {
  const { abi } = await compiledCollection();
  try {
    return await transact(
      deps,
      chainName,
      key,
      address,
      encodeFunctionData({ abi, functionName: "mint", args: [input.to, input.tokenId, input.uri] }),
      onSigned,
    );
  } catch (error) {
    throw refusalOf(error);
  }
}

/** Transfers token `tokenId` from `from` (the account of `key`) to `to` (ERC-721 transferFrom). */
export async function transferToken(
  deps: Deps,
  chainName: string,
  address: string,
  key: string,
  input: { from: string; to: string; tokenId: bigint },
  onSigned?: OnSigned,
) {
  const { abi } = await compiledCollection();
  try {
    return await transact(
      deps,
      chainName,
      key,
      address,
      encodeFunctionData({ abi, functionName: "transferFrom", args: [input.from, input.to, input.tokenId] }),
      onSigned,
    );
  } catch (error) {
    throw refusalOf(error);
  }
}

export type TransferEvent = { from: string; to: string; txHash: string; blockNumber: number; at: string | null };

/** The token's Transfer events read from the chain's logs (mint first), with their blocks' times. */
export async function transfersOnChain(
  deps: Deps,
  chainName: string,
  address: string,
  tokenId: bigint,
  fromBlock: number,
): Promise<TransferEvent[]> {
  const { abi } = await compiledCollection();
  const transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
  const tokenTopic = `0x${tokenId.toString(16).padStart(64, "0")}`;
  const logs = (await chain.api.request(deps, chainName, {
    method: "eth_getLogs",
    params: [
      {
        address,
        fromBlock: `0x${Math.max(0, fromBlock).toString(16)}`,
        toBlock: "latest",
        topics: [transferTopic, null, null, tokenTopic],
      },
    ],
  })) as { topics: Hex[]; data: Hex; transactionHash: string; blockNumber: string }[];
  const times = new Map<string, string | null>();
  const out: TransferEvent[] = [];
  for (const log of logs) {
    const decoded = decodeEventLog({
      abi,
      topics: log.topics as [Hex, ...Hex[]],
      data: log.data,
      eventName: "Transfer",
    }) as unknown as { args: { from: string; to: string } };
    if (!times.has(log.blockNumber)) {
      const block = (await chain.api.request(deps, chainName, {
        method: "eth_getBlockByNumber",
        params: [log.blockNumber, false],
      })) as { timestamp: string } | null;
      times.set(log.blockNumber, block ? new Date(Number(BigInt(block.timestamp)) * 1000).toISOString() : null);
    }
    out.push({
      from: decoded.args.from,
      to: decoded.args.to,
      txHash: log.transactionHash,
      blockNumber: Number(log.blockNumber),
      at: times.get(log.blockNumber) ?? null,
    });
  }
  return out;
}
