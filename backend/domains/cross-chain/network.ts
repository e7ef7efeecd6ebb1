import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { encodeAbiParameters, type Abi } from "viem";
import { CrossProtocol, OPEN_ALLIANCE_CHAIN } from "#contract/cross-chain-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { openWith, sealWith, type SealPurpose } from "#backend/kit/sealed.ts";
import chain from "#backend/domains/chain/index.ts";
import { crossChainAccounts, crossChainArtifacts, crossChainContracts } from "./tables.ts";

/*
 * The chain side of cross-chain services (docs/decisions/048): the relayer's and the services' accounts (keys
 * sealed in the database), the message contracts and samples compiled once with the chain domain's compiler
 * and kept, and their deployment on a chain (one set per chain and protocol, from the relayer's account, which
 * alone may deliver).
 */

const KEYS: SealPurpose = { label: "bsn-cross-chain-key", fallbackFile: "cross-chain-secret" };
/** Gas given to an account holding less than half of it: 10 ether of that chain (from its treasury). */
const GAS = 10n * 10n ** 18n;

const SOURCES = ["CrossChainMessenger.sol", "CrossChainSamples.sol"] as const;
export type Role = "messenger" | "inbox" | "nft" | "deposit";
/** The contracts of each protocol on a chain, by role. */
const CONTRACT_OF: Record<number, Partial<Record<Role, string>>> = {
  [CrossProtocol.ENTERPRISE]: { messenger: "InterchainHub", inbox: "MessageInbox" },
  [CrossProtocol.APP]: {
    messenger: "AppChainBridge",
    inbox: "MessageInbox",
    nft: "CrossChainNft",
    deposit: "CrossChainDeposit",
  },
};
export const ROLES_OF = (protocol: number) => Object.keys(CONTRACT_OF[protocol] ?? {}) as Role[];

export type Artifact = { abi: Abi; bytecode: string };
const artifacts = new Map<string, Artifact>();
let compiling: Promise<void> | null = null;

/**
 * Where the Solidity sources are: read from the working directory, as the DDC and the demo token are, because the
 * built server bundle (build/server) does not carry them beside itself.
 */
const SOURCE_DIR = path.join(process.cwd(), "backend/domains/cross-chain/contracts");

async function sources(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of SOURCES) out[file] = await readFile(path.join(SOURCE_DIR, file), "utf8");
  return out;
}

/** The compiled contracts: kept in the database after the first compilation of these sources, then in memory. */
export async function artifact(db: Db | Tx, name: string, now: Date): Promise<Artifact> {
  const known = artifacts.get(name);
  if (known) return known;
  compiling ??= (async () => {
    const src = await sources();
    const hash = createHash("sha256").update(JSON.stringify(src)).digest("hex");
    const kept = await db.select().from(crossChainArtifacts);
    if (kept.length && kept.every((k) => k.sourceHash === hash)) {
      for (const k of kept) artifacts.set(k.name, { abi: JSON.parse(k.abi) as Abi, bytecode: k.bytecode });
      return;
    }
    const compiled = await chain.api.compileWorkspace(src);
    if (!compiled.ok)
      throw new Error(
        `the cross-chain contracts do not compile: ${compiled.diagnostics.map((d) => d.message).join("; ")}`,
      );
    const wanted = new Set(Object.values(CONTRACT_OF).flatMap((c) => Object.values(c)));
    for (const c of compiled.contracts) {
      if (!wanted.has(c.name)) continue;
      const row = { name: c.name, sourceHash: hash, abi: JSON.stringify(c.abi), bytecode: c.bytecode, createdAt: now };
      await db
        .insert(crossChainArtifacts)
        .values(row)
        .onConflictDoUpdate({ target: crossChainArtifacts.name, set: row });
      artifacts.set(c.name, { abi: c.abi as Abi, bytecode: c.bytecode });
    }
  })().finally(() => {
    compiling = null;
  });
  await compiling;
  const found = artifacts.get(name);
  if (!found) throw new Error(`no compiled contract ${name}`);
  return found;
}

export type Account = { address: string; key: string };

/** An account of the domain by name ("relayer", "sender:<appId>"), made on first use. */
export async function account(db: Db | Tx, env: Deps["env"], name: string, now: Date): Promise<Account> {
  const [known] = await db.select().from(crossChainAccounts).where(eq(crossChainAccounts.name, name));
  if (known) return { address: known.address, key: openWith(env, KEYS, known.keySealed) };
  const { privateToAddress, toChecksumAddress, bytesToHex } = await import("@ethereumjs/util");
  const key = randomBytes(32);
  const address = toChecksumAddress(bytesToHex(privateToAddress(key)));
  await db
    .insert(crossChainAccounts)
    .values({ name, address, keySealed: sealWith(env, KEYS, `0x${key.toString("hex")}`), createdAt: now })
    .onConflictDoNothing();
  const [saved] = await db.select().from(crossChainAccounts).where(eq(crossChainAccounts.name, name));
  return { address: saved!.address, key: openWith(env, KEYS, saved!.keySealed) };
}

