import type { SubmissionResult } from "@conform-to/react";

/** What the service wizard's actions answer: the intent of the form and its result. */
export type ActionData = { intent: string; result: SubmissionResult<string[]> };

/** The last result of the form with this intent (each form of a step has its own). */
export function resultFor(actionData: ActionData | undefined, intent: string) {
  return actionData && actionData.intent === intent ? actionData.result : undefined;
}
