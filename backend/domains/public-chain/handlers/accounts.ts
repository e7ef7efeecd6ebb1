import { and, count, desc, eq, gte, sql } from "drizzle-orm";
import { bytesToHex, privateToAddress, toChecksumAddress } from "@ethereumjs/util";
import { randomBytes } from "node:crypto";
import { Wallet } from "ethers";
import { ACCOUNT_EXPORT_LIMIT } from "#contract/list-exports.ts";
import { Msg } from "#contract/messages.ts";
import { GAS_RANGES, GasStatus, KeyType } from "#contract/public-chain-codes.ts";
import { toCents } from "#contract/rules.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { chainBlocks, chainTxs, chains } from "#backend/domains/chain/tables.ts";
import { gasOf, startAssignment, transferAssignment } from "#backend/domains/public-chain/gas.ts";
import { openCustodyKey, sealCustodyKey } from "#backend/domains/public-chain/keys.ts";
import {
  addressOfPublicKey,
  checkedAddress,
  chinaDay,
  etherToWei,
  lastDays,
} from "#backend/domains/public-chain/rules.ts";
import { pubChainAccounts, pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { type AccountRow, type Ctx } from "./shared.ts";
import { ownProject } from "./projects.ts";
import { coinPriceCents } from "#backend/domains/public-chain/prices.ts";

/* -------------------------------------------- chain accounts -------------------------------------------- */

async function accountOut(deps: Deps, a: AccountRow, project: { name: string; chain: string }) {
  const gas = await gasOf(deps, project.chain, a.address);
  return {
    accountId: a.id,
    projectId: a.projectId,
    projectName: project.name,
    name: a.name,
    address: a.address,
    keyType: a.keyType,
    gasWei: gas === null ? null : gas.toString(),
    gasWarningWei: a.gasWarningWei,
    gasLow: gas !== null && gas < BigInt(a.gasWarningWei),
    createdAt: a.createdAt.toISOString(),
  };
}

async function ownAccount(db: Db | Tx, userId: number, accountId: number) {
  const [row] = await db
    .select({ account: pubChainAccounts, project: pubChainProjects })
    .from(pubChainAccounts)
    .innerJoin(pubChainProjects, eq(pubChainProjects.id, pubChainAccounts.projectId))
    .where(and(eq(pubChainAccounts.id, accountId), eq(pubChainAccounts.userId, userId)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

/** §5 Chain account: name unique per user, address required, valid and unique per user, gas warning value. */
export async function createAccount(input: Payload<"/sys/opc/account/create">, ctx: Ctx) {
  const me = ctx.user.id;
  const now = ctx.deps.now();
  const keyType = Number(input.keyType);
  let address: string | null;
  let keySealed: string | null = null;
  if (keyType === KeyType.CUSTODY) {
    const privateKey = randomBytes(32);
    address = toChecksumAddress(bytesToHex(privateToAddress(privateKey)));
    keySealed = sealCustodyKey(ctx.deps.env, bytesToHex(privateKey));
  } else if (keyType === KeyType.PUBLIC_KEY) {
    address = addressOfPublicKey(input.publicKey ?? "");
    if (!address) throw new ApiError(Msg.BAD_CHAIN_ADDRESS, { fieldErrors: { publicKey: [Msg.BAD_CHAIN_ADDRESS] } });
  } else {
    address = checkedAddress(input.address ?? "");
    if (!address) throw new ApiError(Msg.BAD_CHAIN_ADDRESS, { fieldErrors: { address: [Msg.BAD_CHAIN_ADDRESS] } });
  }
  const account = await ctx.deps.db.transaction(async (tx) => {
    const project = await ownProject(tx, me, input.projectId, true);
    const [sameName] = await tx
      .select({ id: pubChainAccounts.id })
      .from(pubChainAccounts)
      .where(and(eq(pubChainAccounts.userId, me), eq(pubChainAccounts.name, input.name)));
    if (sameName)
      throw new ApiError(Msg.CHAIN_ACCOUNT_NAME_TAKEN, { fieldErrors: { name: [Msg.CHAIN_ACCOUNT_NAME_TAKEN] } });
    const [sameAddress] = await tx
      .select({ id: pubChainAccounts.id })
      .from(pubChainAccounts)
      .where(and(eq(pubChainAccounts.userId, me), eq(pubChainAccounts.address, address)));
    if (sameAddress)
      throw new ApiError(Msg.CHAIN_ACCOUNT_ADDRESS_TAKEN, {
        fieldErrors: { address: [Msg.CHAIN_ACCOUNT_ADDRESS_TAKEN] },
      });
    const [row] = await tx
      .insert(pubChainAccounts)
      .values({
        userId: me,
        projectId: project.id,
        name: input.name,
        address,
        keyType,
        publicKey: keyType === KeyType.PUBLIC_KEY ? input.publicKey! : null,
        keySealed,
        gasWarningWei: etherToWei(input.gasWarning).toString(),
        createdAt: now,
      })
      .returning();
    return { row, project };
  });
  return accountOut(ctx.deps, account.row, account.project);
}

export async function listAccounts(input: Payload<"/sys/opc/account/list">, ctx: Ctx) {
  const db = ctx.deps.db;
  if (input.projectId) await ownProject(db, ctx.user.id, input.projectId);
  const where = and(
    eq(pubChainAccounts.userId, ctx.user.id),
    input.projectId ? eq(pubChainAccounts.projectId, input.projectId) : undefined,
  );
  const [{ total }] = await db.select({ total: count() }).from(pubChainAccounts).where(where);
  const rows = await db
    .select({ account: pubChainAccounts, project: pubChainProjects })
    .from(pubChainAccounts)
    .innerJoin(pubChainProjects, eq(pubChainProjects.id, pubChainAccounts.projectId))
    .where(where)
    .orderBy(desc(pubChainAccounts.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const out = [];
  for (const r of rows) out.push(await accountOut(ctx.deps, r.account, r.project));
  return { page: { rows: out, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/** Gas is read from the chain for this many accounts at a time while exporting. */
const GAS_READS_AT_ONCE = 8;

/** Every chain account of one of the caller's projects up to ACCOUNT_EXPORT_LIMIT, newest first, with its gas (the CSV). */
export async function exportAccounts(input: Payload<"/sys/opc/account/export">, ctx: Ctx) {
  const db = ctx.deps.db;
  const project = await ownProject(db, ctx.user.id, input.projectId);
  const where = and(eq(pubChainAccounts.userId, ctx.user.id), eq(pubChainAccounts.projectId, project.id));
  const [{ total }] = await db.select({ total: count() }).from(pubChainAccounts).where(where);
  const accounts = await db
    .select()
    .from(pubChainAccounts)
    .where(where)
    .orderBy(desc(pubChainAccounts.id))
    .limit(ACCOUNT_EXPORT_LIMIT);
  const rows = [];
  for (let i = 0; i < accounts.length; i += GAS_READS_AT_ONCE)
    rows.push(
      ...(await Promise.all(accounts.slice(i, i + GAS_READS_AT_ONCE).map((a) => accountOut(ctx.deps, a, project)))),
    );
  return { rows, total, truncated: total > rows.length };
}

/** The account with its gas balance, and the gas its own transactions spent per day (receipts of the chain's log). */
export async function accountDetail(input: Payload<"/sys/opc/account/detail">, ctx: Ctx) {
  const db = ctx.deps.db;
  const { account, project } = await ownAccount(db, ctx.user.id, input.accountId);
  const days = lastDays(ctx.deps.now(), GAS_RANGES[input.gasRange]);
  const since = Math.floor(Date.parse(`${days[0]}T00:00:00+08:00`) / 1000);
  const [chainRow] = await db.select({ chainId: chains.chainId }).from(chains).where(eq(chains.name, project.chain));
  const txs = chainRow
    ? await db
        .select({ gasUsed: chainTxs.gasUsed, price: chainTxs.effectiveGasPrice, timestamp: chainBlocks.timestamp })
        .from(chainTxs)
        .innerJoin(
          chainBlocks,
          and(eq(chainBlocks.chainId, chainTxs.chainId), eq(chainBlocks.number, chainTxs.blockNumber)),
        )
        .where(
          and(
            eq(chainTxs.chainId, chainRow.chainId),
            sql`lower(${chainTxs.fromAddress}) = ${account.address.toLowerCase()}`,
            gte(chainBlocks.timestamp, since),
          ),
        )
    : [];
  const byDay = new Map(days.map((d) => [d, { day: d, wei: 0n, transactions: 0 }]));
  for (const t of txs) {
    const entry = byDay.get(chinaDay(new Date(t.timestamp * 1000)));
    if (!entry) continue;
    entry.wei += BigInt(t.gasUsed) * BigInt(t.price);
    entry.transactions += 1;
  }
  return {
    ...(await accountOut(ctx.deps, account, project)),
    gasUsed: [...byDay.values()].map((d) => ({ ...d, wei: d.wei.toString() })),
    coinPriceCents: await coinPriceCents(ctx.deps.db),
  };
}

/** A custody account's key as a Web3 Secret Storage (v3, scrypt) keystore under the user's password. */
export async function accountKeystore(input: Payload<"/sys/opc/account/keystore">, ctx: Ctx) {
  const { account } = await ownAccount(ctx.deps.db, ctx.user.id, input.accountId);
  if (account.keyType !== KeyType.CUSTODY || !account.keySealed) throw new ApiError(Msg.NOT_CUSTODY_ACCOUNT);
  const wallet = new Wallet(openCustodyKey(ctx.deps.env, account.keySealed));
  const keystore = await wallet.encrypt(input.password);
  return {
    fileName: `UTC--${new Date().toISOString().replace(/:/g, "-")}--${account.address.slice(2).toLowerCase()}.json`,
    keystore,
  };
}

/**
 * Assigns gas from the balance (§9 bill type 50): a paid bill and one `bill_payment` ledger entry with the
 * assignment in one transaction, then a real transfer from the chain's treasury (gas.ts; a crash between the
 * two is finished or refunded by the recovery job). A failed transfer refunds the bill (one `refund` entry).
 * The same idempotency key answers the first assignment.
 */
export async function assignGas(input: Payload<"/sys/opc/account/assignGas">, ctx: Ctx) {
  const deps = ctx.deps;
  const { account, project } = await ownAccount(deps.db, ctx.user.id, input.accountId);
  const started = await startAssignment(deps, {
    userId: ctx.user.id,
    account,
    project,
    amountCents: toCents(input.amount),
    idempotencyKey: input.idempotencyKey,
    now: deps.now(),
  });
  const row = started.replayed
    ? started.row
    : await transferAssignment(deps, started.row, project.chain, account.address);
  const [bill] = await deps.db.select().from(bills).where(eq(bills.id, row.billId));
  if (row.status === GasStatus.REFUNDED && !started.replayed)
    throw new ApiError(Msg.GAS_TRANSFER_FAILED, { billNo: bill.billNo });
  return {
    assignmentId: row.id,
    accountId: row.accountId,
    billId: bill.id,
    billNo: bill.billNo,
    amountCents: row.amountCents,
    wei: row.wei,
    status: row.status,
    txHash: row.txHash,
    failReason: row.failReason,
    replayed: started.replayed,
  };
}
