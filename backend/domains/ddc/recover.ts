import { and, eq, lt } from "drizzle-orm";
import { DdcStatus, DdcTransferStatus } from "#contract/ddc.ts";
import type { Db } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { schedule, type JobEntry } from "#backend/jobs/runner.ts";
import { pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { refundFeeIn } from "./bills.ts";
import { knownOnChain, receiptNow } from "./collection.ts";
import { ddcMachine, ddcTransferMachine, stepOf } from "./machine.ts";
import { ddcCollections, ddcs, ddcTransfers } from "./tables.ts";

/**
 * Mints and transfers after the request that paid for them (docs/decisions/045, as docs/decisions/032 does for
 * gas): the request keeps the signed transaction's hash before it sends it, so a crash between the paid fee and
 * the recorded outcome leaves a DDC "minting" (a transfer "sending") that `ddc.recover` settles, once, under the
 * row's lock, at every start and every 5 minutes, for rows older than 2 minutes (a request still waiting for its
 * receipt is left alone):
 * - receipt successful → the DDC minted (the transfer done), with its block;
 * - receipt reverted → failed with the reason, the fee refunded;
 * - no hash (the crash came before the send: the request's send needs the row still unsettled, so nothing is
 *   sent later), or no receipt 10 minutes after the request while the chain does not know the transaction
 *   (dropped, never sent) → failed with the reason, the fee refunded. A transaction the chain still holds
 *   unmined is waited for.
 */
export const JOB_DDC_RECOVER = "ddc.recover";
const MINUTE = 60_000;
export const DDC_STUCK_AFTER_MS = 2 * MINUTE;
export const DDC_DEADLINE_MS = 10 * MINUTE;
const RECOVER_EVERY_MS = 5 * MINUTE;

export function scheduleDdcRecover(db: Db, at: Date) {
  const run = new Date(Math.floor(at.getTime() / RECOVER_EVERY_MS) * RECOVER_EVERY_MS);
  return schedule(db, JOB_DDC_RECOVER, {}, { runAt: run, dedupeKey: `${JOB_DDC_RECOVER}:${run.toISOString()}` });
}

/** A mint that reached the chain: the DDC minted with its block, once; answers the row as it is. */
export async function finishMint(deps: Deps, ddcId: number, blockNumber: number) {
  const mined = stepOf(ddcMachine, "mined");
  const [done] = await deps.db
    .update(ddcs)
    .set({ status: mined.to, mintBlock: blockNumber, mintedAt: deps.now() })
    .where(and(eq(ddcs.id, ddcId), eq(ddcs.status, mined.from)))
    .returning();
  return done ?? (await deps.db.select().from(ddcs).where(eq(ddcs.id, ddcId)))[0]!;
}

/** A mint that did not happen: the DDC failed with `reason` and its fee refunded, once, in one transaction. */
export async function failMint(deps: Deps, ddcId: number, reason: string) {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(ddcs).where(eq(ddcs.id, ddcId)).for("update");
    if (!locked) return false;
    const failed = ddcMachine.transition(locked.status, "fail", "system");
    if (!failed.ok) return false;
    if (locked.billId) await refundFeeIn(tx, locked.billId, now);
    await tx
      .update(ddcs)
      .set({ status: failed.to, failReason: reason.slice(0, 1_000) })
      .where(eq(ddcs.id, ddcId));
    return true;
  });
}

/** A transfer that reached the chain: done with its block, once. */
export async function finishTransfer(db: Db, transferId: number, blockNumber: number) {
  const mined = stepOf(ddcTransferMachine, "mined");
  const done = await db
    .update(ddcTransfers)
    .set({ status: mined.to, blockNumber })
    .where(and(eq(ddcTransfers.id, transferId), eq(ddcTransfers.status, mined.from)))
    .returning({ id: ddcTransfers.id });
  return done.length > 0;
}

/** A transfer that did not happen: failed with `reason` and its fee refunded, once, in one transaction. */
export async function failTransfer(deps: Deps, transferId: number, reason: string) {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(ddcTransfers).where(eq(ddcTransfers.id, transferId)).for("update");
    if (!locked) return false;
    const failed = ddcTransferMachine.transition(locked.status, "fail", "system");
    if (!failed.ok) return false;
    if (locked.billId) await refundFeeIn(tx, locked.billId, now);
    await tx
      .update(ddcTransfers)
      .set({ status: failed.to, failReason: reason.slice(0, 1_000) })
      .where(eq(ddcTransfers.id, transferId));
    return true;
  });
}

