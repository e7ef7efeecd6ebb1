import type { Db, Tx } from "#backend/db/client.ts";

/**
 * The write of a service's cross-chain state (its `apps` row belongs to the services domain, docs/decisions/018):
 * services hands its `saveCrossChainState` operation in at start (cross-chain api `saveServiceStateWith`), since
 * services cannot be imported here (services → billing → cross-chain would make a cycle).
 */
export type SaveServiceState = (
  q: Db | Tx,
  appId: number,
  state: { crossStatus: number; crossChain?: boolean; crossProtocol?: number | null; crossAppCode?: string | null },
  now: Date,
) => Promise<void>;

let save: SaveServiceState | null = null;

/** Registered by the services domain at start. */
export function saveServiceStateWith(operation: SaveServiceState): void {
  save = operation;
}

/** Moves a service's cross-chain status (and the flags that go with it) through the services domain. */
export const saveServiceState: SaveServiceState = (q, appId, state, now) => {
  if (!save) throw new Error("cross-chain: the services domain has not registered saveCrossChainState");
  return save(q, appId, state, now);
};
