import { and, count, desc, eq } from "drizzle-orm";
import { getAddress } from "viem";
import { BillType } from "#contract/billing-codes.ts";
import { DdcFee, DdcTransferStatus } from "#contract/ddc.ts";
import { ddcFeeCents } from "#backend/domains/ddc/prices.ts";
import { Msg } from "#contract/messages.ts";
import { KeyType } from "#contract/public-chain-codes.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import publicChain from "#backend/domains/public-chain/index.ts";
import { pubChainAccounts } from "#backend/domains/public-chain/tables.ts";
import { payFee } from "#backend/domains/ddc/bills.ts";
import { ChainRefusal, Reverted, ownerOnChain, transferToken } from "#backend/domains/ddc/collection.ts";
import { hashPassword } from "#backend/domains/ddc/password.ts";
import { failTransfer, finishTransfer } from "#backend/domains/ddc/recover.ts";
import { ddcMachine } from "#backend/domains/ddc/machine.ts";
import { ddcs, ddcTransfers } from "#backend/domains/ddc/tables.ts";
import { chainView, gasOf, onChain, out, ownDdc, reasonOf, type Ctx, type Row } from "./shared.ts";

export async function listDdcs(input: Payload<"/sys/ddc/list">, ctx: Ctx) {
  const db = ctx.deps.db;
  const where = eq(ddcs.userId, ctx.user.id);
  const [{ total }] = await db.select({ total: count() }).from(ddcs).where(where);
  const rows = await db
    .select()
    .from(ddcs)
    .where(where)
    .orderBy(desc(ddcs.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return { page: { rows: await out(db, rows), total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

async function detailOf(deps: Deps, userId: number, row: Row) {
  const view = await chainView(deps, row);
  let heldBy: { accountId: number; accountName: string } | null = null;
  if (view.owner) {
    const mine = await deps.db
      .select()
      .from(pubChainAccounts)
      .where(
        and(
          eq(pubChainAccounts.userId, userId),
          eq(pubChainAccounts.projectId, row.projectId),
          eq(pubChainAccounts.keyType, KeyType.CUSTODY),
        ),
      );
    const holder = mine.find((a) => a.address.toLowerCase() === view.owner!.toLowerCase());
    if (holder) heldBy = { accountId: holder.id, accountName: holder.name };
  }
  return { ...(await out(deps.db, [row]))[0]!, ...view, heldBy };
}

export async function ddcDetail(input: Payload<"/sys/ddc/detail">, ctx: Ctx) {
  return detailOf(ctx.deps, ctx.user.id, await ownDdc(ctx.deps.db, ctx.user.id, input.ddcId));
}

/**
 * Transfers a DDC (§9 bill type 92) from the user's custody account that holds it on chain to `to`: the fee paid
 * first, refunded when the chain refuses. Another user's DDC is not found.
 */
export async function transferDdc(input: Payload<"/sys/ddc/transfer">, ctx: Ctx) {
  const deps = ctx.deps;
  const me = ctx.user.id;
  const row = await ownDdc(deps.db, me, input.ddcId);
  const step = ddcMachine.transition(row.status, "transfer", "user");
  if (!step.ok) throw new ApiError(step.messageKey);
  const where = await onChain(deps.db, row);
  if (!where) throw new ApiError(Msg.DDC_NOT_MINTED);
  const owner = await ownerOnChain(deps, where.chain, where.collection.address, BigInt(row.id));
  const accounts = await deps.db
    .select()
    .from(pubChainAccounts)
    .where(
      and(
        eq(pubChainAccounts.userId, me),
        eq(pubChainAccounts.projectId, row.projectId),
        eq(pubChainAccounts.keyType, KeyType.CUSTODY),
      ),
    );
  const holder = owner
    ? accounts.find((a) => a.address.toLowerCase() === owner.toLowerCase() && a.keySealed)
    : undefined;
  if (!holder) throw new ApiError(Msg.DDC_NOT_HELD);
  if (input.to.toLowerCase() === holder.address.toLowerCase() || /^0x0{40}$/.test(input.to))
    throw fieldError("to", Msg.DDC_BAD_RECIPIENT, Msg.DDC_BAD_RECIPIENT);
  if ((await gasOf(deps, where.chain, holder.address)) === 0n) throw new ApiError(Msg.GAS_ZERO);
  const now = deps.now();
  // The fee and the transfer "sending", in one transaction; the signed hash is kept before the send (recovery).
  const transfer = await deps.db.transaction(async (tx) => {
    const bill = await payFee(tx, {
      userId: me,
      billType: BillType.TRANSFER_DDC,
      serviceName: `${row.name} → ${input.to}`,
      // The operators' fee, read in the charge's transaction (docs/decisions/073).
      cents: await ddcFeeCents(tx, DdcFee.TRANSFER),
      at: now,
      prefix: "DT",
      dedupeKey: `ddc-transfer:${row.id}:${now.getTime()}:${input.to.toLowerCase()}`,
    });
    const [created] = await tx
      .insert(ddcTransfers)
      .values({
        ddcId: row.id,
        userId: me,
        fromAddress: holder.address,
        toAddress: getAddress(input.to),
        billId: bill.id,
        status: DdcTransferStatus.SENDING,
        createdAt: now,
      })
      .returning();
    return created!;
  });
  const keep = async (hash: string) => {
    const kept = await deps.db
      .update(ddcTransfers)
      .set({ txHash: hash })
      .where(and(eq(ddcTransfers.id, transfer.id), eq(ddcTransfers.status, DdcTransferStatus.SENDING)))
      .returning({ id: ddcTransfers.id });
    if (!kept.length) throw new ChainRefusal("the transfer was ended by the recovery of interrupted transfers");
    sent = true;
  };
  let sent = false;
  try {
    const sent = await transferToken(
      deps,
      where.chain,
      where.collection.address,
      publicChain.api.openCustodyKey(deps.env, holder.keySealed!),
      { from: holder.address, to: getAddress(input.to), tokenId: BigInt(row.id) },
      keep,
    );
    await finishTransfer(deps.db, transfer.id, sent.blockNumber);
  } catch (error) {
    // Sent but not seen mined: left "sending" for the recovery job (finished or refunded), never refunded early.
    if (sent && !(error instanceof Reverted)) throw new ApiError(Msg.DDC_TRANSFER_PENDING);
    await failTransfer(deps, transfer.id, reasonOf(error));
    if (error instanceof ChainRefusal) throw new ApiError(Msg.DDC_CHAIN_REFUSED, { reason: error.message });
    throw error;
  }
  return detailOf(deps, me, row);
}

/** Sets or clears the QR-code password (SPEC §3); any change ends the passes given for the old one. */
export async function setDdcPassword(input: Payload<"/sys/ddc/password">, ctx: Ctx) {
  const row = await ownDdc(ctx.deps.db, ctx.user.id, input.ddcId);
  const passwordHash = input.clear ? null : await hashPassword(input.password!);
  await ctx.deps.db
    .update(ddcs)
    .set({ passwordHash, passwordVersion: row.passwordVersion + 1 })
    .where(eq(ddcs.id, row.id));
  return { ddcId: row.id, passwordSet: passwordHash !== null };
}
