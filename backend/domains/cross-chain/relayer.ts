import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { decodeEventLog, encodeFunctionData, parseAbi } from "viem";
import { CrossCallStatus, CrossProtocol, CrossStatus } from "#contract/cross-chain-codes.ts";
import type { Deps } from "#backend/deps.ts";
import chain from "#backend/domains/chain/index.ts";
import { apps, serviceChains } from "#backend/domains/services/tables.ts";
import { contractsOn, ensureGas, receiptOf, relayerAccount } from "./network.ts";
import { callPriceCents } from "./prices.ts";
import { isFinalAttempt, reasonOf, retryDelayMs } from "./rules.ts";
import { crossChainCalls, crossChainCursors } from "./tables.ts";
import { allowedTargets } from "./targets.ts";

/*
 * The relayer (docs/decisions/048): a loop of the domain, started at start, that reads the message contracts'
 * events on the chain of every service whose cross-chain is activated (or pending deactivation) from its cursor
 * in the database, records each message as a call (status 0), and delivers the calls due to the target chain's
 * messenger from the relayer's account. A delivery that fails is tried again after a backoff, its reason kept,
 * and fails for good (status 2) after CROSS_DELIVERY_ATTEMPTS. Several processes may run it: a call is leased
 * before its delivery, and the target contract refuses a replay anyway.
 */

export const MESSENGER_ABI = parseAbi([
  "event MessageSent(uint64 indexed sequence, address indexed sender, string targetChain, address target, bytes data)",
  "event AppMessageSent(uint64 indexed sequence, address indexed sender, string appCode, string targetChain, address target, bytes data)",
  "function deliver(uint256 sourceChainId, address sourceContract, uint64 sequence, address sender, address target, bytes data)",
  "function send(string targetChain, address target, bytes data) returns (uint64)",
  "function send(string appCode, string targetChain, address target, bytes data) returns (uint64)",
]);

/** Poll every 300 ms while a service is activated; look for one every 2 s otherwise. */
const BUSY_MS = 300;
const IDLE_MS = 2_000;
/** A delivery holds its call for at most this long (a process that died lets it go). */
const LEASE_MS = 60_000;
/** At most this many blocks of logs per read. */
const BLOCKS_PER_READ = 2_000;
/** The newest blocks of a read that the next round reads again. */
const RESCAN_BLOCKS = 2;

type Log = { address: string; topics: string[]; data: string; blockNumber: string; transactionHash: string };
type Source = {
  appId: number;
  userId: number;
  protocol: number;
  crossAppCode: string | null;
  chainName: string;
  chainId: number;
};

/** `again`: a wake-up came during a round, so the next round starts at once. */
type State = {
  stopped: boolean;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  lastError: string | null;
  again: boolean;
};
const states = new WeakMap<Deps["env"], State>();

/** The services whose chains the relayer reads: activated (1) or pending deactivation (4), on a chain of their own. */
async function sources(deps: Deps): Promise<Source[]> {
  const rows = await deps.db
    .select({
      appId: apps.id,
      userId: apps.userId,
      protocol: apps.crossProtocol,
      crossAppCode: apps.crossAppCode,
      chainName: serviceChains.chainName,
      chainId: serviceChains.chainId,
    })
    .from(apps)
    .innerJoin(serviceChains, eq(serviceChains.appId, apps.id))
    .where(inArray(apps.crossStatus, [CrossStatus.ACTIVATED, CrossStatus.PENDING_DEACTIVATION]));
  return rows.filter((r): r is Source => r.protocol !== null);
}

