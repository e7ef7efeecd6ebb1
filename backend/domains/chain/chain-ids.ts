import { randomBytes } from "node:crypto";
import { eq, max, sql } from "drizzle-orm";
import type { Deps } from "#backend/deps.ts";
import { openWith, sealWith, type SealPurpose } from "#backend/kit/sealed.ts";
import { chains } from "./tables.ts";

/** The first embedded chain's id; the next ones count up. */
const FIRST_CHAIN_ID = 7701;

/** What the treasury holds at genesis: one billion ether. */
export const TREASURY_WEI = (10n ** 27n).toString();

export const TREASURY_KEYS: SealPurpose = { label: "bsn-chain-treasury", fallbackFile: "chain-secret" };

export type ChainInfo = { name: string; chainId: number; purpose: string; treasury: string };

/** A chain's (and a dedicated network's) name: lower-case letters, digits and dashes. */
export const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The purpose of the chains of dedicated networks (docs/decisions/046): their provisioner opens them, not the registry. */
export const DEDICATED = "dedicated";

/**
 * A dedicated network's row in the registry (docs/decisions/046): the existing one of that name, or a new one
 * with the next chain id and a treasury key of its own (sealed like the registry's). Its provisioner opens it.
 */
export async function reserveDedicatedChain(
  deps: Deps,
  name: string,
): Promise<ChainInfo & { treasuryKey: string; treasuryWei: string }> {
  if (!NAME.test(name)) throw new Error(`a chain name is lower-case letters, digits and dashes: ${name}`);
  const { privateToAddress } = await import("@ethereumjs/util");
  let [row] = await deps.db.select().from(chains).where(eq(chains.name, name));
  if (!row) {
    const key = `0x${randomBytes(32).toString("hex")}`;
    const treasury = `0x${Buffer.from(privateToAddress(Buffer.from(key.slice(2), "hex"))).toString("hex")}`;
    await insertWithNextChainId(deps.db, {
      name,
      chainId: 0,
      purpose: DEDICATED,
      treasuryAddress: treasury,
      treasuryKeySealed: sealWith(deps.env, TREASURY_KEYS, key),
      treasuryWei: TREASURY_WEI,
    });
    [row] = await deps.db.select().from(chains).where(eq(chains.name, name));
  }
  if (!row || row.purpose !== DEDICATED) throw new Error(`the chain name ${name} is taken`);
  return {
    name: row.name,
    chainId: row.chainId,
    purpose: row.purpose,
    treasury: row.treasuryAddress,
    treasuryKey: openWith(deps.env, TREASURY_KEYS, row.treasuryKeySealed),
    treasuryWei: row.treasuryWei,
  };
}

/**
 * Records a new embedded chain with the next chain id. The id is read and taken under one transaction-scoped
 * advisory lock, so two chains created at the same moment (a service's chain and a dedicated network, or two
 * processes) never share an id: blocks are logged by chain id (chain_blocks), and a shared id broke both chains.
 * Returns the inserted row, or nothing when the name already exists.
 */
export async function insertWithNextChainId(
  db: Deps["db"],
  values: typeof chains.$inferInsert,
): Promise<(typeof chains.$inferSelect)[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('chain.chainId'))`);
    const [top] = await tx.select({ id: max(chains.chainId) }).from(chains);
    const chainId = Math.max(FIRST_CHAIN_ID - 1, top?.id ?? 0) + 1;
    return tx
      .insert(chains)
      .values({ ...values, chainId })
      .onConflictDoNothing()
      .returning();
  });
}

/** A chain's public facts (an open chain's entry carries more). */
export const infoOf = (e: ChainInfo): ChainInfo => ({
  name: e.name,
  chainId: e.chainId,
  purpose: e.purpose,
  treasury: e.treasury,
});
