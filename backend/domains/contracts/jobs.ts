import { and, eq, inArray, isNull } from "drizzle-orm";
import { encodeDeployData, type Abi, type Hex } from "viem";
import { ContractStatus } from "#contract/contracts-codes.ts";
import type { Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import type { JobEntry } from "#backend/jobs/runner.ts";
import { schedule } from "#backend/jobs/runner.ts";
import chain from "#backend/domains/chain/index.ts";
import publicChain from "#backend/domains/public-chain/index.ts";
import { pubChainAccounts, pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { ArgumentError, chooseContract, parseArguments } from "./rules.ts";
import { pubChainContracts } from "./tables.ts";

/**
 * The deployment of a contract (SPEC §4, docs/decisions/033), one job per attempt:
 * 0 pending → compile the source (or take the ABI and bytecode) → 1 deploying → sign the creation transaction
 * with the custody key, store it, then send it → 2 success with address, hash and block, or 3 failed with the
 * compiler's or the chain's reason. A job resumed after a crash finds the stored transaction: it reads its
 * receipt, and sends the same bytes again only when the chain has none (never a second transaction).
 */
export const JOB_DEPLOY_CONTRACT = "contracts.deploy";
const REASON_MAX = 2_000;
/** With CHAIN_RPC_URL a node may mine later: how long the job waits for the receipt before it retries. */
const RECEIPT_WAIT_MS = 60_000;

type Row = typeof pubChainContracts.$inferSelect;
type AbiConstructor = Extract<Abi[number], { type: "constructor" }>;

export async function scheduleContractDeploy(tx: Tx, contract: Row, now: Date) {
  await schedule(
    tx,
    JOB_DEPLOY_CONTRACT,
    { contractId: contract.id },
    { runAt: now, dedupeKey: `${JOB_DEPLOY_CONTRACT}:${contract.id}:${contract.attempt}` },
  );
}

/** Thrown from the signing callback when another process stored its signed bytes first: nothing is sent. */
class SignedByAnotherRun extends Error {
  constructor(contractId: number) {
    super(`contract ${contractId} was signed by another run`);
  }
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, REASON_MAX);

async function fail(deps: Deps, id: number, reason: string) {
  await deps.db
    .update(pubChainContracts)
    .set({ status: ContractStatus.FAILED, failReason: reason.slice(0, REASON_MAX), updatedAt: deps.now() })
    .where(
      and(
        eq(pubChainContracts.id, id),
        inArray(pubChainContracts.status, [ContractStatus.PENDING, ContractStatus.DEPLOYING]),
      ),
    );
}

/** 0 → 1: the ABI and bytecode to deploy, compiled from the source on the server (off the main thread). */
async function prepare(deps: Deps, row: Row): Promise<Row | null> {
  let set: Partial<Row> = {};
  if (row.sourceKind === "source") {
    const compiled = await chain.api.compile({ [`${safeFile(row.mainContract ?? row.name)}.sol`]: row.source ?? "" });
    if (!compiled.ok) {
      await fail(deps, row.id, `compilation failed:\n${compiled.errors.join("\n\n")}`);
      return null;
    }
    const chosen = chooseContract(compiled.contracts, row.mainContract);
    if ("error" in chosen) {
      await fail(deps, row.id, chosen.error);
      return null;
    }
    set = {
      abi: chosen.contract.abi as Record<string, unknown>[],
      bytecode: chosen.contract.bytecode,
      mainContract: chosen.contract.name,
      compiler: compiled.compiler,
    };
  }
  const [moved] = await deps.db
    .update(pubChainContracts)
    .set({ ...set, status: ContractStatus.DEPLOYING, updatedAt: deps.now() })
    .where(and(eq(pubChainContracts.id, row.id), eq(pubChainContracts.status, ContractStatus.PENDING)))
    .returning();
  return moved ?? null;
}

const safeFile = (name: string) => name.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 60) || "Contract";

/** Signs the creation transaction, stores it (with its hash) before anything is sent, and sends it. */
async function sign(deps: Deps, row: Row, chainName: string): Promise<Row | null> {
  const [account] = await deps.db.select().from(pubChainAccounts).where(eq(pubChainAccounts.id, row.accountId));
  if (!account?.keySealed) {
    await fail(deps, row.id, "the chain account holds no custody key");
    return null;
  }
  const request = (method: string, params: unknown[] = []) => chain.api.request(deps, chainName, { method, params });
  const balance = BigInt(String(await request("eth_getBalance", [account.address, "latest"])));
  if (balance === 0n) {
    await fail(deps, row.id, "chain account gas is 0: assign gas to the account, then deploy again");
    return null;
  }
  const abi = (row.abi ?? []) as unknown as Abi;
  const ctor = abi.find((e): e is AbiConstructor => e.type === "constructor");
  let data: Hex;
  try {
    const args = parseArguments(ctor?.inputs ?? [], row.constructorArgs);
    data = encodeDeployData({ abi, bytecode: row.bytecode as Hex, args });
  } catch (error) {
    await fail(
      deps,
      row.id,
      `constructor arguments: ${error instanceof ArgumentError ? error.message : reasonOf(error)}`,
    );
    return null;
  }
  let gas: bigint;
  try {
    gas = BigInt(String(await request("eth_estimateGas", [{ from: account.address, data }])));
  } catch (error) {
    await fail(deps, row.id, `the chain refused the deployment: ${reasonOf(error)}`);
    return null;
  }
  // Signed and sent through the chain's queue for this account, which every domain that signs uses, so a DDC
  // mint or a gas transfer from the same account never takes this transaction's nonce (issue 29 item 5). The
  // signed bytes are stored before the send: a job resumed after a crash sends the same bytes, never a second one.
  const key = publicChain.api.openCustodyKey(deps.env, account.keySealed);
  let stored: Row | null = null;
  try {
    await chain.api.send(deps, chainName, key, { data, gasLimit: (gas * 12n) / 10n }, async (txHash, rawTx) => {
      [stored = null] = await deps.db
        .update(pubChainContracts)
        .set({ rawTx, txHash, updatedAt: deps.now() })
        .where(
          and(
            eq(pubChainContracts.id, row.id),
            eq(pubChainContracts.status, ContractStatus.DEPLOYING),
            isNull(pubChainContracts.rawTx),
          ),
        )
        .returning();
      // Another process signed it first: nothing is sent.
      if (!stored) throw new SignedByAnotherRun(row.id);
    });
  } catch (error) {
    // Refused by the chain after it was stored: settle() sends the stored bytes again and records the reason.
    if (!stored) {
      if (error instanceof SignedByAnotherRun) return null;
      await fail(deps, row.id, `the chain refused the deployment: ${reasonOf(error)}`);
      return null;
    }
  }
  return stored;
}

type Receipt = { status: string; contractAddress: string | null; blockNumber: string; gasUsed: string } | null;

/** Sends the stored transaction unless the chain already has it, and settles the contract from its receipt. */
async function settle(deps: Deps, row: Row, chainName: string) {
  const request = (method: string, params: unknown[] = []) => chain.api.request(deps, chainName, { method, params });
  const receiptOf = async () => (await request("eth_getTransactionReceipt", [row.txHash])) as Receipt;
  let receipt = await receiptOf();
  if (!receipt) {
    try {
      await request("eth_sendRawTransaction", [row.rawTx]);
    } catch (error) {
      // Already known or mined meanwhile: the receipt says; otherwise the chain's refusal is the reason.
      receipt = await receiptOf();
      if (!receipt) {
        await fail(deps, row.id, `the chain refused the deployment transaction: ${reasonOf(error)}`);
        return;
      }
    }
    const deadline = Date.now() + RECEIPT_WAIT_MS;
    while (!receipt && Date.now() < deadline) {
      receipt = await receiptOf();
      if (!receipt) await new Promise((r) => setTimeout(r, 500));
    }
    if (!receipt) throw new Error(`no receipt yet for ${row.txHash}: the job tries again`);
  }
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    if (receipt.status === "0x1" && receipt.contractAddress) {
      const [done] = await tx
        .update(pubChainContracts)
        .set({
          status: ContractStatus.SUCCESS,
          address: receipt.contractAddress,
          blockNumber: Number(receipt.blockNumber),
          gasUsed: BigInt(receipt.gasUsed).toString(),
          failReason: null,
          deployedAt: now,
          updatedAt: now,
        })
        .where(and(eq(pubChainContracts.id, row.id), eq(pubChainContracts.status, ContractStatus.DEPLOYING)))
        .returning();
      if (done) await publicChain.api.publishOnFirstContract(tx, row.projectId, now);
    } else {
      await tx
        .update(pubChainContracts)
        .set({
          status: ContractStatus.FAILED,
          blockNumber: Number(receipt.blockNumber),
          gasUsed: BigInt(receipt.gasUsed).toString(),
          failReason: `the deployment transaction reverted in block ${Number(receipt.blockNumber)} (the constructor failed or ran out of gas)`,
          updatedAt: now,
        })
        .where(and(eq(pubChainContracts.id, row.id), eq(pubChainContracts.status, ContractStatus.DEPLOYING)));
    }
  });
}

