import { createHash } from "node:crypto";
import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, type SQL } from "drizzle-orm";
import { decodeEventLog, encodeFunctionData, parseAbi } from "viem";
import { BillType, PayState } from "#contract/billing-codes.ts";
import {
  CROSS_CHAIN_UNIT_PRICE_CENTS,
  CrossCallStatus,
  CrossProtocol,
  CrossStatus,
  type CrossCall,
  type CrossService,
} from "#contract/cross-chain.ts";
import { UpgradeStatus } from "#contract/config-upgrade-codes.ts";
import { Msg } from "#contract/messages.ts";
import { VerState } from "#contract/service-status.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { cityNodes, users } from "#backend/db/tables.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import { recordAudit } from "#backend/kit/audit.ts";
import chain from "#backend/domains/chain/index.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { appNodes, appVersions, apps, configUpgrades, serviceChains } from "#backend/domains/services/tables.ts";
import { crossChainMachine, type CrossEvent } from "./machine.ts";
import { contractsOn, deployForService, ensureGas, receiptOf, senderAccount } from "./network.ts";
import { MESSENGER_ABI, recordLog, wakeRelayer } from "./relayer.ts";
import {
  openRefusal,
  protocolsOfNodes,
  sampleAllowed,
  serviceUpgradeUnderWay,
  reasonOf,
  type OpenFacts,
} from "./rules.ts";
import { crossChainAccounts, crossChainCalls, crossChainContracts } from "./tables.ts";
import { allowedTargets } from "./targets.ts";

/** The handlers of cross-chain services (contract/cross-chain.ts; docs/decisions/048). Every service is looked up with its owner. */

type Ctx = SignedInContext;
type AppRow = typeof apps.$inferSelect;
type CallRow = typeof crossChainCalls.$inferSelect;
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const RECENT_CALLS = 10;

const SAMPLE_ABI = parseAbi([
  "function receiveMessage(string text)",
  "function mint() returns (uint256)",
  "function lockAndSend(uint256 tokenId, string appCode, string targetChain, address targetNft) returns (uint64)",
  "function depositAndSend(bytes32 digest, string note, string appCode, string targetChain, address targetDeposit) returns (uint64)",
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
]);

/** The caller's own service (another user's, or none, is "not found"). */
async function ownApp(db: Db | Tx, userId: number, appId: number, lock = false): Promise<AppRow> {
  const q = db.select().from(apps).where(eq(apps.id, appId));
  const [app] = lock ? await q.for("update") : await q;
  if (!app || app.userId !== userId) throw new ApiError(Msg.NOT_FOUND);
  return app;
}

async function chainOf(db: Db | Tx, appId: number) {
  const [row] = await db
    .select({ chainName: serviceChains.chainName, chainId: serviceChains.chainId })
    .from(serviceChains)
    .where(eq(serviceChains.appId, appId));
  return row ?? null;
}

/** §5: a service upgrade (a newer version under way) or a configuration upgrade in progress. */
export async function upgradingNow(db: Db | Tx, app: Pick<AppRow, "id" | "currentVerId">): Promise<boolean> {
  const versions = await db
    .select({ id: appVersions.id, verState: appVersions.verState })
    .from(appVersions)
    .where(eq(appVersions.appId, app.id));
  if (serviceUpgradeUnderWay(app.currentVerId, versions)) return true;
  const [config] = await db
    .select({ id: configUpgrades.id })
    .from(configUpgrades)
    .where(and(eq(configUpgrades.appId, app.id), eq(configUpgrades.status, UpgradeStatus.UPGRADING)))
    .limit(1);
  return config !== undefined;
}

