import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { encodeDeployData, type Abi } from "viem";
import { isEvmFramework, SERVICE_RPC_PREFIX } from "#contract/service-codes.ts";
export { SERVICE_RPC_PREFIX };
import { VerState } from "#contract/service-status.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import type { BackendEnv } from "#backend/env.ts";
import { openWith, sealWith, type SealPurpose } from "#backend/kit/sealed.ts";
import { chooseContract, constructorArgs } from "#backend/kit/solidity.ts";
import chain from "#backend/domains/chain/index.ts";
import { solidityFilesOfPackage } from "./inspect.ts";
import {
  appVersions,
  apps,
  chaincodePackages,
  serviceChainContracts,
  serviceChainKeys,
  serviceChains,
} from "./tables.ts";

/*
 * Consortium services on their own chain (docs/decisions/038). A FISCO BCOS, CITA or XuperChain service runs its Solidity
 * chaincode on an EVM chain of the registry (backend/domains/chain), one per service, started by the deploy job
 * (24 → 25 / 26): each Solidity package is compiled for real and its contract created from the service's
 * deployer account, whose gas comes from the chain's treasury; XuperChain too, on the same EVM engine
 * (docs/decisions/052). Fabric keeps the booking of docs/decisions/012 until the Fabric peer exists. Users
 * reach the chain through /chain/service/<key>, or /chain/service/<city node code>/<key>, with a key of their own.
 */

const DEPLOYER_KEYS: SealPurpose = { label: "bsn-service-chain-deployer-key", fallbackFile: "service-chain-secret" };
const ENDPOINT_KEYS: SealPurpose = { label: "bsn-service-chain-endpoint-key", fallbackFile: "service-chain-secret" };
/** The gas a deployer is given when it holds less than half of it: 10 ether of the service's chain. */
const DEPLOYER_GAS = 10n * 10n ** 18n;

/** An endpoint key: 32 random bytes, base64url (43 characters). */
export const SERVICE_KEY_SHAPE = /^[A-Za-z0-9_-]{43}$/;
export const hashServiceKey = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

/** The registry name of a service's chain: its app code, lower-case. */
export const serviceChainName = (appCode: string) => `svc-${appCode.toLowerCase()}`;

export type ChainDeployment =
  | {
      ok: true;
      chainName: string;
      chainId: number;
      contracts: {
        packageId: number;
        packageName: string;
        contractName: string;
        address: string;
        txHash: string;
        blockNumber: number;
        abi: unknown[];
      }[];
    }
  | { ok: false; reason: string };

/** The contract name a package names by its main path ("contracts/Ledger.sol" → "Ledger"), when the sources have it. */
function mainOf(mainPath: string, names: string[]) {
  const base =
    mainPath
      .split("/")
      .pop()
      ?.replace(/\.sol$/i, "") ?? "";
  return names.includes(base) ? base : "";
}

/** The service's chain and deployer, made on its first deployment (the registry returns an existing chain as is). */
async function chainOf(deps: Deps, app: { id: number; appCode: string }) {
  const [known] = await deps.db.select().from(serviceChains).where(eq(serviceChains.appId, app.id));
  const info = await chain.api.createChain(deps, {
    name: known?.chainName ?? serviceChainName(app.appCode),
    purpose: "consortium",
  });
  if (known) return { ...known, deployerKey: openWith(deps.env, DEPLOYER_KEYS, known.deployerKeySealed) };
  const { privateToAddress, toChecksumAddress, bytesToHex } = await import("@ethereumjs/util");
  const key = randomBytes(32);
  const row = {
    appId: app.id,
    chainName: info.name,
    chainId: info.chainId,
    deployerAddress: toChecksumAddress(bytesToHex(privateToAddress(key))),
    deployerKeySealed: sealWith(deps.env, DEPLOYER_KEYS, `0x${key.toString("hex")}`),
    createdAt: deps.now(),
  };
  await deps.db.insert(serviceChains).values(row).onConflictDoNothing();
  const [saved] = await deps.db.select().from(serviceChains).where(eq(serviceChains.appId, app.id));
  return { ...saved!, deployerKey: openWith(deps.env, DEPLOYER_KEYS, saved!.deployerKeySealed) };
}

/**
 * The chain part of deploying version `verId` (outside any transaction: compiling and mining take their time):
 * null when the service does not run on a chain of its own (not EVM, or no Solidity package), else every
 * Solidity package deployed, or the first reason why not (the compiler's, the init params', the chain's).
 * A package already deployed for this version (a job run again after a crash) keeps its contract. `states`:
 * the version's states it works in (the deploy job: 24; the one-time backfill of evm-backfill.ts: running ones).
 */
export async function deployOnServiceChain(
  verId: number,
  deps: Deps,
  states: readonly number[] = [VerState.PENDING_PUBLISH],
): Promise<ChainDeployment | null> {
  // One deployment of a version at a time in this process: the deploy job and a caller running it inline (the
  // test fixture, the one-time backfill) would otherwise race for the deployer's nonce and the chain's creation,
  // and the loser's refusal would fail a deployment that succeeds. The second waits, then finds the contracts.
  const before = deploying.get(verId) ?? Promise.resolve();
  const mine = before.then(() => deployOnce(verId, deps, states));
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  deploying.set(verId, settled);
  void settled.then(() => {
    if (deploying.get(verId) === settled) deploying.delete(verId);
  });
  return mine;
}

const deploying = new Map<number, Promise<void>>();