export async function deployContract(payload: Record<string, unknown>, deps: Deps) {
  const id = Number(payload.contractId);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error("job payload without contractId");
  let [row] = await deps.db.select().from(pubChainContracts).where(eq(pubChainContracts.id, id));
  if (!row || row.status === ContractStatus.SUCCESS || row.status === ContractStatus.FAILED) return;
  const [project] = await deps.db
    .select({ chain: pubChainProjects.chain })
    .from(pubChainProjects)
    .where(eq(pubChainProjects.id, row.projectId));
  if (!project) return;
  if (row.status === ContractStatus.PENDING) {
    const prepared = await prepare(deps, row);
    if (!prepared) return;
    row = prepared;
  }
  if (!row.rawTx) {
    const signed = await sign(deps, row, project.chain);
    if (!signed) return;
    row = signed;
  }
  await settle(deps, row, project.chain);
}

export const contractJobs: Record<string, JobEntry> = {
  [JOB_DEPLOY_CONTRACT]: {
    run: deployContract,
    async ownerOf(payload, db) {
      const [c] = await db
        .select({ userId: pubChainContracts.userId, name: pubChainContracts.name })
        .from(pubChainContracts)
        .where(eq(pubChainContracts.id, Number(payload.contractId) || 0));
      return c ? { userId: c.userId, subject: c.name } : null;
    },
  },
};
