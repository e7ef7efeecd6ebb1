import { and, count, eq, like, lt, sql } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { BillType } from "#contract/billing-codes.ts";
import { GasStatus, weiForCents } from "#contract/public-chain-codes.ts";
import { coinPriceCents } from "./prices.ts";
import type { Db } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError } from "#backend/http/errors.ts";
import { schedule, type JobEntry } from "#backend/jobs/runner.ts";
import billing from "#backend/domains/billing/index.ts";
import chain from "#backend/domains/chain/index.ts";
import { chainTxs, ReceiptStatus } from "#backend/domains/chain/tables.ts";
import alerts from "#backend/domains/alerts/index.ts";
import { alertFirings } from "#backend/domains/alerts/tables.ts";
import { paidBill } from "./bills.ts";
import { pubChainAccounts, pubChainGas, pubChainProjects } from "./tables.ts";

/**
 * Gas after the request that assigned it (docs/decisions/026, issue 12):
 * - `public-chain.gasRecover`: an assignment left "transferring" by a crash between its paid bill and the
 *   transfer's outcome is finished (the treasury's transfer is on the chain: done, with its hash) or refunded
 *   (it is not), once, under the row's lock. It runs at every start and every 5 minutes, for assignments
 *   older than 2 minutes (a request still transferring is left alone).
 * - `public-chain.gasWatch`: every 10 minutes, each chain account's gas read from the chain; the first time it
 *   is below the account's warning value, its owner is told (the gas alert of the alerts domain, docs/decisions/090:
 *   a firing in the Alerts page's history and its message); it is told again only after the gas rose above the
 *   value and fell again.
 */
export const JOB_GAS_RECOVER = "public-chain.gasRecover";
export const JOB_GAS_WATCH = "public-chain.gasWatch";
const MINUTE = 60_000;
export const STUCK_AFTER_MS = 2 * MINUTE;
const RECOVER_EVERY_MS = 5 * MINUTE;
const WATCH_EVERY_MS = 10 * MINUTE;

const slot = (at: Date, every: number) => new Date(Math.floor(at.getTime() / every) * every);

export function scheduleGasRecover(db: Db, at: Date) {
  const run = slot(at, RECOVER_EVERY_MS);
  return schedule(db, JOB_GAS_RECOVER, {}, { runAt: run, dedupeKey: `${JOB_GAS_RECOVER}:${run.toISOString()}` });
}
export function scheduleGasWatch(db: Db, at: Date) {
  const run = slot(at, WATCH_EVERY_MS);
  return schedule(db, JOB_GAS_WATCH, {}, { runAt: run, dedupeKey: `${JOB_GAS_WATCH}:${run.toISOString()}` });
}

/**
 * The first half of a gas assignment, in one transaction: the paid bill (type 50), its one `bill_payment`
 * ledger entry and the assignment "transferring". The same idempotency key answers the first assignment
 * (`replayed`), or refuses another account or amount.
 */
export async function startAssignment(
  deps: Deps,
  input: {
    userId: number;
    account: { id: number; name: string };
    project: { name: string };
    amountCents: number;
    idempotencyKey: string;
    now: Date;
  },
) {
  const { userId, account, project, amountCents, idempotencyKey, now } = input;
  return deps.db.transaction(async (tx) => {
    await billing.api.lockWallet(tx, userId, now);
    const [replay] = await tx
      .select()
      .from(pubChainGas)
      .where(and(eq(pubChainGas.userId, userId), eq(pubChainGas.idempotencyKey, idempotencyKey)));
    if (replay) {
      if (replay.accountId !== account.id || replay.amountCents !== amountCents)
        throw new ApiError(Msg.IDEMPOTENCY_KEY_REUSED);
      return { row: replay, replayed: true };
    }
    const bill = await paidBill(tx, {
      userId,
      billType: BillType.ASSIGN_GAS,
      serviceName: `${project.name} · ${account.name}`,
      cents: amountCents,
      at: now,
      periodEnd: now,
      yearly: false,
      prefix: "GS",
      dedupeKey: `pc-gas:${userId}:${idempotencyKey}`,
    });
    await billing.api.post(
      tx,
      {
        userId,
        kind: "bill_payment",
        amountCents,
        refType: "bill",
        refId: bill.id,
        idempotencyKey: `pc-gas:${idempotencyKey}`,
      },
      now,
    );
    // The operators' gas rate, read in the charge's transaction (docs/decisions/073).
    const wei = weiForCents(amountCents, await coinPriceCents(tx));
    const [row] = await tx
      .insert(pubChainGas)
      .values({
        userId,
        accountId: account.id,
        billId: bill.id,
        amountCents,
        wei: wei.toString(),
        status: GasStatus.TRANSFERRING,
        idempotencyKey,
        createdAt: now,
      })
      .returning();
    return { row, replayed: false };
  });
}

