import { eq } from "drizzle-orm";
import type { Abi, Hex } from "viem";
import { Msg } from "#contract/messages.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import { ApiError } from "#backend/http/errors.ts";
import chain from "#backend/domains/chain/index.ts";
import { pubChainAccounts, pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { pubChainContracts } from "./tables.ts";
import { decodeLogs } from "./writes.ts";

/*
 * The transaction page (issue 35 §2, docs/decisions/089): one transaction read from its chain's node (the embedded
 * engine or the node of CHAIN_RPC_URL alike, so nothing here depends on the engine's own index), shown to the
 * account whose chain account or contract is one of its parties.
 */

type RpcTx = { hash: string; from: string; to: string | null; nonce: string; input: string; value: string };
type RpcLog = { address: string; topics: Hex[]; data: Hex; logIndex: string };
type RpcReceipt = {
  status: string;
  blockNumber: string;
  blockHash: string;
  gasUsed: string;
  effectiveGasPrice?: string;
  contractAddress: string | null;
  logs: RpcLog[];
};

const lower = (a: string | null | undefined) => (a ? a.toLowerCase() : null);

export async function transactionDetail(input: Payload<"/sys/opc/transaction">, ctx: SignedInContext) {
  const { deps } = ctx;
  const userId = ctx.user.id;
  const hash = input.hash.toLowerCase();
  const [projects, accounts, contracts] = await Promise.all([
    deps.db
      .selectDistinct({ chain: pubChainProjects.chain })
      .from(pubChainProjects)
      .where(eq(pubChainProjects.userId, userId)),
    deps.db
      .select({
        id: pubChainAccounts.id,
        name: pubChainAccounts.name,
        address: pubChainAccounts.address,
        chain: pubChainProjects.chain,
      })
      .from(pubChainAccounts)
      .innerJoin(pubChainProjects, eq(pubChainProjects.id, pubChainAccounts.projectId))
      .where(eq(pubChainAccounts.userId, userId)),
    deps.db
      .select({
        id: pubChainContracts.id,
        name: pubChainContracts.name,
        address: pubChainContracts.address,
        abi: pubChainContracts.abi,
        chain: pubChainProjects.chain,
      })
      .from(pubChainContracts)
      .innerJoin(pubChainProjects, eq(pubChainProjects.id, pubChainContracts.projectId))
      .where(eq(pubChainContracts.userId, userId)),
  ]);
  // The account's chains, few (open-alliance, the test network): the first whose node knows the hash.
  for (const { chain: chainName } of projects) {
    const request = (method: string, params: unknown[]) => chain.api.request(deps, chainName, { method, params });
    const tx = (await request("eth_getTransactionByHash", [hash])) as RpcTx | null;
    if (!tx) continue;
    const receipt = (await request("eth_getTransactionReceipt", [hash])) as RpcReceipt | null;
    const mine = {
      accounts: accounts.filter((a) => a.chain === chainName),
      contracts: contracts.filter((c) => c.chain === chainName && c.address),
    };
    const addresses = [tx.from, tx.to, receipt?.contractAddress].map(lower).filter((a): a is string => !!a);
    const parties = [
      ...mine.accounts
        .filter((a) => addresses.includes(a.address.toLowerCase()))
        .map((a) => ({ address: a.address, kind: "account" as const, id: a.id, name: a.name })),
      ...mine.contracts
        .filter((c) => addresses.includes(c.address!.toLowerCase()))
        .map((c) => ({ address: c.address!, kind: "contract" as const, id: c.id, name: c.name })),
    ];
    // Not one of the account's: as if it did not exist (another account's transaction is not theirs to read here).
    if (!parties.length) break;
    const block = receipt
      ? ((await request("eth_getBlockByNumber", [receipt.blockNumber, false])) as { timestamp: string } | null)
      : null;
    const byAddress = new Map(mine.contracts.map((c) => [c.address!.toLowerCase(), c]));
    const events = (receipt?.logs ?? []).map((log) => {
      const emitter = byAddress.get(log.address.toLowerCase());
      const [decoded] = decodeLogs((emitter?.abi ?? []) as unknown as Abi, [log]);
      return { ...decoded!, contractId: emitter?.id ?? null, topics: decoded!.topics.map(String) };
    });
    return {
      hash: tx.hash,
      chain: chainName,
      status: !receipt ? ("pending" as const) : receipt.status === "0x1" ? ("success" as const) : ("reverted" as const),
      blockNumber: receipt ? Number(receipt.blockNumber) : null,
      blockHash: receipt?.blockHash ?? null,
      time: block ? new Date(Number(block.timestamp) * 1000).toISOString() : null,
      nonce: Number(tx.nonce),
      from: tx.from,
      to: tx.to ?? null,
      created: receipt?.contractAddress ?? null,
      valueWei: BigInt(tx.value).toString(),
      gasUsed: receipt ? BigInt(receipt.gasUsed).toString() : null,
      effectiveGasPrice: receipt?.effectiveGasPrice ? BigInt(receipt.effectiveGasPrice).toString() : null,
      input: tx.input,
      parties,
      events,
    };
  }
  throw new ApiError(Msg.NOT_FOUND);
}