async function deployOnce(verId: number, deps: Deps, states: readonly number[]): Promise<ChainDeployment | null> {
  const [row] = await deps.db
    .select({ version: appVersions, app: apps })
    .from(appVersions)
    .innerJoin(apps, eq(apps.id, appVersions.appId))
    .where(eq(appVersions.id, verId));
  if (!row || !states.includes(row.version.verState) || !isEvmFramework(row.app.framework)) return null;
  const packages = (
    await deps.db
      .select()
      .from(chaincodePackages)
      .where(eq(chaincodePackages.verId, verId))
      .orderBy(asc(chaincodePackages.id))
  ).filter((p) => p.language === "solidity");
  if (!packages.length) return null;
  let target;
  try {
    target = await chainOf(deps, row.app);
  } catch (error) {
    return {
      ok: false,
      reason: `the service's chain could not start: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const done = await deps.db.select().from(serviceChainContracts).where(eq(serviceChainContracts.verId, verId));
  const contracts = [];
  for (const pkg of packages) {
    const existing = done.find((d) => d.packageId === pkg.id);
    if (existing) {
      contracts.push({
        packageId: pkg.id,
        packageName: pkg.name,
        contractName: existing.contractName,
        address: existing.address,
        txHash: existing.txHash,
        blockNumber: existing.blockNumber,
        abi: existing.abi,
      });
      continue;
    }
    const file = await deps.files.read(deps.db, pkg.fileId);
    if (!file) return { ok: false, reason: `${pkg.name}: the package file is missing` };
    const compiled = await chain.api.compile(solidityFilesOfPackage(new Uint8Array(file.bytes)));
    if (!compiled.ok) return { ok: false, reason: `${pkg.name}: ${compiled.errors.join("\n")}`.slice(0, 4000) };
    const chosen = chooseContract(
      compiled.contracts,
      mainOf(
        pkg.mainPath,
        compiled.contracts.map((c) => c.name),
      ),
    );
    if ("reason" in chosen) return { ok: false, reason: `${pkg.name}: ${chosen.reason}` };
    const args = constructorArgs(chosen.contract.abi, pkg.initParams);
    if ("reason" in args) return { ok: false, reason: `${pkg.name}: ${args.reason}` };
    try {
      const data = encodeDeployData({
        abi: chosen.contract.abi as Abi,
        bytecode: chosen.contract.bytecode as `0x${string}`,
        args: args.args,
      });
      const balance = BigInt(
        (await chain.api.request(deps, target.chainName, {
          method: "eth_getBalance",
          params: [target.deployerAddress, "latest"],
        })) as string,
      );
      if (balance < DEPLOYER_GAS / 2n)
        await chain.api.fund(deps, target.chainName, target.deployerAddress, DEPLOYER_GAS);
      const deployed = await chain.api.deploy(deps, target.chainName, target.deployerKey, data);
      const contract = {
        packageId: pkg.id,
        packageName: pkg.name,
        contractName: chosen.contract.name,
        address: deployed.address,
        txHash: deployed.txHash,
        blockNumber: deployed.blockNumber,
        abi: chosen.contract.abi,
      };
      await deps.db
        .insert(serviceChainContracts)
        .values({ verId, ...contract, createdAt: deps.now() })
        .onConflictDoNothing();
      contracts.push(contract);
    } catch (error) {
      return {
        ok: false,
        reason:
          `${pkg.name}: the service's chain refused the deployment: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`.slice(
            0,
            2000,
          ),
      };
    }
  }
  return { ok: true, chainName: target.chainName, chainId: target.chainId, contracts };
}

/** What a page shows of a service's chain: its id, the contracts of `verId`, and the endpoint with `userId`'s key. */
export async function serviceChainView(
  db: Db | Tx,
  env: BackendEnv,
  appId: number,
  verId: number,
  userId: number,
  now: Date,
) {
  const [known] = await db.select().from(serviceChains).where(eq(serviceChains.appId, appId));
  if (!known) return null;
  const contracts = await db
    .select({
      packageName: chaincodePackages.name,
      contractName: serviceChainContracts.contractName,
      address: serviceChainContracts.address,
      txHash: serviceChainContracts.txHash,
      blockNumber: serviceChainContracts.blockNumber,
    })
    .from(serviceChainContracts)
    .innerJoin(chaincodePackages, eq(chaincodePackages.id, serviceChainContracts.packageId))
    .where(eq(serviceChainContracts.verId, verId))
    .orderBy(asc(serviceChainContracts.id));
  const key = await keyOf(db, env, appId, userId, now);
  return {
    chainName: known.chainName,
    chainId: known.chainId,
    endpointPath: `${SERVICE_RPC_PREFIX}${key}`,
    key,
    contracts,
  };
}

/** `userId`'s key to the service's chain, made on first use. */
async function keyOf(db: Db | Tx, env: BackendEnv, appId: number, userId: number, now: Date): Promise<string> {
  const [known] = await db
    .select()
    .from(serviceChainKeys)
    .where(and(eq(serviceChainKeys.appId, appId), eq(serviceChainKeys.userId, userId)));
  if (known) return openWith(env, ENDPOINT_KEYS, known.keySealed);
  const key = randomBytes(32).toString("base64url");
  await db
    .insert(serviceChainKeys)
    .values({
      appId,
      userId,
      keyHash: hashServiceKey(key),
      keySealed: sealWith(env, ENDPOINT_KEYS, key),
      createdAt: now,
    })
    .onConflictDoNothing();
  const [saved] = await db
    .select()
    .from(serviceChainKeys)
    .where(and(eq(serviceChainKeys.appId, appId), eq(serviceChainKeys.userId, userId)));
  return openWith(env, ENDPOINT_KEYS, saved!.keySealed);
}