/** The second half: the treasury's transfer on the chain, then done with its hash, or refunded when it failed. */
export async function transferAssignment(
  deps: Deps,
  row: typeof pubChainGas.$inferSelect,
  chainName: string,
  address: string,
) {
  try {
    const hash = await chain.api.fund(deps, chainName, address, BigInt(row.wei));
    return await finishGas(deps.db, row.id, hash);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    return refundGas(deps.db, row.id, reason, deps.now());
  }
}

/** A failed transfer: the bill refunded (one `refund` entry) and the assignment marked refunded, once. */
export async function refundGas(db: Db, assignmentId: number, reason: string, now: Date) {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(pubChainGas).where(eq(pubChainGas.id, assignmentId)).for("update");
    if (locked.status !== GasStatus.TRANSFERRING) return locked;
    await billing.api.post(
      tx,
      {
        userId: locked.userId,
        kind: "refund",
        amountCents: locked.amountCents,
        refType: "bill",
        refId: locked.billId,
        idempotencyKey: `pc-gas-refund:${locked.id}`,
      },
      now,
    );
    await billing.api.recordBillRefund(tx, locked.billId, { payState: 20, refundCents: locked.amountCents });
    const [row] = await tx
      .update(pubChainGas)
      .set({ status: GasStatus.REFUNDED, failReason: reason })
      .where(eq(pubChainGas.id, locked.id))
      .returning();
    return row;
  });
}

/** A transfer that reached the chain: the assignment done with its hash, once. */
export async function finishGas(db: Db, assignmentId: number, hash: string) {
  const [row] = await db
    .update(pubChainGas)
    .set({ status: GasStatus.DONE, txHash: hash })
    .where(and(eq(pubChainGas.id, assignmentId), eq(pubChainGas.status, GasStatus.TRANSFERRING)))
    .returning();
  return row ?? (await db.select().from(pubChainGas).where(eq(pubChainGas.id, assignmentId)))[0];
}

/**
 * The treasury's transfer of `wei` to `address` on `chainName` made at or after `since` that no other
 * assignment claims, or null: how a crashed assignment's transfer is found again.
 */
async function unclaimedTransfer(
  deps: Deps,
  chainName: string,
  address: string,
  wei: string,
  since: Date,
): Promise<string | null> {
  const info = await chain.api.chain(deps, chainName);
  if (!info) return null;
  const rows = await deps.db
    .select({ hash: chainTxs.hash })
    .from(chainTxs)
    .where(
      and(
        eq(chainTxs.chainId, info.chainId),
        eq(chainTxs.status, ReceiptStatus.SUCCESS),
        sql`lower(${chainTxs.fromAddress}) = ${info.treasury.toLowerCase()}`,
        sql`lower(${chainTxs.toAddress}) = ${address.toLowerCase()}`,
        sql`(${chainTxs.rpc}->>'value') = ${`0x${BigInt(wei).toString(16)}`}`,
        sql`not exists (select 1 from ${pubChainGas} g where g.tx_hash = ${chainTxs.hash})`,
        sql`(select b.timestamp from chain_blocks b where b.chain_id = ${chainTxs.chainId} and b.number = ${chainTxs.blockNumber}) >= ${Math.floor(since.getTime() / 1000) - 1}`,
      ),
    )
    .orderBy(chainTxs.blockNumber, chainTxs.txIndex)
    .limit(1);
  return rows[0]?.hash ?? null;
}

/** Finishes or refunds every assignment left transferring for longer than STUCK_AFTER_MS; answers how many of each. */
export async function recoverGas(deps: Deps, now: Date): Promise<{ finished: number; refunded: number }> {
  const stuck = await deps.db
    .select({ gas: pubChainGas, address: pubChainAccounts.address, chain: pubChainProjects.chain })
    .from(pubChainGas)
    .innerJoin(pubChainAccounts, eq(pubChainAccounts.id, pubChainGas.accountId))
    .innerJoin(pubChainProjects, eq(pubChainProjects.id, pubChainAccounts.projectId))
    .where(
      and(
        eq(pubChainGas.status, GasStatus.TRANSFERRING),
        lt(pubChainGas.createdAt, new Date(now.getTime() - STUCK_AFTER_MS)),
      ),
    )
    .orderBy(pubChainGas.id);
  const out = { finished: 0, refunded: 0 };
  for (const s of stuck) {
    const hash = await unclaimedTransfer(deps, s.chain, s.address, s.gas.wei, s.gas.createdAt);
    if (hash) {
      if ((await finishGas(deps.db, s.gas.id, hash)).txHash === hash) out.finished += 1;
    } else if (
      (await refundGas(deps.db, s.gas.id, "the transfer was interrupted and did not reach the chain", now)).status ===
      GasStatus.REFUNDED
    ) {
      out.refunded += 1;
    }
  }
  if (stuck.length)
    console.warn(`[public-chain] interrupted gas assignments: ${out.finished} finished, ${out.refunded} refunded`);
  return out;
}

