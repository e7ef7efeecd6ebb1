import { and, count, desc, eq, gt, inArray } from "drizzle-orm";
import { ContractStatus } from "#contract/contracts-codes.ts";
import { IDE_GRANT_MINUTES } from "#contract/ide-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { pubChainContracts } from "#backend/domains/contracts/tables.ts";
import { pubChainAccounts, pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { ideDeployments, ideFiles, ideGrants, ideTestDeployments, ideWorkspaces } from "#backend/domains/ide/tables.ts";

/** The online IDE's handlers (contract/ide.ts; docs/decisions/044). */

export type Ctx = SignedInContext;

export type Workspace = typeof ideWorkspaces.$inferSelect;

type File = typeof ideFiles.$inferSelect;

export const GRANT_MS = IDE_GRANT_MINUTES * 60_000;

/** The caller's IDE authorisation for this session: refused with §8 MSG_20016 once expired, else renewed. */
export async function requireGrant(ctx: Ctx): Promise<Date> {
  const now = ctx.deps.now();
  const expiresAt = new Date(now.getTime() + GRANT_MS);
  const [renewed] = await ctx.deps.db
    .update(ideGrants)
    .set({ expiresAt })
    .where(and(eq(ideGrants.tokenHash, ctx.tokenHash), eq(ideGrants.userId, ctx.user.id), gt(ideGrants.expiresAt, now)))
    .returning();
  if (!renewed) throw new ApiError(Msg.IDE_AUTH_EXPIRED);
  return expiresAt;
}

export async function ownWorkspace(db: Db | Tx, userId: number, workspaceId: number, lock = false): Promise<Workspace> {
  const q = db
    .select()
    .from(ideWorkspaces)
    .where(and(eq(ideWorkspaces.id, workspaceId), eq(ideWorkspaces.userId, userId)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

export async function ownFile(db: Db | Tx, workspaceId: number, fileId: number): Promise<File> {
  const [row] = await db
    .select()
    .from(ideFiles)
    .where(and(eq(ideFiles.id, fileId), eq(ideFiles.workspaceId, workspaceId)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

export const fileOut = (f: File) => ({
  fileId: f.id,
  path: f.path,
  folder: f.folder,
  content: f.content,
  updatedAt: f.updatedAt.toISOString(),
});

export async function workspaceOut(db: Db | Tx, w: Workspace) {
  const [{ files }] = await db
    .select({ files: count() })
    .from(ideFiles)
    .where(and(eq(ideFiles.workspaceId, w.id), eq(ideFiles.folder, false)));
  return {
    workspaceId: w.id,
    name: w.name,
    templateId: w.templateId,
    files,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

/** The deployments made from a workspace, read through the contracts domain's tables, newest first. */
export async function deploymentsOf(db: Db | Tx, workspaceId: number, contractIds?: number[]) {
  const rows = await db
    .select({
      d: ideDeployments,
      c: pubChainContracts,
      projectName: pubChainProjects.name,
      chainName: pubChainProjects.chain,
      accountName: pubChainAccounts.name,
    })
    .from(ideDeployments)
    .innerJoin(pubChainContracts, eq(pubChainContracts.id, ideDeployments.contractId))
    .innerJoin(pubChainProjects, eq(pubChainProjects.id, pubChainContracts.projectId))
    .innerJoin(pubChainAccounts, eq(pubChainAccounts.id, pubChainContracts.accountId))
    .where(
      contractIds
        ? and(eq(ideDeployments.workspaceId, workspaceId), inArray(ideDeployments.contractId, contractIds))
        : eq(ideDeployments.workspaceId, workspaceId),
    )
    .orderBy(desc(ideDeployments.id))
    .limit(50);
  const projectRows = rows.map(({ d, c, projectName, accountName, chainName }) => ({
    network: "project" as const,
    chainName,
    contractId: c.id,
    file: d.file,
    name: d.name,
    projectId: c.projectId,
    projectName,
    accountId: c.accountId,
    accountName,
    status: c.status,
    failReason: c.failReason,
    address: c.address,
    txHash: c.status === ContractStatus.PENDING ? null : c.txHash,
    blockNumber: c.blockNumber,
    abi: c.abi ?? [],
    createdAt: d.createdAt.toISOString(),
  }));
  if (contractIds) return projectRows;
  return [...projectRows, ...(await testDeploymentsOf(db, workspaceId))]
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, 50);
}

export type TestDeployment = typeof ideTestDeployments.$inferSelect;

export const testOut = (t: TestDeployment) => ({
  network: "test" as const,
  chainName: t.chainName,
  contractId: t.id,
  file: t.file,
  name: t.name,
  projectId: null,
  projectName: null,
  accountId: null,
  accountName: t.deployer,
  status: t.status,
  failReason: t.failReason,
  address: t.address,
  txHash: t.txHash,
  blockNumber: t.blockNumber,
  abi: t.abi,
  createdAt: t.createdAt.toISOString(),
});

/** The workspace's deployments to the test network (docs/decisions/044 addendum), newest first. */
async function testDeploymentsOf(db: Db | Tx, workspaceId: number) {
  const rows = await db
    .select()
    .from(ideTestDeployments)
    .where(eq(ideTestDeployments.workspaceId, workspaceId))
    .orderBy(desc(ideTestDeployments.id))
    .limit(50);
  return rows.map(testOut);
}

export const touch = (tx: Db | Tx, w: Workspace, now: Date) =>
  tx.update(ideWorkspaces).set({ updatedAt: now }).where(eq(ideWorkspaces.id, w.id));