/** The facts of §5/§8 the open rule reads, now. */
async function openFacts(db: Db | Tx, app: AppRow): Promise<OpenFacts> {
  const [version] = app.currentVerId
    ? await db.select({ verState: appVersions.verState }).from(appVersions).where(eq(appVersions.id, app.currentVerId))
    : [];
  const nodes = app.currentVerId
    ? await db
        .select({ interchainProtocols: cityNodes.interchainProtocols })
        .from(appNodes)
        .innerJoin(cityNodes, eq(cityNodes.id, appNodes.cityNodeId))
        .where(eq(appNodes.verId, app.currentVerId))
    : [];
  const [unpaid] = await db
    .select({ id: bills.id })
    .from(bills)
    .where(
      and(
        eq(bills.userId, app.userId),
        eq(bills.billType, BillType.CROSS_CHAIN),
        inArray(bills.payState, [PayState.UNPAID, PayState.FAILED]),
      ),
    )
    .limit(1);
  return {
    verState: version?.verState ?? 0,
    hasChain: (await chainOf(db, app.id)) !== null,
    upgrading: await upgradingNow(db, app),
    unpaidCrossChainBill: unpaid !== undefined,
    protocols: protocolsOfNodes(nodes),
  };
}

async function countsOf(db: Db | Tx, appIds: number[]) {
  const out = new Map<number, { total: number; success: number; failure: number; pending: number }>();
  for (const id of appIds) out.set(id, { total: 0, success: 0, failure: 0, pending: 0 });
  if (!appIds.length) return out;
  const rows = await db
    .select({ appId: crossChainCalls.appId, status: crossChainCalls.status, n: count() })
    .from(crossChainCalls)
    .where(inArray(crossChainCalls.appId, appIds))
    .groupBy(crossChainCalls.appId, crossChainCalls.status);
  for (const r of rows) {
    const c = out.get(r.appId)!;
    c.total += r.n;
    if (r.status === CrossCallStatus.SUCCESS) c.success += r.n;
    else if (r.status === CrossCallStatus.FAILURE) c.failure += r.n;
    else c.pending += r.n;
  }
  return out;
}

async function serviceRows(db: Db | Tx, rows: AppRow[]): Promise<CrossService[]> {
  const ids = rows.map((r) => r.id);
  const counts = await countsOf(db, ids);
  const chains = ids.length ? await db.select().from(serviceChains).where(inArray(serviceChains.appId, ids)) : [];
  return rows.map((app) => {
    const c = chains.find((x) => x.appId === app.id);
    return {
      appId: app.id,
      appCode: app.appCode,
      name: app.name,
      framework: app.framework,
      crossStatus: app.crossStatus,
      protocol: app.crossProtocol,
      crossAppCode: app.crossAppCode,
      chainName: c?.chainName ?? null,
      chainId: c?.chainId ?? null,
      counts: counts.get(app.id)!,
      updatedAt: app.updatedAt.toISOString(),
    };
  });
}

function callView(r: CallRow): CrossCall {
  return {
    callId: r.id,
    appId: r.appId,
    sequence: r.sequence,
    protocol: r.protocol,
    kind: r.kind as CrossCall["kind"],
    sourceChain: r.sourceChain,
    sourceChainId: r.sourceChainId,
    targetChain: r.targetChain,
    targetChainId: r.targetChainId,
    targetAddress: r.targetAddress,
    status: r.status,
    sourceTxHash: r.sourceTxHash,
    targetTxHash: r.status === CrossCallStatus.SUCCESS ? r.targetTxHash : null,
    attempts: r.attempts,
    reason: r.reason,
    feeCents: r.feeCents,
    createdAt: r.createdAt.toISOString(),
    deliveredAt: iso(r.deliveredAt),
  };
}

/** A status move of the machine, or its refusal as an error. */
function move(
  app: AppRow,
  event: CrossEvent,
  actor: "publisher" | "operator",
  ctx: Parameters<typeof crossChainMachine.transition>[3] = {},
) {
  const outcome = crossChainMachine.transition(app.crossStatus, event, actor, ctx);
  if (!outcome.ok) throw new ApiError(outcome.messageKey);
  return outcome.to;
}

/* ------------------------------------------------ user paths ------------------------------------------------ */