/** The gas balance of an address on a chain (wei), or null when the chain does not answer. */
export async function gasOf(deps: Deps, chainName: string, address: string): Promise<bigint | null> {
  try {
    return BigInt(
      String(await chain.api.request(deps, chainName, { method: "eth_getBalance", params: [address, "latest"] })),
    );
  } catch {
    return null;
  }
}

const GWEI = 10n ** 9n;
const ether = (wei: bigint) => {
  const whole = wei / 10n ** 18n;
  const fraction = (wei % 10n ** 18n).toString().padStart(18, "0").slice(0, 6).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole.toString();
};

/** Reads every chain account's gas and sends the low-gas messages (see above); answers how many were sent. */
export async function watchGas(deps: Deps, now: Date): Promise<number> {
  const rows = await deps.db
    .select({ account: pubChainAccounts, project: { name: pubChainProjects.name, chain: pubChainProjects.chain } })
    .from(pubChainAccounts)
    .innerJoin(pubChainProjects, eq(pubChainProjects.id, pubChainAccounts.projectId))
    .orderBy(pubChainAccounts.id);
  let sent = 0;
  for (const { account, project } of rows) {
    const gas = await gasOf(deps, project.chain, account.address);
    if (gas === null) continue;
    const warning = BigInt(account.gasWarningWei);
    if (gas >= warning) {
      if (account.gasLowSince)
        await deps.db.update(pubChainAccounts).set({ gasLowSince: null }).where(eq(pubChainAccounts.id, account.id));
      continue;
    }
    if (account.gasLowSince) continue;
    await deps.db.transaction(async (tx) => {
      const marked = await tx
        .update(pubChainAccounts)
        .set({ gasLowSince: now })
        .where(and(eq(pubChainAccounts.id, account.id), sql`${pubChainAccounts.gasLowSince} is null`))
        .returning({ id: pubChainAccounts.id });
      if (!marked.length) return;
      // The gas alert of the alerts framework (docs/decisions/090): its firing is the history, its period the fall
      // (the instant it was seen; a second fall seen at the same instant, as under a stopped clock, is numbered).
      const [{ before }] = await tx
        .select({ before: count() })
        .from(alertFirings)
        .where(
          and(
            eq(alertFirings.kind, "gas"),
            eq(alertFirings.subjectId, account.id),
            like(alertFirings.period, `${now.toISOString()}%`),
          ),
        );
      sent += await alerts.api.fireInTx(
        tx,
        {
          accountId: account.userId,
          kind: "gas",
          subjectId: account.id,
          subjectName: account.name,
          reached: [0],
          period: before ? `${now.toISOString()}#${before + 1}` : now.toISOString(),
          value: Number(gas / GWEI),
          limit: Number(warning / GWEI),
          notice: () => ({
            textKey: "messages.gasLow",
            params: { account: account.name, project: project.name, gas: ether(gas), warning: ether(warning) },
          }),
        },
        now,
      );
    });
  }
  return sent;
}

/**
 * SPEC §8 "Chain account gas is 0": throws it for a chain account (of `userId`) without gas, wherever a
 * transaction needs gas (a contract deployment from a custody account). The chain not answering is no zero.
 */
export async function requireGas(deps: Deps, userId: number, accountId: number): Promise<bigint> {
  const [row] = await deps.db
    .select({ address: pubChainAccounts.address, chain: pubChainProjects.chain })
    .from(pubChainAccounts)
    .innerJoin(pubChainProjects, eq(pubChainProjects.id, pubChainAccounts.projectId))
    .where(and(eq(pubChainAccounts.id, accountId), eq(pubChainAccounts.userId, userId)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  const gas = await gasOf(deps, row.chain, row.address);
  if (gas === null) throw new ApiError(Msg.CHAIN_UNAVAILABLE);
  if (gas === 0n) throw new ApiError(Msg.GAS_ZERO);
  return gas;
}

export const gasJobs: Record<string, JobEntry> = {
  [JOB_GAS_RECOVER]: async (_payload, deps) => {
    const now = deps.now();
    await recoverGas(deps, now);
    await scheduleGasRecover(deps.db, new Date(now.getTime() + RECOVER_EVERY_MS));
  },
  [JOB_GAS_WATCH]: async (_payload, deps) => {
    const now = deps.now();
    await watchGas(deps, now);
    await scheduleGasWatch(deps.db, new Date(now.getTime() + WATCH_EVERY_MS));
  },
};
