import { and, eq } from "drizzle-orm";
import { decodeEventLog, encodeFunctionData, type Abi, type AbiFunction, type Hex } from "viem";
import { ContractStatus } from "#contract/contracts-codes.ts";
import { Msg } from "#contract/messages.ts";
import { KeyType } from "#contract/public-chain-codes.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError } from "#backend/http/errors.ts";
import chain from "#backend/domains/chain/index.ts";
import publicChain from "#backend/domains/public-chain/index.ts";
import { pubChainAccounts, pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { ArgumentError, parseArguments, signatureOf, valueText } from "./rules.ts";
import { pubChainContracts } from "./tables.ts";

/**
 * Write functions of a deployed contract (docs/decisions/044 extends 033): the caller's custody account of the
 * contract's project signs the call as a transaction with real gas; the answer is the transaction, its receipt
 * and the events it emitted, decoded with the contract's ABI. The online IDE reaches it through the domain's api.
 */

const isWrite = (f: AbiFunction) => f.stateMutability === "nonpayable" || f.stateMutability === "payable";

type Log = { address: string; topics: Hex[]; data: Hex; logIndex: string };

/** Logs decoded with an ABI (events it does not describe keep their raw topics and data). */
export function decodeLogs(abi: Abi, logs: readonly Log[]) {
  return logs.map((l) => {
    let eventName: string | null = null;
    let args: { name: string; value: string }[] = [];
    try {
      const d = decodeEventLog({ abi, topics: l.topics as [Hex, ...Hex[]], data: l.data });
      eventName = d.eventName ?? null;
      const values = d.args as unknown;
      args = Array.isArray(values)
        ? values.map((v, i) => ({ name: String(i), value: valueText(v) }))
        : Object.entries((values ?? {}) as Record<string, unknown>).map(([name, v]) => ({ name, value: valueText(v) }));
    } catch {
      // An event the ABI does not describe.
    }
    return { logIndex: Number(l.logIndex), address: l.address, eventName, args, topics: l.topics, data: l.data };
  });
}

type Receipt = { status: string; blockNumber: string; gasUsed: string; effectiveGasPrice?: string; logs: Log[] };
type Transaction = { hash: string; from: string; to: string; nonce: string; input: string; value: string };

/** How long a write waits for its receipt on a remote node (the embedded engine answers at once). */
const RECEIPT_TRIES = 120;

/**
 * Sends a write function of the caller's deployed contract, signed by `accountId` (a custody account of the
 * contract's project with gas): the transaction, the receipt and the decoded events. A revert before sending
 * (eth_estimateGas) is MSG_42107 with the chain's reason.
 */
export async function writeContract(
  deps: Deps,
  userId: number,
  input: { contractId: number; signature: string; args: string[]; accountId: number },
) {
  const [row] = await deps.db
    .select()
    .from(pubChainContracts)
    .where(and(eq(pubChainContracts.id, input.contractId), eq(pubChainContracts.userId, userId)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  if (row.status !== ContractStatus.SUCCESS || !row.address || !row.abi) throw new ApiError(Msg.CONTRACT_NOT_DEPLOYED);
  const abi = row.abi as unknown as Abi;
  const fn = abi.find(
    (e): e is AbiFunction => e.type === "function" && isWrite(e) && signatureOf(e) === input.signature,
  );
  if (!fn)
    throw new ApiError(Msg.CONTRACT_NO_SUCH_FUNCTION, { fieldErrors: { signature: [Msg.CONTRACT_NO_SUCH_FUNCTION] } });
  const [account] = await deps.db
    .select()
    .from(pubChainAccounts)
    .where(
      and(
        eq(pubChainAccounts.id, input.accountId),
        eq(pubChainAccounts.userId, userId),
        eq(pubChainAccounts.projectId, row.projectId),
      ),
    );
  if (!account) throw new ApiError(Msg.NOT_FOUND);
  if (account.keyType !== KeyType.CUSTODY || !account.keySealed)
    throw new ApiError(Msg.CONTRACT_ACCOUNT_NOT_CUSTODY, {
      fieldErrors: { accountId: [Msg.CONTRACT_ACCOUNT_NOT_CUSTODY] },
    });
  const [project] = await deps.db
    .select({ chain: pubChainProjects.chain })
    .from(pubChainProjects)
    .where(eq(pubChainProjects.id, row.projectId));
  return writeAt(
    deps,
    { chainName: project!.chain, address: row.address, abi },
    { from: account.address, privateKey: publicChain.api.openCustodyKey(deps.env, account.keySealed) },
    input.signature,
    input.args,
  );
}

/**
 * The write function of `signature` of the contract at `address` on `chainName`, signed by `signer` (any chain of the
 * registry: an open-alliance project's custody account, or the caller's test-network account for the online
 * IDE, docs/decisions/044).
 */
export async function writeAt(
  deps: Deps,
  at: { chainName: string; address: string; abi: Abi },
  signer: { from: string; privateKey: string },
  signature: string,
  args: string[],
) {
  const { chainName, abi } = at;
  const fn = abi.find((e): e is AbiFunction => e.type === "function" && isWrite(e) && signatureOf(e) === signature);
  if (!fn)
    throw new ApiError(Msg.CONTRACT_NO_SUCH_FUNCTION, { fieldErrors: { signature: [Msg.CONTRACT_NO_SUCH_FUNCTION] } });
  const request = (method: string, params: unknown[] = []) => chain.api.request(deps, chainName, { method, params });
  let data: Hex;
  try {
    data = encodeFunctionData({ abi: [fn], functionName: fn.name, args: parseArguments(fn.inputs, args) });
  } catch (error) {
    if (error instanceof ArgumentError)
      throw new ApiError(Msg.CONTRACT_BAD_ARGUMENTS, {
        fieldErrors: { [`args.${error.index}`]: [Msg.CONTRACT_BAD_ARGUMENTS] },
        reason: error.message,
      });
    throw error;
  }
  const balance = BigInt(String(await request("eth_getBalance", [signer.from, "latest"])));
  if (balance === 0n) throw new ApiError(Msg.GAS_ZERO, { fieldErrors: { accountId: [Msg.GAS_ZERO] } });
  let hash: string;
  try {
    hash = await chain.api.send(deps, chainName, signer.privateKey, { to: at.address, data });
  } catch (error) {
    const e = error as { code?: number; message?: string; data?: string };
    if (e.code === 3 || /revert/i.test(e.message ?? ""))
      throw new ApiError(Msg.CONTRACT_CALL_REVERTED, { reason: (e.message ?? "").slice(0, 500), data: e.data ?? null });
    throw error;
  }
  let receipt: Receipt | null = null;
  for (let i = 0; i < RECEIPT_TRIES && !receipt; i++) {
    receipt = (await request("eth_getTransactionReceipt", [hash])) as Receipt | null;
    if (!receipt) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const tx = (await request("eth_getTransactionByHash", [hash])) as Transaction | null;
  return {
    signature: signatureOf(fn),
    kind: "write" as const,
    outputs: [],
    transaction: tx
      ? {
          hash: tx.hash,
          from: tx.from,
          to: tx.to,
          nonce: Number(tx.nonce),
          input: tx.input,
          value: BigInt(tx.value).toString(),
        }
      : { hash, from: signer.from, to: at.address, nonce: -1, input: data, value: "0" },
    receipt: receipt
      ? {
          status: receipt.status === "0x1" ? ("success" as const) : ("reverted" as const),
          blockNumber: Number(receipt.blockNumber),
          gasUsed: BigInt(receipt.gasUsed).toString(),
          effectiveGasPrice: BigInt(receipt.effectiveGasPrice ?? "0").toString(),
        }
      : null,
    events: receipt ? decodeLogs(abi, receipt.logs) : [],
  };
}