type Outcome = { ok: true; blockNumber: number } | { ok: false; reason: string } | null;

/** What the chain says of a kept hash: mined (either way), given up (after the deadline), or null (wait). */
async function outcomeOf(
  deps: Deps,
  chainName: string,
  hash: string | null,
  createdAt: Date,
  now: Date,
): Promise<Outcome> {
  const late = createdAt.getTime() < now.getTime() - DDC_DEADLINE_MS;
  // Without a hash nothing was sent, and nothing will be: the request's send needs the row still unsettled.
  if (!hash) return { ok: false, reason: "the request was interrupted before its transaction was sent" };
  const receipt = await receiptNow(deps, chainName, hash);
  if (receipt) {
    return receipt.status === "0x1"
      ? { ok: true, blockNumber: Number(receipt.blockNumber) }
      : { ok: false, reason: `the transaction ${hash} reverted in block ${Number(receipt.blockNumber)}` };
  }
  if (late && !(await knownOnChain(deps, chainName, hash)))
    return { ok: false, reason: `the transaction ${hash} was not mined within ${DDC_DEADLINE_MS / MINUTE} minutes` };
  return null;
}

/** Settles every mint and transfer left unfinished for longer than DDC_STUCK_AFTER_MS; answers how many of each way. */
export async function recoverDdcs(deps: Deps, now: Date) {
  const out = { minted: 0, mintsFailed: 0, transferred: 0, transfersFailed: 0 };
  const before = new Date(now.getTime() - DDC_STUCK_AFTER_MS);
  const mints = await deps.db
    .select({ ddc: ddcs, chain: pubChainProjects.chain })
    .from(ddcs)
    .innerJoin(pubChainProjects, eq(pubChainProjects.id, ddcs.projectId))
    .where(and(eq(ddcs.status, DdcStatus.MINTING), lt(ddcs.createdAt, before)))
    .orderBy(ddcs.id);
  for (const m of mints) {
    const outcome = await outcomeOf(deps, m.chain, m.ddc.mintTxHash, m.ddc.createdAt, now).catch(() => null);
    if (!outcome) continue;
    if (outcome.ok) {
      if ((await finishMint(deps, m.ddc.id, outcome.blockNumber)).status === DdcStatus.MINTED) out.minted += 1;
    } else if (await failMint(deps, m.ddc.id, outcome.reason)) out.mintsFailed += 1;
  }
  const transfers = await deps.db
    .select({ transfer: ddcTransfers, chain: pubChainProjects.chain })
    .from(ddcTransfers)
    .innerJoin(ddcs, eq(ddcs.id, ddcTransfers.ddcId))
    .innerJoin(ddcCollections, eq(ddcCollections.id, ddcs.collectionId))
    .innerJoin(pubChainProjects, eq(pubChainProjects.id, ddcCollections.projectId))
    .where(and(eq(ddcTransfers.status, DdcTransferStatus.SENDING), lt(ddcTransfers.createdAt, before)))
    .orderBy(ddcTransfers.id);
  for (const t of transfers) {
    const outcome = await outcomeOf(deps, t.chain, t.transfer.txHash, t.transfer.createdAt, now).catch(() => null);
    if (!outcome) continue;
    if (outcome.ok) {
      if (await finishTransfer(deps.db, t.transfer.id, outcome.blockNumber)) out.transferred += 1;
    } else if (await failTransfer(deps, t.transfer.id, outcome.reason)) out.transfersFailed += 1;
  }
  if (Object.values(out).some((n) => n > 0))
    console.warn(`[ddc] interrupted mints and transfers: ${JSON.stringify(out)}`);
  return out;
}

export const ddcJobs: Record<string, JobEntry> = {
  [JOB_DDC_RECOVER]: async (_payload, deps) => {
    const now = deps.now();
    await recoverDdcs(deps, now);
    await scheduleDdcRecover(deps.db, new Date(now.getTime() + RECOVER_EVERY_MS));
  },
};