const relayers = new WeakMap<Deps["env"], Promise<Account>>();
/** The relayer's account, kept in memory once read. */
export function relayerAccount(deps: Deps): Promise<Account> {
  let known = relayers.get(deps.env);
  if (!known) {
    known = account(deps.db, deps.env, "relayer", deps.now());
    known.catch(() => relayers.delete(deps.env));
    relayers.set(deps.env, known);
  }
  return known;
}
export const senderAccount = (deps: Deps, appId: number) => account(deps.db, deps.env, `sender:${appId}`, deps.now());

/** Tops up an account's gas on a chain from that chain's treasury when it holds less than half of GAS. */
export async function ensureGas(deps: Deps, chainName: string, address: string) {
  const balance = BigInt(
    (await chain.api.request(deps, chainName, { method: "eth_getBalance", params: [address, "latest"] })) as string,
  );
  if (balance < GAS / 2n) await chain.api.fund(deps, chainName, address, GAS);
}

export type ChainContracts = Partial<Record<Role, string>>;

/** The contracts of `protocol` on a chain (empty when none is deployed). */
export async function contractsOn(db: Db | Tx, chainName: string, protocol: number): Promise<ChainContracts> {
  const rows = await db
    .select()
    .from(crossChainContracts)
    .where(and(eq(crossChainContracts.chainName, chainName), eq(crossChainContracts.protocol, protocol)));
  return Object.fromEntries(rows.map((r) => [r.role, r.address])) as ChainContracts;
}

/** The deployments under way, per service (its configuration) and chain and protocol: one at a time. */
const deployingByEnv = new WeakMap<Deps["env"], Map<string, Promise<ChainContracts>>>();

/**
 * Deploys the protocol's set on a chain unless it is there: the messenger from the relayer's account, then the
 * inbox and samples, each given the messenger's address. A set half made (a crash) is completed.
 */
export function deploySet(deps: Deps, chainName: string, protocol: number): Promise<ChainContracts> {
  const key = `${chainName}:${protocol}`;
  const deploying = deployingByEnv.get(deps.env) ?? new Map<string, Promise<ChainContracts>>();
  deployingByEnv.set(deps.env, deploying);
  const running = deploying.get(key);
  if (running) return running;
  const work = (async () => {
    const have = await contractsOn(deps.db, chainName, protocol);
    const roles = ROLES_OF(protocol);
    if (roles.every((r) => have[r])) return have;
    const relayer = await relayerAccount(deps);
    await ensureGas(deps, chainName, relayer.address);
    const info = await chainInfo(deps, chainName);
    for (const role of roles) {
      if (have[role]) continue;
      const a = await artifact(deps.db, CONTRACT_OF[protocol]![role]!, deps.now());
      const args =
        role === "messenger"
          ? ""
          : encodeAbiParameters([{ type: "address" }], [have.messenger as `0x${string}`]).slice(2);
      const deployed = await chain.api.deploy(deps, chainName, relayer.key, `${a.bytecode}${args}`);
      await deps.db
        .insert(crossChainContracts)
        .values({
          chainName,
          protocol,
          role,
          chainId: info.chainId,
          address: deployed.address,
          txHash: deployed.txHash,
          createdAt: deps.now(),
        })
        .onConflictDoNothing();
      have[role] = deployed.address;
    }
    return have;
  })().finally(() => deploying.delete(key));
  deploying.set(key, work);
  return work;
}

/** A chain of the registry by name: the open-alliance chain, or a service's chain (the registry returns it as is). */
export async function chainInfo(deps: Deps, chainName: string) {
  if (chainName === OPEN_ALLIANCE_CHAIN) return chain.api.chain(deps, chainName);
  return chain.api.createChain(deps, { name: chainName, purpose: "consortium" });
}

/** Activation deploys on the service's chain and on the open-alliance chain (which every service may reach). */
export async function deployForService(deps: Deps, chainName: string, protocol: number) {
  await deploySet(deps, chainName, protocol);
  await deploySet(deps, OPEN_ALLIANCE_CHAIN, protocol);
}

/** A transaction's receipt, polled briefly (the embedded engine answers once the transaction is sealed). */
export async function receiptOf(
  deps: Deps,
  chainName: string,
  hash: string,
): Promise<{ status: string; blockNumber: string; logs: { address: string; topics: string[]; data: string }[] }> {
  for (let i = 0; i < 200; i++) {
    const r = await chain.api.request(deps, chainName, { method: "eth_getTransactionReceipt", params: [hash] });
    if (r)
      return r as { status: string; blockNumber: string; logs: { address: string; topics: string[]; data: string }[] };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no receipt for ${hash}`);
}
