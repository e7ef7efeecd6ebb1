import { and, asc, count, desc, eq, ilike, inArray, isNotNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { VerState } from "../../../contract/service-status";
import type { ServiceOpsDecision, servicePaths } from "../../../contract/services";
import { appTransitions, appVersions, apps } from "./tables";
import { users } from "../../db/tables";
import type { SignedInContext } from "../../http/router";
import { escapeLike } from "../store/listing";
import { ownVersion, requireAction, rowOf } from "./handlers";
import type { LifecycleEvent } from "./lifecycle";
import { applyTransition } from "./transitions";

/**
 * Operator suspension (docs/decisions/015): operators suspend running services (25 → 40) and lift the
 * suspension (40 → 25); at 40 the publisher's "Enable" is a request to operations, which an operator
 * grants by enabling or declines with comments. Every decision is a lifecycle event (lifecycle.ts) applied
 * by applyTransition, so it is recorded for the approval records and the publisher gets a message.
 */

type Payload<P extends keyof typeof servicePaths> = z.output<(typeof servicePaths)[P]["payload"]>;
const me = (ctx: SignedInContext) => ctx.user;

/** Clears the pending request: an operator's enable and decline both close it. */
const NO_REQUEST = { enableRequestedAt: null, enableRequestNote: null };

/** The publisher asks operations to lift the suspension of their own version (at most one request pending). */
export async function requestEnable(input: Payload<"/sys/chainAppInfo/requestEnable">, ctx: SignedInContext) {
  const now = ctx.services.now();
  const note = input.note?.trim() || null;
  await ctx.services.db.transaction(async (tx) => {
    const { app, version } = await ownVersion(tx, me(ctx).id, input.appVerId, true);
    requireAction(app, version, "enable");
    await applyTransition(tx, {
      verId: version.id,
      event: "requestEnable",
      actor: "publisher",
      actorId: me(ctx).id,
      comments: note,
      now,
      set: { enableRequestedAt: now, enableRequestNote: note },
    });
  });
  return null;
}

const STATES_OF = {
  running: [VerState.RUNNING],
  suspended: [VerState.DEACTIVATED_BY_OPERATOR],
  requested: [VerState.DEACTIVATED_BY_OPERATOR],
  all: [VerState.RUNNING, VerState.DEACTIVATED_BY_OPERATOR],
} as const;

/**
 * The running-services queue: versions at 25 and 40 by filter and name; pending requests first (oldest
 * first), then by service name.
 */
export async function opsServiceList(input: Payload<"/sys/ops/services/list">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const name = input.name?.trim() ?? "";
  const where = and(
    inArray(appVersions.verState, [...STATES_OF[input.filter]]),
    input.filter === "requested" ? isNotNull(appVersions.enableRequestedAt) : undefined,
    name ? ilike(apps.name, `%${escapeLike(name)}%`) : undefined,
  );
  const [{ total }] = await db.select({ total: count() }).from(appVersions).innerJoin(apps, eq(apps.id, appVersions.appId)).where(where);
  // When the version entered its current status: its last transition that changed the status.
  const since = sql`(select max(t.created_at) from ${appTransitions} t where t.ver_id = ${appVersions.id} and t.to_state = ${appVersions.verState} and t.from_state <> t.to_state)`.mapWith(appTransitions.createdAt);
  const list = await db
    .select({ v: appVersions, a: apps, publisher: users.userName, since })
    .from(appVersions)
    .innerJoin(apps, eq(apps.id, appVersions.appId))
    .innerJoin(users, eq(users.id, apps.userId))
    .where(where)
    .orderBy(sql`${appVersions.enableRequestedAt} asc nulls last`, asc(apps.name), asc(appVersions.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const suspended = list.filter(({ v }) => v.verState === VerState.DEACTIVATED_BY_OPERATOR).map(({ v }) => v.id);
  const suspensions = suspended.length
    ? await db
        .select({ verId: appTransitions.verId, comments: appTransitions.comments })
        .from(appTransitions)
        .where(and(inArray(appTransitions.verId, suspended), eq(appTransitions.event, "suspend")))
        .orderBy(desc(appTransitions.createdAt), desc(appTransitions.id))
    : [];
  const lastComments = new Map<number, string | null>();
  for (const s of suspensions) if (!lastComments.has(s.verId)) lastComments.set(s.verId, s.comments);
  const rows = list.map(({ v, a, publisher, since: at }) => ({
    ...rowOf(a, v, false),
    publisher,
    since: (at ?? v.updatedAt).toISOString(),
    suspendComments: lastComments.get(v.id) ?? null,
    enableRequestNote: v.enableRequestedAt ? v.enableRequestNote : null,
  }));
  return { page: { rows, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

const EVENT_OF: Record<ServiceOpsDecision, LifecycleEvent> = { suspend: "suspend", enable: "enable", decline: "declineEnable" };

/** Suspend (comments required), enable, or decline the pending request (comments required). */
export async function opsServiceDecide(input: Payload<"/sys/ops/services/decide">, ctx: SignedInContext) {
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    const result = await applyTransition(tx, {
      verId: input.appVerId,
      event: EVENT_OF[input.decision],
      actor: "operator",
      actorId: me(ctx).id,
      comments: input.comments ?? null,
      now,
      set: NO_REQUEST,
    });
    return { verState: result.to };
  });
}