/** Records one event of a source chain as a call (once: the message's key is unique). Exported for `send`. */
export async function recordLog(deps: Deps, src: Source, log: Log): Promise<number | null> {
  let decoded;
  try {
    decoded = decodeEventLog({
      abi: MESSENGER_ABI,
      data: log.data as `0x${string}`,
      topics: log.topics as [`0x${string}`, ...`0x${string}`[]],
    });
  } catch {
    return null;
  }
  if (decoded.eventName !== "MessageSent" && decoded.eventName !== "AppMessageSent") return null;
  const args = decoded.args as {
    sequence: bigint;
    sender: string;
    targetChain: string;
    target: string;
    data: string;
    appCode?: string;
  };
  const protocol = decoded.eventName === "AppMessageSent" ? CrossProtocol.APP : CrossProtocol.ENTERPRISE;
  const now = deps.now();
  let reason: string | null = null;
  let targetChainId = 0;
  if (protocol !== src.protocol) reason = "the message was sent with another protocol than the service's";
  else if (protocol === CrossProtocol.APP && args.appCode !== src.crossAppCode)
    reason = `the APPCode ${args.appCode ?? ""} is not the service's`;
  else {
    const target = (await allowedTargets(deps.db, src.appId, src.userId, src.protocol)).find(
      (t) => t.chainName === args.targetChain,
    );
    if (!target) reason = `the chain ${args.targetChain.slice(0, 100)} is not a target of this service`;
    else targetChainId = target.chainId;
  }
  const [row] = await deps.db
    .insert(crossChainCalls)
    .values({
      appId: src.appId,
      userId: src.userId,
      protocol,
      kind: "call",
      sourceChain: src.chainName,
      sourceChainId: src.chainId,
      sourceContract: log.address.toLowerCase(),
      sequence: Number(args.sequence),
      sender: args.sender,
      targetChain: args.targetChain.slice(0, 100),
      targetChainId,
      targetAddress: args.target,
      data: args.data,
      status: reason ? CrossCallStatus.FAILURE : CrossCallStatus.UNKNOWN,
      reason,
      sourceTxHash: log.transactionHash,
      sourceBlock: Number(BigInt(log.blockNumber)),
      nextAttemptAt: new Date(),
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: crossChainCalls.id });
  return row?.id ?? null;
}

