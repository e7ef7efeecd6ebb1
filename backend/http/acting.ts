import { AsyncLocalStorage } from "node:async_hooks";
import type { TeamRole } from "#contract/team-roles.ts";

/**
 * The member acting in a call (docs/decisions/080): the router runs every signed-in handler inside it, so the
 * one ledger (billing `post`) knows whose action a charge is without every domain passing it along. Jobs and
 * anonymous calls run outside it (no member: the account's own charge, no spending limit).
 */
export type Acting = { accountId: number; memberId: number; role: TeamRole };

const store = new AsyncLocalStorage<Acting>();

/** Runs `fn` as the member acting for the account. */
export function runActing<T>(acting: Acting | null, fn: () => Promise<T>): Promise<T> {
  return acting ? store.run(acting, fn) : fn();
}

/** The member acting for `accountId` in this call, or null (a job, another account's posting, no call). */
export function actingFor(accountId: number): Acting | null {
  const a = store.getStore();
  return a && a.accountId === accountId ? a : null;
}

/** The member acting in this call, whatever account a write is for; null outside a signed-in call. */
export function currentActing(): Acting | null {
  return store.getStore() ?? null;
}
