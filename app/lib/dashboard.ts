import { VerState } from "#contract/service-status.ts";

/**
 * The console home's service groups (docs/decisions/029): the §4 statuses a person acts on in the same way,
 * in the order they read them. Every status belongs to exactly one group.
 */
export const SERVICE_GROUPS = {
  running: [VerState.RUNNING, VerState.PENDING_PUBLISH],
  actionNeeded: [
    VerState.TO_BE_PAID,
    VerState.TEST_FAILED,
    VerState.INITIAL_REVIEW_REJECTED,
    VerState.REVIEW_REJECTED,
    VerState.PUBLISH_FAILED,
  ],
  inReview: [VerState.PENDING_INITIAL_REVIEW, VerState.PENDING_TEST, VerState.PENDING_REVIEW],
  stopped: [VerState.DEACTIVATED, VerState.DEACTIVATED_BY_OPERATOR, VerState.UNINSTALLED],
  drafts: [VerState.PENDING_SUBMIT],
} as const;
export type ServiceGroup = keyof typeof SERVICE_GROUPS;

/** Counts by §4 status folded into the groups; `drafts` counts every draft (an upgrade's too), not only new services'. */
export function groupServices(
  byState: readonly { verState: number; count: number }[],
  drafts: number,
): { group: ServiceGroup; count: number }[] {
  return (Object.keys(SERVICE_GROUPS) as ServiceGroup[]).map((group) => ({
    group,
    count:
      group === "drafts"
        ? drafts
        : byState
            .filter((s) => (SERVICE_GROUPS[group] as readonly number[]).includes(s.verState))
            .reduce((sum, s) => sum + s.count, 0),
  }));
}

/** MB as GB with two decimals (1 GB = 1024 MB, as the bills count). */
export const mbToGbText = (mb: number) => (mb / 1024).toFixed(2);

/** The operations queue a tab shows: the last segment of its path (OPERATIONS_QUEUES in app/lib/menu.ts). */
export const queueOf = (to: string) => to.slice(to.lastIndexOf("/") + 1);
