import { and, eq, inArray } from "drizzle-orm";
import { getAddress } from "viem";
import { DdcStatus, type Ddc } from "#contract/ddc.ts";
import { Msg } from "#contract/messages.ts";
import { ProjectStatus } from "#contract/public-chain-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import chain from "#backend/domains/chain/index.ts";
import { chains } from "#backend/domains/chain/tables.ts";
import { pubChainAccounts, pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { ownerOnChain, transfersOnChain } from "#backend/domains/ddc/collection.ts";
import { ddcCollections, ddcs } from "#backend/domains/ddc/tables.ts";

/** DDC handlers (contract/ddc.ts; docs/decisions/045). */

export type Ctx = SignedInContext;

export type Row = typeof ddcs.$inferSelect;

/** Projects whose chain is provisioned and that are not deactivated may mint (as they may deploy contracts). */
export const MINTABLE: readonly number[] = [
  ProjectStatus.TO_BE_ENABLED,
  ProjectStatus.PUBLISHED,
  ProjectStatus.ENABLED,
];

export const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1_000);

export async function ownDdc(db: Db | Tx, userId: number, ddcId: number) {
  const [row] = await db
    .select()
    .from(ddcs)
    .where(and(eq(ddcs.id, ddcId), eq(ddcs.userId, userId)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

/** The rows as the contract shows them (project, account, collection, chain id joined). */
export async function out(db: Db | Tx, rows: Row[]): Promise<Ddc[]> {
  if (!rows.length) return [];
  const projectIds = [...new Set(rows.map((r) => r.projectId))];
  const projects = await db
    .select({ id: pubChainProjects.id, name: pubChainProjects.name, chainId: chains.chainId })
    .from(pubChainProjects)
    .leftJoin(chains, eq(chains.name, pubChainProjects.chain))
    .where(inArray(pubChainProjects.id, projectIds));
  const accounts = await db
    .select({ id: pubChainAccounts.id, name: pubChainAccounts.name, address: pubChainAccounts.address })
    .from(pubChainAccounts)
    .where(inArray(pubChainAccounts.id, [...new Set(rows.map((r) => r.accountId))]));
  const collections = await db.select().from(ddcCollections).where(inArray(ddcCollections.projectId, projectIds));
  return rows.map((r) => {
    const p = projects.find((x) => x.id === r.projectId);
    const a = accounts.find((x) => x.id === r.accountId);
    const c = collections.find((x) => x.projectId === r.projectId);
    return {
      ddcId: r.id,
      tokenId: String(r.id),
      name: r.name,
      description: r.description,
      metadata: r.metadata,
      projectId: r.projectId,
      projectName: p?.name ?? "",
      accountId: r.accountId,
      accountName: a?.name ?? "",
      accountAddress: a?.address ?? "",
      fileName: r.fileName,
      fileMime: r.fileMime,
      fileSize: r.fileSize,
      storage: r.fileCid ? "ipfs" : "product",
      fileCid: r.fileCid,
      tokenUri: r.tokenUri,
      contractAddress: r.status === DdcStatus.MINTED ? (c?.address ?? null) : null,
      chainId: p?.chainId ?? null,
      status: r.status,
      failReason: r.failReason,
      mintTxHash: r.mintTxHash,
      mintBlock: r.mintBlock,
      billId: r.billId,
      passwordSet: r.passwordHash !== null,
      createdAt: r.createdAt.toISOString(),
      mintedAt: r.mintedAt?.toISOString() ?? null,
    };
  });
}

export async function gasOf(deps: Deps, chainName: string, address: string) {
  return BigInt(
    String(await chain.api.request(deps, chainName, { method: "eth_getBalance", params: [address, "latest"] })),
  );
}

/** The DDC's collection and chain, when it is minted. */
export async function onChain(db: Db | Tx, row: Row) {
  if (row.status !== DdcStatus.MINTED || !row.collectionId) return null;
  const [found] = await db
    .select({ collection: ddcCollections, chain: pubChainProjects.chain })
    .from(ddcCollections)
    .innerJoin(pubChainProjects, eq(pubChainProjects.id, ddcCollections.projectId))
    .where(eq(ddcCollections.id, row.collectionId));
  return found ?? null;
}

/** The owner read with ownerOf and the history from the chain's Transfer events. */
export async function chainView(deps: Deps, row: Row) {
  const where = await onChain(deps.db, row);
  if (!where) return { owner: null, history: [] };
  const tokenId = BigInt(row.id);
  const [owner, history] = await Promise.all([
    ownerOnChain(deps, where.chain, where.collection.address, tokenId),
    transfersOnChain(deps, where.chain, where.collection.address, tokenId, where.collection.blockNumber),
  ]);
  return {
    owner: owner ? getAddress(owner) : null,
    history: history.map((h) => ({ ...h, from: getAddress(h.from), to: getAddress(h.to) })),
  };
}
