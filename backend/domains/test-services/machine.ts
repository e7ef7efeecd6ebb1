import { eq } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { defineMachine } from "#contract/state-machine.ts";
import {
  TEST_SERVICE_STATUSES,
  TestServiceStatus as S,
  type TestServiceStatusCode,
} from "#contract/test-services-codes.ts";
import type { Tx } from "#backend/db/client.ts";
import { ApiError } from "#backend/http/errors.ts";
import { testServiceTransitions, testServices } from "./tables.ts";

/**
 * A test service (SPEC §4: 5 deploying, 10 successful, 15 failed; docs/decisions/034 adds 1 not deployed and
 * 20 to re-deploy after a test-network reset):
 *
 * | event       | actor    | from           | to |
 * |-------------|----------|----------------|----|
 * | edit        | user     | 1, 15, 20      | =  |
 * | deploy      | user     | 1              | 5  |
 * | upgrade     | user     | 10             | 5  |
 * | redeploy    | user     | 10, 15, 20     | 5  |
 * | deployOk    | system   | 5              | 10 |
 * | deployFail  | system   | 5              | 15 |
 * | reset       | operator | 5, 10          | 20 |
 * | delete      | user     | 1, 10, 15, 20  | —  |
 *
 * Nothing moves a service while it deploys except its job and a reset.
 */
export type TestServiceEvent =
  "edit" | "deploy" | "upgrade" | "redeploy" | "deployOk" | "deployFail" | "reset" | "delete";
export type TestServiceActor = "user" | "system" | "operator";

export const testServiceMachine = defineMachine<
  TestServiceStatusCode,
  TestServiceEvent,
  TestServiceActor,
  { comments?: string | null }
>({
  name: "test service",
  states: TEST_SERVICE_STATUSES,
  actors: ["user", "system", "operator"],
  rules: [
    { event: "edit", actor: "user", from: [S.NOT_DEPLOYED, S.FAILED, S.TO_REDEPLOY], to: (_ctx, from) => from },
    { event: "deploy", actor: "user", from: [S.NOT_DEPLOYED], to: S.DEPLOYING },
    { event: "upgrade", actor: "user", from: [S.DEPLOYED], to: S.DEPLOYING },
    { event: "redeploy", actor: "user", from: [S.DEPLOYED, S.FAILED, S.TO_REDEPLOY], to: S.DEPLOYING },
    { event: "deployOk", actor: "system", from: [S.DEPLOYING], to: S.DEPLOYED },
    { event: "deployFail", actor: "system", from: [S.DEPLOYING], to: S.FAILED },
    { event: "reset", actor: "operator", from: [S.DEPLOYING, S.DEPLOYED], to: S.TO_REDEPLOY },
    {
      event: "delete",
      actor: "user",
      from: [S.NOT_DEPLOYED, S.DEPLOYED, S.FAILED, S.TO_REDEPLOY],
      to: (_ctx, from) => from,
    },
  ],
  refusals: {
    notAvailable: Msg.TEST_SERVICE_ACTION_NOT_AVAILABLE,
    notAllowed: Msg.TEST_SERVICE_ACTION_NOT_AVAILABLE,
    commentsRequired: Msg.COMMENTS_REQUIRED,
  },
});

export type TestServiceRow = typeof testServices.$inferSelect;

/** Checks that `event` is allowed from the service's status (throws the refusal), and answers the status it leads to. */
export function allowed(row: TestServiceRow, event: TestServiceEvent, actor: TestServiceActor): TestServiceStatusCode {
  const outcome = testServiceMachine.transition(row.status as TestServiceStatusCode, event, actor);
  if (!outcome.ok) throw new ApiError(outcome.messageKey);
  return outcome.to;
}

/** Applies a move inside `tx`, with its transition record. */
export async function moveTestService(
  tx: Tx,
  row: TestServiceRow,
  event: TestServiceEvent,
  actor: TestServiceActor,
  now: Date,
  set: Partial<TestServiceRow> = {},
) {
  const to = allowed(row, event, actor);
  const [moved] = await tx
    .update(testServices)
    .set({ ...set, status: to, updatedAt: now })
    .where(eq(testServices.id, row.id))
    .returning();
  await tx
    .insert(testServiceTransitions)
    .values({ testServiceId: row.id, event, actor, fromStatus: row.status, toStatus: to, createdAt: now });
  return moved!;
}
