import { Msg } from "#contract/messages.ts";
import { PROJECT_STATUSES, ProjectStatus as S, type ProjectStatusCode } from "#contract/public-chain-codes.ts";
import { defineMachine } from "#contract/state-machine.ts";
import { eq } from "drizzle-orm";
import type { Tx } from "#backend/db/client.ts";
import { ApiError } from "#backend/http/errors.ts";
import { pubChainProjectTransitions, pubChainProjects } from "./tables.ts";

/**
 * An open-alliance project (SPEC §4: 1 pending deployment, 5 failed, 10 deploying, 11 to be enabled,
 * 15 published, 16 enabled, 20 deactivated) as a state machine; docs/decisions/026 is the reading of §4:
 *
 * | event       | actor  | from          | to |
 * |-------------|--------|---------------|----|
 * | deployStart | system | 1             | 10 |
 * | deployOk    | system | 10            | 11 |
 * | deployFail  | system | 1, 10         | 5  |
 * | redeploy    | user   | 5             | 1  |
 * | publish     | system | 11            | 15 |
 * | enable      | user   | 11, 15, 20    | 16 |
 * | deactivate  | user   | 16            | 20 |
 *
 * Creating a project puts it in 1 and queues the deployment job; only 16 answers on the JSON-RPC endpoint.
 * `publish` is the contract-deployment slice's: the first contract deployed from a project not yet enabled.
 */
export type ProjectEvent = "deployStart" | "deployOk" | "deployFail" | "redeploy" | "publish" | "enable" | "deactivate";
export type ProjectActor = "user" | "system";

export const projectMachine = defineMachine<
  ProjectStatusCode,
  ProjectEvent,
  ProjectActor,
  { comments?: string | null }
>({
  name: "open-alliance project",
  states: PROJECT_STATUSES,
  actors: ["user", "system"],
  rules: [
    { event: "deployStart", actor: "system", from: [S.PENDING_DEPLOYMENT], to: S.DEPLOYING },
    { event: "deployOk", actor: "system", from: [S.DEPLOYING], to: S.TO_BE_ENABLED },
    { event: "deployFail", actor: "system", from: [S.PENDING_DEPLOYMENT, S.DEPLOYING], to: S.FAILED },
    { event: "redeploy", actor: "user", from: [S.FAILED], to: S.PENDING_DEPLOYMENT },
    { event: "publish", actor: "system", from: [S.TO_BE_ENABLED], to: S.PUBLISHED },
    { event: "enable", actor: "user", from: [S.TO_BE_ENABLED, S.PUBLISHED, S.DEACTIVATED], to: S.ENABLED },
    { event: "deactivate", actor: "user", from: [S.ENABLED], to: S.DEACTIVATED },
  ],
  refusals: {
    notAvailable: Msg.PROJECT_ACTION_NOT_AVAILABLE,
    notAllowed: Msg.PROJECT_ACTION_NOT_AVAILABLE,
    commentsRequired: Msg.COMMENTS_REQUIRED,
  },
});

/** Applies a §4 move of the project machine inside `tx`, with its transition record. */
export async function moveProject(
  tx: Tx,
  project: typeof pubChainProjects.$inferSelect,
  event: ProjectEvent,
  actor: ProjectActor,
  now: Date,
  set: Partial<typeof pubChainProjects.$inferSelect> = {},
) {
  const outcome = projectMachine.transition(project.status, event, actor);
  if (!outcome.ok) throw new ApiError(outcome.messageKey);
  const [row] = await tx
    .update(pubChainProjects)
    .set({ ...set, status: outcome.to, updatedAt: now })
    .where(eq(pubChainProjects.id, project.id))
    .returning();
  await tx
    .insert(pubChainProjectTransitions)
    .values({ projectId: project.id, event, actor, fromStatus: project.status, toStatus: outcome.to, createdAt: now });
  return row;
}

/** The first contract deployed from a project still to be enabled (11) publishes it (→ 15); other statuses stay. */
export async function publishOnFirstContract(tx: Tx, projectId: number, now: Date) {
  const [project] = await tx.select().from(pubChainProjects).where(eq(pubChainProjects.id, projectId)).for("update");
  if (project?.status === S.TO_BE_ENABLED) await moveProject(tx, project, "publish", "system", now);
}