/** Reads a source chain's new events from its cursor. */
async function scan(deps: Deps, src: Source) {
  const { messenger } = await contractsOn(deps.db, src.chainName, src.protocol);
  if (!messenger) return;
  const [cursor] = await deps.db.select().from(crossChainCursors).where(eq(crossChainCursors.chainName, src.chainName));
  const latest = Number(
    BigInt((await chain.api.request(deps, src.chainName, { method: "eth_blockNumber" })) as string),
  );
  const from = (cursor?.lastBlock ?? -1) + 1;
  if (from > latest) return;
  const to = Math.min(latest, from + BLOCKS_PER_READ - 1);
  const logs = (await chain.api.request(deps, src.chainName, {
    method: "eth_getLogs",
    params: [{ fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}`, address: messenger }],
  })) as Log[];
  for (const log of logs) await recordLog(deps, src, log);
  // The newest blocks are read again next round: the embedded chain answers eth_blockNumber once a block is sealed,
  // and its logs once it is recorded, a moment later (a message is recorded once whatever the reads).
  const kept = Math.max(-1, to - RESCAN_BLOCKS);
  await deps.db
    .insert(crossChainCursors)
    .values({ chainName: src.chainName, lastBlock: kept, updatedAt: deps.now() })
    .onConflictDoUpdate({
      target: crossChainCursors.chainName,
      set: { lastBlock: sql`greatest(${crossChainCursors.lastBlock}, ${kept})`, updatedAt: deps.now() },
    });
}

type CallRow = typeof crossChainCalls.$inferSelect;

async function settle(
  deps: Deps,
  call: CallRow,
  outcome: { ok: true; hash: string } | { ok: false; reason: string; hash: string | null },
) {
  if (outcome.ok) {
    await deps.db
      .update(crossChainCalls)
      .set({
        status: CrossCallStatus.SUCCESS,
        targetTxHash: outcome.hash,
        attempts: call.attempts + 1,
        reason: null,
        // The operators' price of a call when it is delivered (docs/decisions/073).
        feeCents: await callPriceCents(deps.db),
        deliveredAt: deps.now(),
        leaseUntil: null,
      })
      .where(eq(crossChainCalls.id, call.id));
    return;
  }
  const attempts = call.attempts + 1;
  const final = isFinalAttempt(attempts);
  await deps.db
    .update(crossChainCalls)
    .set({
      status: final ? CrossCallStatus.FAILURE : CrossCallStatus.UNKNOWN,
      targetTxHash: outcome.hash,
      attempts,
      reason: outcome.reason,
      nextAttemptAt: new Date(Date.now() + retryDelayMs(attempts)),
      leaseUntil: null,
    })
    .where(eq(crossChainCalls.id, call.id));
}

/** One delivery attempt of a leased call. */
async function deliver(deps: Deps, call: CallRow) {
  // A transaction of an earlier attempt (signed, then the process stopped) may have gone through.
  if (call.targetTxHash) {
    const earlier = (await chain.api.request(deps, call.targetChain, {
      method: "eth_getTransactionReceipt",
      params: [call.targetTxHash],
    })) as { status: string } | null;
    if (earlier?.status === "0x1") return settle(deps, call, { ok: true, hash: call.targetTxHash });
  }
  const { messenger } = await contractsOn(deps.db, call.targetChain, call.protocol);
  if (!messenger)
    return settle(deps, call, {
      ok: false,
      reason: "the target chain has no message contract of this protocol",
      hash: null,
    });
  let hash: string | null = null;
  try {
    const relayer = await relayerAccount(deps);
    await ensureGas(deps, call.targetChain, relayer.address);
    const data = encodeFunctionData({
      abi: MESSENGER_ABI,
      functionName: "deliver",
      args: [
        BigInt(call.sourceChainId),
        call.sourceContract as `0x${string}`,
        BigInt(call.sequence),
        call.sender as `0x${string}`,
        call.targetAddress as `0x${string}`,
        call.data as `0x${string}`,
      ],
    });
    hash = await chain.api.send(deps, call.targetChain, relayer.key, { to: messenger, data }, async (signed) => {
      await deps.db.update(crossChainCalls).set({ targetTxHash: signed }).where(eq(crossChainCalls.id, call.id));
    });
    const receipt = await receiptOf(deps, call.targetChain, hash);
    if (receipt.status === "0x1") return settle(deps, call, { ok: true, hash });
    return settle(deps, call, { ok: false, reason: "the delivery transaction was reverted", hash });
  } catch (error) {
    return settle(deps, call, { ok: false, reason: reasonOf(error), hash });
  }
}

/** Delivers the calls that are due, each leased first. */
async function deliverDue(deps: Deps) {
  const now = new Date();
  const due = await deps.db
    .select({ id: crossChainCalls.id })
    .from(crossChainCalls)
    .where(
      and(
        eq(crossChainCalls.status, CrossCallStatus.UNKNOWN),
        lte(crossChainCalls.nextAttemptAt, now),
        or(isNull(crossChainCalls.leaseUntil), lte(crossChainCalls.leaseUntil, now)),
      ),
    )
    .orderBy(asc(crossChainCalls.id))
    .limit(20);
  for (const { id } of due) {
    const [call] = await deps.db
      .update(crossChainCalls)
      .set({ leaseUntil: new Date(Date.now() + LEASE_MS) })
      .where(
        and(
          eq(crossChainCalls.id, id),
          eq(crossChainCalls.status, CrossCallStatus.UNKNOWN),
          or(isNull(crossChainCalls.leaseUntil), lte(crossChainCalls.leaseUntil, now)),
        ),
      )
      .returning();
    if (call) await deliver(deps, call);
  }
}

/** One round: read every source chain, then deliver. True while any service is activated. */
export async function relayOnce(deps: Deps): Promise<boolean> {
  const list = await sources(deps);
  for (const src of list) {
    try {
      await scan(deps, src);
    } catch (error) {
      const state = states.get(deps.env);
      if (state) state.lastError = `${src.chainName}: ${reasonOf(error)}`;
    }
  }
  await deliverDue(deps);
  return list.length > 0;
}

function plan(deps: Deps, state: State, ms: number) {
  if (state.stopped) return;
  if (state.timer) clearTimeout(state.timer);
  state.timer = setTimeout(() => {
    state.timer = null;
    if (state.running) return plan(deps, state, BUSY_MS);
    state.again = false;
    state.running = relayOnce(deps)
      .then(
        (active) => {
          state.lastError = null;
          return active;
        },
        (error: unknown) => {
          state.lastError = reasonOf(error);
          return true;
        },
      )
      .then((active) => {
        state.running = null;
        plan(deps, state, state.again ? 0 : active ? BUSY_MS : IDLE_MS);
      });
  }, ms);
  state.timer.unref?.();
}

export function startRelayer(deps: Deps) {
  const state: State = { stopped: false, timer: null, running: null, lastError: null, again: false };
  states.set(deps.env, state);
  plan(deps, state, IDLE_MS);
}

/** Runs a round soon (a message was just sent, a service activated). */
export function wakeRelayer(deps: Deps) {
  const state = states.get(deps.env);
  if (!state) return;
  if (state.running) state.again = true;
  else plan(deps, state, 0);
}

export async function stopRelayer(deps: Deps) {
  const state = states.get(deps.env);
  if (!state) return;
  state.stopped = true;
  if (state.timer) clearTimeout(state.timer);
  await state.running?.catch(() => undefined);
  states.delete(deps.env);
}

export function relayerHealth(deps: Deps) {
  const state = states.get(deps.env);
  return { running: !!state && !state.stopped, lastError: state?.lastError ?? null };
}
