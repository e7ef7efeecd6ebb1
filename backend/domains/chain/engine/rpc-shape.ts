import { type TypedTransaction } from "@ethereumjs/tx";
import { bytesToHex } from "@ethereumjs/util";
import { RPC, RpcError, quantity } from "#backend/domains/chain/hex.ts";

/** A message of a transaction the engine refuses, in the words the Ethereum clients (and viem's error mapping) use. */
export function refusal(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const nonces = /account has nonce of: (\d+) tx has nonce of: (\d+)/.exec(message);
  if (nonces)
    return `nonce too ${BigInt(nonces[2]!) < BigInt(nonces[1]!) ? "low" : "high"}: next nonce ${nonces[1]}, tx nonce ${nonces[2]}`;
  if (/enough funds|insufficient/i.test(message)) return "insufficient funds for gas * price + value";
  if (/base fee|baseFee/i.test(message)) return "max fee per gas less than block base fee";
  if (/gas limit is too low|intrinsic/i.test(message)) return "intrinsic gas too low";
  if (/higher gas limit/.test(message)) return "exceeds block gas limit";
  return message.split("\n")[0]!.replace(/ \(block number=.*$/, "");
}

export const hex = (bytes: Uint8Array) => bytesToHex(bytes);

export function executionError(error: string, returnData: string): RpcError {
  if (error === "revert") return new RpcError(RPC.EXECUTION_REVERTED, revertMessage(returnData), returnData);
  return new RpcError(RPC.SERVER, error === "out of gas" ? "out of gas" : `execution failed: ${error}`);
}

/** "execution reverted" with the Error(string) reason when the data carries one. */
function revertMessage(returnData: string): string {
  if (!returnData.startsWith("0x08c379a0") || returnData.length < 138) return "execution reverted";
  try {
    const body = Buffer.from(returnData.slice(10), "hex");
    const length = Number(BigInt(`0x${body.subarray(32, 64).toString("hex")}`));
    return `execution reverted: ${body.subarray(64, 64 + length).toString("utf8")}`;
  } catch {
    return "execution reverted";
  }
}

export function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  if ("maxFeePerGas" in tx) return (baseFee ?? 0n) + tx.getEffectivePriorityFee(baseFee ?? 0n);
  return (tx as { gasPrice: bigint }).gasPrice;
}

/** A transaction's JSON-RPC fields (eth_getTransactionByHash), without the block's. */
export function txRpc(tx: TypedTransaction, baseFee: bigint | undefined): Record<string, unknown> {
  const json = tx.toJSON() as Record<string, unknown>;
  const out: Record<string, unknown> = {
    type: quantity(tx.type),
    hash: hex(tx.hash()),
    from: tx.getSenderAddress().toString(),
    to: tx.to ? tx.to.toString() : null,
    nonce: quantity(tx.nonce),
    gas: quantity(tx.gasLimit),
    value: quantity(tx.value),
    input: hex(tx.data),
    v: json.v,
    r: json.r,
    s: json.s,
    gasPrice: quantity(effectiveGasPrice(tx, baseFee)),
  };
  if (tx.type !== 0) {
    out.chainId = json.chainId;
    out.accessList = json.accessList ?? [];
    out.yParity = json.v;
  }
  if ("maxFeePerGas" in tx) {
    out.maxFeePerGas = json.maxFeePerGas;
    out.maxPriorityFeePerGas = json.maxPriorityFeePerGas;
  }
  if (tx.type === 4) out.authorizationList = json.authorizationList;
  return out;
}