/** Index: the caller's services opened to cross-chain at least once (a protocol chosen), newest change first. */
export async function listServices(input: Payload<"/sys/crossChain/list">, ctx: Ctx) {
  const { db } = ctx.services;
  const where = and(
    eq(apps.userId, ctx.user.id),
    isNotNull(apps.crossProtocol),
    input.status === undefined ? undefined : eq(apps.crossStatus, input.status),
  );
  const [{ total }] = await db.select({ total: count() }).from(apps).where(where);
  const rows = await db
    .select()
    .from(apps)
    .where(where)
    .orderBy(desc(apps.updatedAt), desc(apps.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return { page: { rows: await serviceRows(db, rows), total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/** SelectService: the caller's running services, each with whether it can be opened now and the message why not. */
export async function selectable(_input: Payload<"/sys/crossChain/selectable">, ctx: Ctx) {
  const { db } = ctx.services;
  const rows = await db
    .select({ app: apps })
    .from(apps)
    .innerJoin(appVersions, eq(appVersions.id, apps.currentVerId))
    .where(and(eq(apps.userId, ctx.user.id), eq(appVersions.verState, VerState.RUNNING)))
    .orderBy(asc(apps.name));
  const out = [];
  for (const { app } of rows) {
    const facts = await openFacts(db, app);
    const chain = await chainOf(db, app.id);
    const statusAllows = app.crossStatus === CrossStatus.DEACTIVATED || app.crossStatus === CrossStatus.CLOSED;
    const reason = statusAllows ? openRefusal(facts) : Msg.XC_NOT_AVAILABLE;
    out.push({
      appId: app.id,
      appCode: app.appCode,
      name: app.name,
      framework: app.framework,
      crossStatus: app.crossStatus,
      chainName: chain?.chainName ?? null,
      protocol: app.crossProtocol,
      crossAppCode: app.crossAppCode,
      protocols: facts.protocols,
      canOpen: reason === null,
      reason,
    });
  }
  return out;
}

/** Dredge: asks to open the service (→ 3); every §5/§8 rule re-checked here. */
export async function dredge(input: Payload<"/sys/crossChain/dredge">, ctx: Ctx) {
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    const app = await ownApp(tx, ctx.user.id, input.appId, true);
    const refusal = openRefusal(await openFacts(tx, app), input.protocol);
    const to = crossChainMachine.transition(app.crossStatus, "open", "publisher", { openRefusal: refusal });
    if (!to.ok)
      throw new ApiError(
        to.messageKey,
        to.messageKey === Msg.XC_PROTOCOL_UNSUPPORTED ? { fieldErrors: { protocol: [to.messageKey] } } : null,
      );
    const crossAppCode = input.protocol === CrossProtocol.APP ? (input.appCode ?? null) : null;
    await tx
      .update(apps)
      .set({ crossChain: true, crossProtocol: input.protocol, crossAppCode, crossStatus: to.to, updatedAt: now })
      .where(eq(apps.id, app.id));
    return { appId: app.id, crossStatus: to.to };
  });
}

/** §5 "Cannot be stopped while enabled": an activated service asks to be deactivated (1 → 4), which an operator reviews. */
export async function deactivate(input: Payload<"/sys/crossChain/deactivate">, ctx: Ctx) {
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    const app = await ownApp(tx, ctx.user.id, input.appId, true);
    const to = move(app, "deactivate", "publisher");
    await tx.update(apps).set({ crossStatus: to, updatedAt: now }).where(eq(apps.id, app.id));
    return { appId: app.id, crossStatus: to };
  });
}

/** Closes (unsubscribes) cross-chain from 0 or 3 (→ 2); §5 "Cannot unsubscribe while upgrading". */
export async function close(input: Payload<"/sys/crossChain/close">, ctx: Ctx) {
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    const app = await ownApp(tx, ctx.user.id, input.appId, true);
    const to = move(app, "close", "publisher", { upgrading: await upgradingNow(tx, app) });
    await tx.update(apps).set({ crossChain: false, crossStatus: to, updatedAt: now }).where(eq(apps.id, app.id));
    return { appId: app.id, crossStatus: to };
  });
}

