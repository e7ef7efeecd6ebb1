import { eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { appTransitions, appVersions, apps } from "./tables";
import { messages } from "../../db/tables";
import { ApiError } from "../../http/errors";
import { transition, type Actor, type LifecycleEvent, type TransitionContext } from "./lifecycle";

/**
 * Applies one lifecycle event to a service version inside `tx` (backend/services/lifecycle.ts decides):
 * locks the version row, refuses with the rule's message key, moves verState, records the transition
 * (actor, time, comments) for the approval records and timeline, and sends the publisher a message
 * (messages.json `messages.service.<event>`). Returns the states before and after.
 */
export async function applyTransition(
  tx: Tx,
  input: {
    verId: number;
    event: LifecycleEvent;
    actor: Actor;
    /** The user acting (publisher or operator); null for the system. */
    actorId: number | null;
    comments?: string | null;
    now: Date;
    /** Other columns of app_versions to set in the same update. */
    set?: Partial<typeof appVersions.$inferInsert>;
  },
) {
  const [version] = await tx.select().from(appVersions).where(eq(appVersions.id, input.verId)).for("update");
  if (!version) throw new ApiError("MSG_10002");
  const [app] = await tx.select().from(apps).where(eq(apps.id, version.appId));
  const ctx: TransitionContext = {
    comments: input.comments,
    free: app.freeYN === 1,
    now: input.now,
    approvedAt: version.approvedAt,
    enableRequested: version.enableRequestedAt !== null,
  };
  const result = transition(version.verState, input.event, input.actor, ctx);
  if (!result.ok) throw new ApiError(result.messageKey);
  await tx
    .update(appVersions)
    .set({ ...input.set, verState: result.to, updatedAt: input.now })
    .where(eq(appVersions.id, version.id));
  await tx.insert(appTransitions).values({
    verId: version.id,
    event: input.event,
    fromState: version.verState,
    toState: result.to,
    actorId: input.actorId,
    actorKind: input.actor,
    comments: input.comments?.trim() || null,
    createdAt: input.now,
  });
  await tx.insert(messages).values({
    userId: app.userId,
    textKey: `messages.service.${input.event}`,
    params: { name: app.name, version: version.version, ...(input.comments?.trim() ? { comments: input.comments.trim() } : {}) },
    createdAt: input.now,
  });
  return { app, version, from: version.verState, to: result.to };
}
