import { desc } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import type { BackendEnv } from "#backend/env.ts";
import { openWith, sealWith, type SealPurpose } from "#backend/kit/sealed.ts";
import chain from "#backend/domains/chain/index.ts";
import { createHash, randomBytes } from "node:crypto";
import { testNetworkGenerations } from "./tables.ts";

/**
 * The test network's current chain (docs/decisions/034): the registry's "test-network" until the first reset,
 * then the chain of the latest generation. And the keys of test services: deployer keys and endpoint keys are
 * sealed with their own purposes.
 */
export async function currentNetwork(
  db: Db | Tx,
): Promise<{ generation: number; chainName: string; resetAt: Date | null }> {
  const [row] = await db
    .select()
    .from(testNetworkGenerations)
    .orderBy(desc(testNetworkGenerations.generation))
    .limit(1);
  return row
    ? { generation: row.generation, chainName: row.chainName, resetAt: row.createdAt }
    : { generation: 1, chainName: chain.api.TEST_NETWORK, resetAt: null };
}

/** The chain name of a generation after the first. */
export const chainNameOf = (generation: number) => `${chain.api.TEST_NETWORK}-${generation}`;

const DEPLOYER_KEYS: SealPurpose = { label: "bsn-test-service-deployer-key", fallbackFile: "test-services-secret" };
const ENDPOINT_KEYS: SealPurpose = { label: "bsn-test-service-endpoint-key", fallbackFile: "test-services-secret" };

export const hashKey = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");
/** A test key: 32 random bytes, base64url (43 characters). */
export const TEST_KEY_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function newEndpointKey(env: BackendEnv) {
  const key = randomBytes(32).toString("base64url");
  return { keyHash: hashKey(key), keySealed: sealWith(env, ENDPOINT_KEYS, key) };
}
export const openEndpointKey = (env: BackendEnv, sealed: string) => openWith(env, ENDPOINT_KEYS, sealed);

export async function newDeployer(env: BackendEnv) {
  const { privateToAddress, toChecksumAddress, bytesToHex } = await import("@ethereumjs/util");
  const key = randomBytes(32);
  return {
    deployerAddress: toChecksumAddress(bytesToHex(privateToAddress(key))),
    deployerKeySealed: sealWith(env, DEPLOYER_KEYS, `0x${key.toString("hex")}`),
  };
}
const IDENTITY_KEYS: SealPurpose = { label: "bsn-test-service-identity-key", fallbackFile: "test-services-secret" };
export const sealIdentityKey = (env: BackendEnv, pem: string) => sealWith(env, IDENTITY_KEYS, pem);
export const openIdentityKey = (env: BackendEnv, sealed: string) => openWith(env, IDENTITY_KEYS, sealed);

export const openDeployerKey = (env: BackendEnv, sealed: string) => openWith(env, DEPLOYER_KEYS, sealed);

/** The endpoint path of a test key. */
export const accessPathOf = (key: string) => `/chain/test/${key}`;
