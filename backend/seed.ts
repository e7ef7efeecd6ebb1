import type { Deps } from "./deps.ts";
import type { Domain } from "./kit/domain.ts";
import accounts from "./domains/accounts/index.ts";
import { DemoTimeline } from "./kit/demo-timeline.ts";

/**
 * Demo data (only when asked for: docs/decisions/018): the demo accounts, then each domain's demo records
 * for the accounts created just now, in the order of the domain list. An existing database that already
 * has the demo accounts is left as it is.
 */
export async function seedDemoData(deps: Deps, domains: readonly Domain[]): Promise<Record<string, number>> {
  // The wall clock, not deps.now(): a test that moves its clock later must find the demo records as they were seeded.
  const now = new Date();
  const created = await accounts.api.createDemoAccounts(deps.db, now);
  if (Object.keys(created).length === 0) return created;
  // The ledger entries of all domains in time order, so "balance after" chains (docs/decisions/028).
  const timeline = new DemoTimeline();
  for (const domain of domains) await domain.seedDemo?.(deps, created, now, timeline);
  await deps.db.transaction((tx) => timeline.finish(tx));
  return created;
}
