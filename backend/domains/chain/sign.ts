import type { ChainNode } from "./rpc.ts";

/**
 * Signs an EIP-1559 transaction with `privateKey` for `node` (chain `chainId`) and sends it; the caller keeps
 * one sender's transactions in order (the registry's queue per chain and sender: every domain that signs goes
 * through it, so two never take the same nonce). The gas limit is estimated when not given. `onSigned` gets the
 * hash and the signed bytes before the send.
 */
export async function signAndSend(
  node: ChainNode,
  chainId: number,
  privateKey: string,
  input: { to?: string; data?: string; value?: bigint; gasLimit?: bigint },
  onSigned?: (hash: string, raw: string) => Promise<void>,
): Promise<string> {
  const { createFeeMarket1559Tx } = await import("@ethereumjs/tx");
  const { createCustomCommon, Mainnet } = await import("@ethereumjs/common");
  const { privateToAddress } = await import("@ethereumjs/util");
  const key = Buffer.from(privateKey.replace(/^0x/, ""), "hex");
  const from = `0x${Buffer.from(privateToAddress(key)).toString("hex")}`;
  const nonce = (await node.request({ method: "eth_getTransactionCount", params: [from, "pending"] })) as string;
  const gasPrice = BigInt((await node.request({ method: "eth_gasPrice" })) as string);
  const value = input.value ?? 0n;
  const estimate = async () =>
    (BigInt(
      (await node.request({
        method: "eth_estimateGas",
        params: [{ from, to: input.to, data: input.data, value: `0x${value.toString(16)}` }],
      })) as string,
    ) *
      12n) /
    10n;
  const gasLimit = input.gasLimit ?? (await estimate());
  const common = createCustomCommon({ chainId }, Mainnet, { hardfork: "prague" });
  const tx = createFeeMarket1559Tx(
    {
      chainId: BigInt(chainId),
      nonce: BigInt(nonce),
      to: input.to as `0x${string}` | undefined,
      data: input.data as `0x${string}` | undefined,
      value,
      gasLimit,
      maxFeePerGas: gasPrice * 2n,
      maxPriorityFeePerGas: 1_000_000_000n,
    },
    { common },
  ).sign(key);
  const raw = `0x${Buffer.from(tx.serialize()).toString("hex")}`;
  if (onSigned) await onSigned(`0x${Buffer.from(tx.hash()).toString("hex")}`, raw);
  return (await node.request({ method: "eth_sendRawTransaction", params: [raw] })) as string;
}

/** The address of a private key (hex). */
export async function addressOf(key: string): Promise<string> {
  const { privateToAddress } = await import("@ethereumjs/util");
  return `0x${Buffer.from(privateToAddress(Buffer.from(key.slice(2), "hex"))).toString("hex")}`;
}
