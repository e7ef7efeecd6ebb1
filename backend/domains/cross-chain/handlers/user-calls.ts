import { createHash } from "node:crypto";
import { and, count, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import { decodeEventLog, encodeFunctionData } from "viem";
import { CrossProtocol, CrossStatus } from "#contract/cross-chain.ts";
import { Msg } from "#contract/messages.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import chain from "#backend/domains/chain/index.ts";
import { contractsOn, ensureGas, receiptOf, senderAccount } from "#backend/domains/cross-chain/network.ts";
import { MESSENGER_ABI, recordLog, wakeRelayer } from "#backend/domains/cross-chain/relayer.ts";
import { sampleAllowed, reasonOf } from "#backend/domains/cross-chain/rules.ts";
import { crossChainCalls } from "#backend/domains/cross-chain/tables.ts";
import { allowedTargets } from "#backend/domains/cross-chain/targets.ts";
import { SAMPLE_ABI, callView, chainOf, ownApp, type AppRow, type Ctx } from "./shared.ts";

const DAY_MS = 86_400_000;

/** CrossChainDetailView: the call records, filtered; pages of up to 1000 rows for the CSV export. */
export async function calls(input: Payload<"/sys/crossChain/calls">, ctx: Ctx) {
  const { db } = ctx.deps;
  await ownApp(db, ctx.user.id, input.appId);
  const conditions: SQL[] = [eq(crossChainCalls.appId, input.appId)];
  if (input.status !== undefined) conditions.push(eq(crossChainCalls.status, input.status));
  // Days of the console's time zone, UTC+8 (as the bills' weeks).
  if (input.from) conditions.push(gte(crossChainCalls.createdAt, new Date(`${input.from}T00:00:00+08:00`)));
  if (input.to)
    conditions.push(lt(crossChainCalls.createdAt, new Date(new Date(`${input.to}T00:00:00+08:00`).getTime() + DAY_MS)));
  if (input.target) conditions.push(eq(crossChainCalls.targetChain, input.target));
  const where = and(...conditions);
  const [{ total }] = await db.select({ total: count() }).from(crossChainCalls).where(where);
  const rows = await db
    .select()
    .from(crossChainCalls)
    .where(where)
    .orderBy(desc(crossChainCalls.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return { page: { rows: rows.map(callView), total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/** CrossChainDetailView: one call record of the caller's own service; a call of another service is not found. */
export async function call(input: Payload<"/sys/crossChain/call">, ctx: Ctx) {
  const { db } = ctx.deps;
  const app = await ownApp(db, ctx.user.id, input.appId);
  const [row] = await db
    .select()
    .from(crossChainCalls)
    .where(and(eq(crossChainCalls.id, input.callId), eq(crossChainCalls.appId, app.id)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return callView(row);
}

export async function targets(input: Payload<"/sys/crossChain/targets">, ctx: Ctx) {
  const { db } = ctx.deps;
  const app = await ownApp(db, ctx.user.id, input.appId);
  if (app.crossProtocol === null) return [];
  return allowedTargets(db, app.id, app.userId, app.crossProtocol);
}

/** The transaction that sends the sample on the source chain: to which contract, with which data. */
async function sampleTransactions(
  deps: Deps,
  input: Payload<"/sys/crossChain/send">,
  app: AppRow,
  source: Record<string, string | undefined>,
  target: Record<string, string | undefined>,
  sender: { address: string; key: string },
  sourceChain: string,
) {
  const protocol = app.crossProtocol!;
  const appCode = app.crossAppCode ?? "";
  const viaMessenger = (to: string, data: `0x${string}`) => ({
    to: source.messenger!,
    data:
      protocol === CrossProtocol.APP
        ? encodeFunctionData({
            abi: MESSENGER_ABI,
            functionName: "send",
            args: [appCode, input.target, to as `0x${string}`, data],
          })
        : encodeFunctionData({
            abi: MESSENGER_ABI,
            functionName: "send",
            args: [input.target, to as `0x${string}`, data],
          }),
  });
  switch (input.kind) {
    case "message":
      if (!target.inbox)
        throw new ApiError(Msg.XC_TARGET_UNKNOWN, { fieldErrors: { target: [Msg.XC_TARGET_UNKNOWN] } });
      return viaMessenger(
        target.inbox,
        encodeFunctionData({ abi: SAMPLE_ABI, functionName: "receiveMessage", args: [input.text ?? ""] }),
      );
    case "call":
      return viaMessenger(input.to!, input.data as `0x${string}`);
    case "nft": {
      if (!source.nft || !target.nft)
        throw new ApiError(Msg.XC_TARGET_UNKNOWN, { fieldErrors: { target: [Msg.XC_TARGET_UNKNOWN] } });
      // The sample token is minted to the service's sender first, then locked and sent.
      const minted = await chain.api.send(deps, sourceChain, sender.key, {
        to: source.nft,
        data: encodeFunctionData({ abi: SAMPLE_ABI, functionName: "mint" }),
      });
      const receipt = await receiptOf(deps, sourceChain, minted);
      const transfer = receipt.logs
        .map((l) => {
          try {
            return decodeEventLog({
              abi: SAMPLE_ABI,
              data: l.data as `0x${string}`,
              topics: l.topics as [`0x${string}`, ...`0x${string}`[]],
            });
          } catch {
            return null;
          }
        })
        .find((e) => e?.eventName === "Transfer");
      if (!transfer || transfer.eventName !== "Transfer") throw new Error("the sample token was not minted");
      return {
        to: source.nft,
        data: encodeFunctionData({
          abi: SAMPLE_ABI,
          functionName: "lockAndSend",
          args: [transfer.args.tokenId, appCode, input.target, target.nft as `0x${string}`],
        }),
      };
    }
    case "deposit": {
      if (!source.deposit || !target.deposit)
        throw new ApiError(Msg.XC_TARGET_UNKNOWN, { fieldErrors: { target: [Msg.XC_TARGET_UNKNOWN] } });
      const digest = `0x${createHash("sha256")
        .update(input.text ?? "", "utf8")
        .digest("hex")}` as `0x${string}`;
      return {
        to: source.deposit,
        data: encodeFunctionData({
          abi: SAMPLE_ABI,
          functionName: "depositAndSend",
          args: [digest, input.text ?? "", appCode, input.target, target.deposit as `0x${string}`],
        }),
      };
    }
  }
}

/** Sends a sample message on the service's chain (activated only); answers its call record (status 0), which the relayer delivers. */
export async function send(input: Payload<"/sys/crossChain/send">, ctx: Ctx) {
  const deps = ctx.deps;
  const app = await ownApp(deps.db, ctx.user.id, input.appId);
  if (app.crossStatus !== CrossStatus.ACTIVATED || app.crossProtocol === null) throw new ApiError(Msg.XC_NOT_ACTIVATED);
  if (!sampleAllowed(input.kind, app.crossProtocol))
    throw new ApiError(Msg.XC_SAMPLE_PROTOCOL, { fieldErrors: { kind: [Msg.XC_SAMPLE_PROTOCOL] } });
  const own = await chainOf(deps.db, app.id);
  if (!own) throw new ApiError(Msg.XC_NO_CHAIN);
  const target = (await allowedTargets(deps.db, app.id, app.userId, app.crossProtocol)).find(
    (t) => t.chainName === input.target,
  );
  if (!target) throw new ApiError(Msg.XC_TARGET_UNKNOWN, { fieldErrors: { target: [Msg.XC_TARGET_UNKNOWN] } });
  const source = await contractsOn(deps.db, own.chainName, app.crossProtocol);
  if (!source.messenger) throw new ApiError(Msg.XC_NOT_ACTIVATED);
  const targetSet = await contractsOn(deps.db, target.chainName, app.crossProtocol);
  const sender = await senderAccount(deps, app.id);
  let receipt;
  try {
    await ensureGas(deps, own.chainName, sender.address);
    const tx = await sampleTransactions(deps, input, app, source, targetSet, sender, own.chainName);
    const hash = await chain.api.send(deps, own.chainName, sender.key, tx);
    receipt = { ...(await receiptOf(deps, own.chainName, hash)), hash };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(Msg.XC_SEND_FAILED, { reason: reasonOf(error) });
  }
  if (receipt.status !== "0x1") throw new ApiError(Msg.XC_SEND_FAILED, { reason: "the transaction was reverted" });
  const log = receipt.logs.find((l) => l.address.toLowerCase() === source.messenger!.toLowerCase());
  if (!log) throw new ApiError(Msg.XC_SEND_FAILED, { reason: "the message contract emitted no message" });
  const src = {
    appId: app.id,
    userId: app.userId,
    protocol: app.crossProtocol,
    crossAppCode: app.crossAppCode,
    chainName: own.chainName,
    chainId: own.chainId,
  };
  await recordLog(deps, src, { ...log, blockNumber: receipt.blockNumber, transactionHash: receipt.hash });
  const [decoded] = [
    decodeEventLog({
      abi: MESSENGER_ABI,
      data: log.data as `0x${string}`,
      topics: log.topics as [`0x${string}`, ...`0x${string}`[]],
    }),
  ];
  const sequence = Number((decoded.args as { sequence: bigint }).sequence);
  const [row] = await deps.db
    .update(crossChainCalls)
    .set({ kind: input.kind })
    .where(
      and(
        eq(crossChainCalls.sourceChain, own.chainName),
        eq(crossChainCalls.sourceContract, log.address.toLowerCase()),
        eq(crossChainCalls.sequence, sequence),
      ),
    )
    .returning();
  wakeRelayer(deps);
  return callView(row!);
}
