import { and, asc, count, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { CrossProtocol, CrossStatus } from "#contract/cross-chain.ts";
import { callPriceCents } from "#backend/domains/cross-chain/prices.ts";
import { Msg } from "#contract/messages.ts";
import { VerState } from "#contract/service-status.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import { appVersions, apps } from "#backend/domains/services/tables.ts";
import { crossChainMachine } from "#backend/domains/cross-chain/machine.ts";
import { openRefusal } from "#backend/domains/cross-chain/rules.ts";
import { crossChainAccounts, crossChainCalls, crossChainContracts } from "#backend/domains/cross-chain/tables.ts";
import { allowedTargets } from "#backend/domains/cross-chain/targets.ts";
import { saveServiceState } from "#backend/domains/cross-chain/service-state.ts";
import {
  RECENT_CALLS,
  callView,
  chainOf,
  move,
  openFacts,
  ownApp,
  serviceRows,
  type Ctx,
  upgradingNow,
} from "./shared.ts";

/* ------------------------------------------------ user paths ------------------------------------------------ */

/** Index: the caller's services opened to cross-chain at least once (a protocol chosen), newest change first. */
export async function listServices(input: Payload<"/sys/crossChain/list">, ctx: Ctx) {
  const { db } = ctx.deps;
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
  const { db } = ctx.deps;
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
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
    const app = await ownApp(tx, ctx.user.id, input.appId, true);
    const refusal = openRefusal(await openFacts(tx, app), input.protocol);
    const to = crossChainMachine.transition(app.crossStatus, "open", "publisher", { openRefusal: refusal });
    if (!to.ok)
      throw new ApiError(
        to.messageKey,
        to.messageKey === Msg.XC_PROTOCOL_UNSUPPORTED ? { fieldErrors: { protocol: [to.messageKey] } } : null,
      );
    const crossAppCode = input.protocol === CrossProtocol.APP ? (input.appCode ?? null) : null;
    await saveServiceState(
      tx,
      app.id,
      { crossChain: true, crossProtocol: input.protocol, crossAppCode, crossStatus: to.to },
      now,
    );
    return { appId: app.id, crossStatus: to.to };
  });
}

/** §5 "Cannot be stopped while enabled": an activated service asks to be deactivated (1 → 4), which an operator reviews. */
export async function deactivate(input: Payload<"/sys/crossChain/deactivate">, ctx: Ctx) {
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
    const app = await ownApp(tx, ctx.user.id, input.appId, true);
    const to = move(app, "deactivate", "publisher");
    await saveServiceState(tx, app.id, { crossStatus: to }, now);
    return { appId: app.id, crossStatus: to };
  });
}

/** Closes (unsubscribes) cross-chain from 0 or 3 (→ 2); §5 "Cannot unsubscribe while upgrading". */
export async function close(input: Payload<"/sys/crossChain/close">, ctx: Ctx) {
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
    const app = await ownApp(tx, ctx.user.id, input.appId, true);
    const to = move(app, "close", "publisher", { upgrading: await upgradingNow(tx, app) });
    await saveServiceState(tx, app.id, { crossChain: false, crossStatus: to }, now);
    return { appId: app.id, crossStatus: to };
  });
}

/** The live state: protocol, the contracts on each chain involved, the relayer, counts and the recent calls. */
export async function detail(input: Payload<"/sys/crossChain/detail">, ctx: Ctx) {
  const { db } = ctx.deps;
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
    unitPriceCents: await callPriceCents(db),
  };
}