/** The live state: protocol, the contracts on each chain involved, the relayer, counts and the recent calls. */
export async function detail(input: Payload<"/sys/crossChain/detail">, ctx: Ctx) {
  const { db } = ctx.services;
  const app = await ownApp(db, ctx.user.id, input.appId);
  const [row] = await serviceRows(db, [app]);
  const contracts = [];
  if (app.crossProtocol !== null) {
    const chainNames = new Set<string>();
    if (row.chainName) chainNames.add(row.chainName);
    const recentTargets = await db
      .selectDistinct({ chain: crossChainCalls.targetChain })
      .from(crossChainCalls)
      .where(eq(crossChainCalls.appId, app.id));
    for (const t of recentTargets) chainNames.add(t.chain);
    for (const t of await allowedTargets(db, app.id, app.userId, app.crossProtocol))
      if (t.kind === "openAlliance") chainNames.add(t.chainName);
    if (chainNames.size) {
      const rows = await db
        .select()
        .from(crossChainContracts)
        .where(
          and(
            inArray(crossChainContracts.chainName, [...chainNames]),
            eq(crossChainContracts.protocol, app.crossProtocol),
          ),
        )
        .orderBy(asc(crossChainContracts.chainName), asc(crossChainContracts.role));
      for (const c of rows)
        contracts.push({ chainName: c.chainName, chainId: c.chainId, role: c.role as "messenger", address: c.address });
    }
  }
  const accounts = await db
    .select()
    .from(crossChainAccounts)
    .where(inArray(crossChainAccounts.name, ["relayer", `sender:${app.id}`]));
  const recent = await db
    .select()
    .from(crossChainCalls)
    .where(eq(crossChainCalls.appId, app.id))
    .orderBy(desc(crossChainCalls.id))
    .limit(RECENT_CALLS);
  return {
    ...row,
    relayerAddress: accounts.find((a) => a.name === "relayer")?.address ?? null,
    senderAddress: accounts.find((a) => a.name !== "relayer")?.address ?? null,
    contracts,
    recentCalls: recent.map(callView),
    unitPriceCents: CROSS_CHAIN_UNIT_PRICE_CENTS,
  };
}

const DAY_MS = 86_400_000;

