import { PRN_HOST_CONFIG_CODES, type PrnHostConfig } from "./dedicated-nodes-codes.ts";

/**
 * The limits a dedicated network's nodes enforce (docs/decisions/074), from the project's host configuration and
 * data capacity: a request rate per node and a storage limit per node. The provisioner's gateway answers 429 with
 * a JSON-RPC error above the rate (calls counted over a window of `PRN_RATE_WINDOW_SECONDS`), and refuses
 * transactions while the orderer's stored data is over the storage limit. Without Zod, for browser code too.
 */

/** The window the request rate is counted in: a node takes `requestsPerSecond × window` calls in any such window. */
export const PRN_RATE_WINDOW_SECONDS = 10;

const GIB = 1024 ** 3;

/** Per host configuration: JSON-RPC calls per second per node, and the host's own disk for node state (GB). */
export const PRN_HOST_LIMITS: Record<PrnHostConfig, { requestsPerSecond: number; storageGb: number }> = {
  c2m4: { requestsPerSecond: 10, storageGb: 10 },
  c4m8: { requestsPerSecond: 25, storageGb: 20 },
  c8m16: { requestsPerSecond: 50, storageGb: 40 },
};

/** What each node of a network enforces. */
export type PrnNodeLimits = { requestsPerSecond: number; storageBytes: number };

const isHost = (code: string): code is PrnHostConfig => (PRN_HOST_CONFIG_CODES as readonly string[]).includes(code);

/**
 * The limits of a node on `hostConfig` with `dataCapacityGb` of data disk: the host's rate, and a storage limit of
 * the host's disk plus the data capacity. Null for an unknown host configuration or a capacity that is not a
 * positive whole number of GB.
 */
export function prnNodeLimits(hostConfig: string, dataCapacityGb: number): PrnNodeLimits | null {
  if (!isHost(hostConfig) || !Number.isInteger(dataCapacityGb) || dataCapacityGb <= 0) return null;
  const host = PRN_HOST_LIMITS[hostConfig];
  return { requestsPerSecond: host.requestsPerSecond, storageBytes: (host.storageGb + dataCapacityGb) * GIB };
}

/** The calls a node takes in one window. */
export const prnCallsPerWindow = (limits: PrnNodeLimits) => limits.requestsPerSecond * PRN_RATE_WINDOW_SECONDS;
