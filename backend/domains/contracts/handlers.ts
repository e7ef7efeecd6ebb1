import { and, count, desc, eq, inArray } from "drizzle-orm";
import { decodeFunctionResult, encodeFunctionData, type Abi, type AbiFunction, type Hex } from "viem";
import { CONTRACT_BUSY_STATUSES, ContractStatus } from "#contract/contracts-codes.ts";
import { Msg } from "#contract/messages.ts";
import { KeyType, ProjectStatus } from "#contract/public-chain-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import chain from "#backend/domains/chain/index.ts";
import { chains } from "#backend/domains/chain/tables.ts";
import { pubChainAccounts, pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { scheduleContractDeploy } from "./jobs.ts";
import { ArgumentError, parseAbiText, parseArguments, readFunctions, signatureOf, valueText } from "./rules.ts";
import { decodeLogs } from "./writes.ts";
import { pubChainContracts } from "./tables.ts";

/** Contract deployment's handlers (contract/contracts.ts; docs/decisions/033). */

type Ctx = SignedInContext;
type Row = typeof pubChainContracts.$inferSelect;

/** Projects that may deploy: their chain is provisioned and they are not deactivated (11, 15, 16). */
const DEPLOYABLE: readonly number[] = [ProjectStatus.TO_BE_ENABLED, ProjectStatus.PUBLISHED, ProjectStatus.ENABLED];
/** The most events one page walks through (newest first). */
const MAX_EVENTS = 10_000;

async function ownProject(db: Db | Tx, userId: number, projectId: number, lock = false) {
  const q = db
    .select()
    .from(pubChainProjects)
    .where(and(eq(pubChainProjects.id, projectId), eq(pubChainProjects.userId, userId)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

async function ownContract(db: Db | Tx, userId: number, contractId: number, lock = false) {
  const q = db
    .select()
    .from(pubChainContracts)
    .where(and(eq(pubChainContracts.id, contractId), eq(pubChainContracts.userId, userId)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

async function out(db: Db | Tx, rows: Row[]) {
  if (!rows.length) return [];
  const projects = await db
    .select({ id: pubChainProjects.id, name: pubChainProjects.name, chainId: chains.chainId })
    .from(pubChainProjects)
    .leftJoin(chains, eq(chains.name, pubChainProjects.chain))
    .where(inArray(pubChainProjects.id, [...new Set(rows.map((r) => r.projectId))]));
  const accounts = await db
    .select({ id: pubChainAccounts.id, name: pubChainAccounts.name, address: pubChainAccounts.address })
    .from(pubChainAccounts)
    .where(inArray(pubChainAccounts.id, [...new Set(rows.map((r) => r.accountId))]));
  return rows.map((r) => {
    const p = projects.find((x) => x.id === r.projectId);
    const a = accounts.find((x) => x.id === r.accountId);
    return {
      contractId: r.id,
      projectId: r.projectId,
      projectName: p?.name ?? "",
      accountId: r.accountId,
      accountName: a?.name ?? "",
      accountAddress: a?.address ?? "",
      name: r.name,
      sourceKind: r.sourceKind,
      mainContract: r.mainContract,
      status: r.status,
      failReason: r.failReason,
      address: r.address,
      txHash: r.status === ContractStatus.PENDING ? null : r.txHash,
      blockNumber: r.blockNumber,
      gasUsed: r.gasUsed,
      chainId: p?.chainId ?? null,
      createdAt: r.createdAt.toISOString(),
      deployedAt: r.deployedAt?.toISOString() ?? null,
    };
  });
}
const one = async (db: Db | Tx, row: Row) => (await out(db, [row]))[0]!;

/** Refuses a second deployment under way in the project (§4), inside the project's lock. */
async function noneUnderWay(tx: Tx, projectId: number) {
  const [busy] = await tx
    .select({ id: pubChainContracts.id })
    .from(pubChainContracts)
    .where(
      and(eq(pubChainContracts.projectId, projectId), inArray(pubChainContracts.status, [...CONTRACT_BUSY_STATUSES])),
    );
  if (busy) throw new ApiError(Msg.CONTRACT_DEPLOYMENT_UNDER_WAY);
}

/**
 * SPEC §4 Contract deployment: from Solidity source (compiled by the job) or an ABI and bytecode, from one of
 * the project's custody accounts with gas; one deployment at a time per project. Answers the contract in 0.
 */
export async function createContract(input: Payload<"/sys/opc/contract/create">, ctx: Ctx) {
  const me = ctx.user.id;
  const deps = ctx.deps;
  const now = deps.now();
  let abi: Abi | null = null;
  if (input.sourceKind === "abi") {
    abi = parseAbiText(input.abi ?? "");
    if (!abi) throw new ApiError(Msg.CONTRACT_BAD_ABI, { fieldErrors: { abi: [Msg.CONTRACT_BAD_ABI] } });
    const ctor = abi.find((e) => e.type === "constructor");
    try {
      parseArguments(ctor && "inputs" in ctor ? ctor.inputs : [], input.constructorArgs);
    } catch (error) {
      if (error instanceof ArgumentError)
        throw new ApiError(Msg.CONTRACT_BAD_ARGUMENTS, {
          fieldErrors: { constructorArgs: [Msg.CONTRACT_BAD_ARGUMENTS] },
          reason: error.message,
        });
      throw error;
    }
  }
  const [account] = await deps.db
    .select()
    .from(pubChainAccounts)
    .where(
      and(
        eq(pubChainAccounts.id, input.accountId),
        eq(pubChainAccounts.userId, me),
        eq(pubChainAccounts.projectId, input.projectId),
      ),
    );
  if (!account) throw new ApiError(Msg.NOT_FOUND);
  if (account.keyType !== KeyType.CUSTODY || !account.keySealed)
    throw new ApiError(Msg.CONTRACT_ACCOUNT_NOT_CUSTODY, {
      fieldErrors: { accountId: [Msg.CONTRACT_ACCOUNT_NOT_CUSTODY] },
    });
  const project = await ownProject(deps.db, me, input.projectId);
  if (!DEPLOYABLE.includes(project.status)) throw new ApiError(Msg.CONTRACT_PROJECT_NOT_READY);
  // §8 "Chain account gas is 0", read from the chain before anything is queued (the job checks again).
  const gas = BigInt(
    String(
      await chain.api.request(deps, project.chain, { method: "eth_getBalance", params: [account.address, "latest"] }),
    ),
  );
  if (gas === 0n) throw new ApiError(Msg.GAS_ZERO, { fieldErrors: { accountId: [Msg.GAS_ZERO] } });
  const row = await deps.db.transaction(async (tx) => {
    const locked = await ownProject(tx, me, input.projectId, true);
    if (!DEPLOYABLE.includes(locked.status)) throw new ApiError(Msg.CONTRACT_PROJECT_NOT_READY);
    await noneUnderWay(tx, locked.id);
    const [created] = await tx
      .insert(pubChainContracts)
      .values({
        userId: me,
        projectId: locked.id,
        accountId: account.id,
        name: input.name,
        sourceKind: input.sourceKind,
        source: input.sourceKind === "source" ? input.source! : null,
        mainContract: input.sourceKind === "source" ? input.mainContract || null : null,
        abi: abi as Record<string, unknown>[] | null,
        bytecode: input.sourceKind === "abi" ? input.bytecode!.toLowerCase() : null,
        constructorArgs: input.constructorArgs,
        status: ContractStatus.PENDING,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await scheduleContractDeploy(tx, created, now);
    return created;
  });
  return one(deps.db, row);
}

export async function listContracts(input: Payload<"/sys/opc/contract/list">, ctx: Ctx) {
  const db = ctx.deps.db;
  const project = await ownProject(db, ctx.user.id, input.projectId);
  const where = and(eq(pubChainContracts.projectId, project.id), eq(pubChainContracts.userId, ctx.user.id));
  const [{ total }] = await db.select({ total: count() }).from(pubChainContracts).where(where);
  const rows = await db
    .select()
    .from(pubChainContracts)
    .where(where)
    .orderBy(desc(pubChainContracts.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const [busy] = await db
    .select({ id: pubChainContracts.id })
    .from(pubChainContracts)
    .where(and(where, inArray(pubChainContracts.status, [...CONTRACT_BUSY_STATUSES])));
  return {
    page: { rows: await out(db, rows), total, pageIndex: input.pageIndex, pageSize: input.pageSize },
    busy: !!busy,
  };
}

export async function contractDetail(input: Payload<"/sys/opc/contract/detail">, ctx: Ctx) {
  const row = await ownContract(ctx.deps.db, ctx.user.id, input.contractId);
  return {
    ...(await one(ctx.deps.db, row)),
    abi: row.abi,
    source: row.source,
    compiler: row.compiler,
    constructorArgs: row.constructorArgs,
  };
}

/** Renames a contract: refused while it is being deployed (§4 "a contract being deployed blocks edits"). */
export async function updateContract(input: Payload<"/sys/opc/contract/update">, ctx: Ctx) {
  const row = await ctx.deps.db.transaction(async (tx) => {
    const c = await ownContract(tx, ctx.user.id, input.contractId, true);
    if (CONTRACT_BUSY_STATUSES.includes(c.status)) throw new ApiError(Msg.CONTRACT_BEING_DEPLOYED);
    const [updated] = await tx
      .update(pubChainContracts)
      .set({ name: input.name, updatedAt: ctx.deps.now() })
      .where(eq(pubChainContracts.id, c.id))
      .returning();
    return updated;
  });
  return one(ctx.deps.db, row);
}

/** A failed deployment (3) queued again (→ 0) with a new job, unless another of the project is under way. */
export async function redeployContract(input: Payload<"/sys/opc/contract/redeploy">, ctx: Ctx) {
  const now = ctx.deps.now();
  const row = await ctx.deps.db.transaction(async (tx) => {
    const c = await ownContract(tx, ctx.user.id, input.contractId);
    const project = await ownProject(tx, ctx.user.id, c.projectId, true);
    const locked = await ownContract(tx, ctx.user.id, input.contractId, true);
    if (locked.status !== ContractStatus.FAILED)
      throw new ApiError(
        CONTRACT_BUSY_STATUSES.includes(locked.status)
          ? Msg.CONTRACT_BEING_DEPLOYED
          : Msg.CONTRACT_ACTION_NOT_AVAILABLE,
      );
    if (!DEPLOYABLE.includes(project.status)) throw new ApiError(Msg.CONTRACT_PROJECT_NOT_READY);
    await noneUnderWay(tx, project.id);
    const [queued] = await tx
      .update(pubChainContracts)
      .set({
        status: ContractStatus.PENDING,
        failReason: null,
        rawTx: null,
        txHash: null,
        blockNumber: null,
        gasUsed: null,
        attempt: locked.attempt + 1,
        // A source is compiled again; an ABI and bytecode stay as given.
        ...(locked.sourceKind === "source" ? { abi: null, bytecode: null, compiler: null } : {}),
        updatedAt: now,
      })
      .where(eq(pubChainContracts.id, locked.id))
      .returning();
    await scheduleContractDeploy(tx, queued, now);
    return queued;
  });
  return one(ctx.deps.db, row);
}

async function deployed(deps: Deps, userId: number, contractId: number) {
  const row = await ownContract(deps.db, userId, contractId);
  if (row.status !== ContractStatus.SUCCESS || !row.address || !row.abi) throw new ApiError(Msg.CONTRACT_NOT_DEPLOYED);
  const [project] = await deps.db
    .select({ chain: pubChainProjects.chain })
    .from(pubChainProjects)
    .where(eq(pubChainProjects.id, row.projectId));
  return { row, abi: row.abi as unknown as Abi, chainName: project!.chain, address: row.address as Hex };
}

/** A read function (view or pure) through eth_call: the arguments as typed, the outputs decoded as text. */
export async function callContract(input: Payload<"/sys/opc/contract/call">, ctx: Ctx) {
  const { abi, chainName, address } = await deployed(ctx.deps, ctx.user.id, input.contractId);
  return readAt(ctx.deps, { chainName, address, abi }, input);
}

/**
 * A read function of the contract at `address` on `chainName` (any chain of the registry: an open-alliance
 * project's, or the test network for the online IDE, docs/decisions/044).
 */
export async function readAt(
  deps: Deps,
  at: { chainName: string; address: string; abi: Abi },
  input: { functionName: string; signature?: string; args: string[] },
) {
  const { chainName, abi } = at;
  const address = at.address as Hex;
  const candidates = readFunctions(abi).filter(
    (f) => f.name === input.functionName && (!input.signature || signatureOf(f) === input.signature),
  );
  const fn: AbiFunction | undefined =
    candidates.length === 1 ? candidates[0] : candidates.find((f) => f.inputs.length === input.args.length);
  if (!fn)
    throw new ApiError(Msg.CONTRACT_NO_SUCH_FUNCTION, {
      fieldErrors: { functionName: [Msg.CONTRACT_NO_SUCH_FUNCTION] },
    });
  let data: Hex;
  try {
    data = encodeFunctionData({ abi: [fn], functionName: fn.name, args: parseArguments(fn.inputs, input.args) });
  } catch (error) {
    if (error instanceof ArgumentError)
      throw new ApiError(Msg.CONTRACT_BAD_ARGUMENTS, {
        fieldErrors: { [`args.${error.index}`]: [Msg.CONTRACT_BAD_ARGUMENTS] },
        reason: error.message,
      });
    throw error;
  }
  let result: Hex;
  try {
    result = (await chain.api.request(deps, chainName, {
      method: "eth_call",
      params: [{ to: address, data }, "latest"],
    })) as Hex;
  } catch (error) {
    const e = error as { code?: number; message?: string; data?: string };
    if (e.code === 3 || /revert/i.test(e.message ?? ""))
      throw new ApiError(Msg.CONTRACT_CALL_REVERTED, { reason: (e.message ?? "").slice(0, 500), data: e.data ?? null });
    throw error;
  }
  const decoded = decodeFunctionResult({ abi: [fn], functionName: fn.name, data: result }) as unknown;
  const values = fn.outputs.length === 1 ? [decoded] : (decoded as unknown[]);
  return {
    functionName: fn.name,
    signature: signatureOf(fn),
    outputs: fn.outputs.map((o, i) => ({ name: o.name ?? "", type: o.type, value: valueText(values[i]) })),
  };
}

type Log = {
  address: string;
  topics: Hex[];
  data: Hex;
  blockNumber: string;
  transactionHash: string;
  logIndex: string;
};

/** The contract's events from the chain's logs (its deployment block on), newest first, decoded with its ABI. */
export async function contractEvents(input: Payload<"/sys/opc/contract/events">, ctx: Ctx) {
  const deps = ctx.deps;
  const { row, abi, chainName, address } = await deployed(deps, ctx.user.id, input.contractId);
  const head = Number(await chain.api.request(deps, chainName, { method: "eth_blockNumber", params: [] }));
  const logs: Log[] = [];
  // eth_getLogs answers at most 10,000 blocks at once: walk back from the head.
  for (let to = head; to >= (row.blockNumber ?? 0) && logs.length < MAX_EVENTS; to -= 10_000) {
    const from = Math.max(row.blockNumber ?? 0, to - 9_999);
    const part = (await chain.api.request(deps, chainName, {
      method: "eth_getLogs",
      params: [{ address, fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}` }],
    })) as Log[];
    logs.unshift(...part);
  }
  logs.reverse();
  const start = (input.pageIndex - 1) * input.pageSize;
  const page = logs.slice(start, start + input.pageSize);
  const rows = decodeLogs(abi, page).map((d, i) => ({
    blockNumber: Number(page[i]!.blockNumber),
    txHash: page[i]!.transactionHash,
    logIndex: d.logIndex,
    eventName: d.eventName,
    args: d.args,
    topics: d.topics,
    data: d.data,
  }));
  return { page: { rows, total: logs.length, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}