/** CrossChainDetailView: the call records, filtered; pages of up to 1000 rows for the CSV export. */
export async function calls(input: Payload<"/sys/crossChain/calls">, ctx: Ctx) {
  const { db } = ctx.services;
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
  const { db } = ctx.services;
  const app = await ownApp(db, ctx.user.id, input.appId);
  const [row] = await db
    .select()
    .from(crossChainCalls)
    .where(and(eq(crossChainCalls.id, input.callId), eq(crossChainCalls.appId, app.id)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return callView(row);
}

/** Tests only (TEST_FIXTURES=1): a delivered call record of the caller's service, with made-up hashes and no chain. */
export async function callFixture(input: Payload<"/test/crossChain/call">, ctx: Ctx) {
  const deps = ctx.services;
  if (!deps.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  const app = await ownApp(deps.db, ctx.user.id, input.appId);
  const own = await chainOf(deps.db, app.id);
  const now = deps.now();
  const hash = () => `0x${createHash("sha256").update(`${app.id}:${now.getTime()}:${Math.random()}`).digest("hex")}`;
  const [row] = await deps.db
    .insert(crossChainCalls)
    .values({
      appId: app.id,
      userId: app.userId,
      protocol: app.crossProtocol ?? CrossProtocol.ENTERPRISE,
      kind: "message",
      sourceChain: own?.chainName ?? `fixture-${app.id}`,
      sourceChainId: own?.chainId ?? 0,
      sourceContract: "0x0000000000000000000000000000000000000000",
      sequence: now.getTime() * 1000 + Math.floor(Math.random() * 1000),
      sender: "0x0000000000000000000000000000000000000000",
      targetChain: "open-alliance",
      targetChainId: 0,
      targetAddress: "0x0000000000000000000000000000000000000000",
      data: "0x",
      status: CrossCallStatus.SUCCESS,
      sourceTxHash: hash(),
      sourceBlock: 0,
      targetTxHash: hash(),
      attempts: 1,
      nextAttemptAt: now,
      createdAt: now,
      deliveredAt: now,
    })
    .returning();
  return callView(row!);
}

export async function targets(input: Payload<"/sys/crossChain/targets">, ctx: Ctx) {
  const { db } = ctx.services;
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
  const deps = ctx.services;
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

/* ---------------------------------------------- operator paths ---------------------------------------------- */

/** Operations: services pending activation (3) or deactivation (4), oldest request first. */
export async function pending(input: Payload<"/sys/ops/crossChain/pending">, ctx: Ctx) {
  const { db } = ctx.services;
  const statuses =
    input.status === undefined ? [CrossStatus.PENDING_ACTIVATION, CrossStatus.PENDING_DEACTIVATION] : [input.status];
  const where = inArray(apps.crossStatus, statuses);
  const [{ total }] = await db.select({ total: count() }).from(apps).where(where);
  const rows = await db
    .select({ app: apps, owner: users.userName })
    .from(apps)
    .innerJoin(users, eq(users.id, apps.userId))
    .where(where)
    .orderBy(asc(apps.updatedAt), asc(apps.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const services = await serviceRows(
    db,
    rows.map((r) => r.app),
  );
  return {
    page: {
      rows: services.map((s, i) => ({ ...s, owner: rows[i]!.owner })),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
}

/**
 * Operations: the review of a pending request (3 → 1 | 0, 4 → 0 | 1). Approving an activation deploys the
 * protocol's contracts on the service's chain and on the open-alliance chain first (outside the transaction:
 * the chains write to the database too); the move and its audit entry then commit together.
 */
export async function review(input: Payload<"/sys/ops/crossChain/review">, ctx: Ctx) {
  const deps = ctx.services;
  const comments = input.comments?.trim() || null;
  const [app] = await deps.db.select().from(apps).where(eq(apps.id, input.appId));
  if (!app) throw new ApiError(Msg.NOT_FOUND);
  const event: CrossEvent = input.decision === "approve" ? "approve" : "reject";
  move(app, event, "operator", { comments });
  if (event === "approve" && app.crossStatus === CrossStatus.PENDING_ACTIVATION) {
    const own = await chainOf(deps.db, app.id);
    if (!own || app.crossProtocol === null) throw new ApiError(Msg.XC_NO_CHAIN);
    try {
      await deployForService(deps, own.chainName, app.crossProtocol);
    } catch (error) {
      throw new ApiError(Msg.XC_DEPLOY_FAILED, { reason: reasonOf(error) });
    }
  }
  const now = deps.now();
  const result = await deps.db.transaction(async (tx) => {
    const locked = await ownerless(tx, app.id);
    const to = move(locked, event, "operator", { comments });
    await tx
      .update(apps)
      .set({ crossStatus: to, crossChain: to !== CrossStatus.DEACTIVATED || locked.crossChain, updatedAt: now })
      .where(eq(apps.id, app.id));
    const answer = { appId: app.id, crossStatus: to };
    await recordAudit(tx, {
      action: "crossChain.review",
      targetType: "crossChainService",
      targetId: String(app.id),
      decision: input.decision,
      comments,
      details: { from: locked.crossStatus, outcome: answer, protocol: locked.crossProtocol },
      actor: ctx.user,
      at: now,
      path: ctx.path,
      clientIp: ctx.clientAddress,
    });
    return answer;
  });
  if (result.crossStatus === CrossStatus.ACTIVATED) wakeRelayer(deps);
  return result;
}

async function ownerless(tx: Tx, appId: number): Promise<AppRow> {
  const [app] = await tx.select().from(apps).where(eq(apps.id, appId)).for("update");
  if (!app) throw new ApiError(Msg.NOT_FOUND);
  return app;
}
