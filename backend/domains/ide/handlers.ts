import { and, asc, count, desc, eq, gt, inArray, like, lt, lte } from "drizzle-orm";
import type { Deps } from "#backend/deps.ts";
import { encodeDeployData, type Abi, type AbiFunction, type Hex } from "viem";
import { contractCreateSchema } from "#contract/contracts.ts";
import { IDE_FILES_MAX, IDE_GRANT_MINUTES } from "#contract/ide-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import chain from "#backend/domains/chain/index.ts";
import contracts from "#backend/domains/contracts/index.ts";
import testServices from "#backend/domains/test-services/index.ts";
import { pubChainContracts } from "#backend/domains/contracts/tables.ts";
import { pubChainAccounts, pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { deploymentName, filesUnder, isSolidity, movedPath, parentsOf } from "./rules.ts";
import {
  ideCompiled,
  ideDeployments,
  ideFiles,
  ideGrants,
  ideTestAccounts,
  ideTestDeployments,
  ideWorkspaces,
} from "./tables.ts";
import { listIdeTemplates } from "./templates.ts";

/** The online IDE's handlers (contract/ide.ts; docs/decisions/044). */

type Ctx = SignedInContext;
type Workspace = typeof ideWorkspaces.$inferSelect;
type File = typeof ideFiles.$inferSelect;

const GRANT_MS = IDE_GRANT_MINUTES * 60_000;

/** The caller's IDE authorisation for this session: refused with §8 MSG_20016 once expired, else renewed. */
async function requireGrant(ctx: Ctx): Promise<Date> {
  const now = ctx.services.now();
  const expiresAt = new Date(now.getTime() + GRANT_MS);
  const [renewed] = await ctx.services.db
    .update(ideGrants)
    .set({ expiresAt })
    .where(and(eq(ideGrants.tokenHash, ctx.tokenHash), eq(ideGrants.userId, ctx.user.id), gt(ideGrants.expiresAt, now)))
    .returning();
  if (!renewed) throw new ApiError(Msg.IDE_AUTH_EXPIRED);
  return expiresAt;
}

/** SPEC §8 IDE authorisation: issued (or renewed) for the caller's session when the portal opens. */
export async function issueGrant(_input: Payload<"/sys/ide/grant">, ctx: Ctx) {
  const now = ctx.services.now();
  const expiresAt = new Date(now.getTime() + GRANT_MS);
  await ctx.services.db.transaction(async (tx) => {
    // Grants of sessions that ended are of no use: each issue clears the caller's expired ones.
    await tx.delete(ideGrants).where(and(eq(ideGrants.userId, ctx.user.id), lte(ideGrants.expiresAt, now)));
    await tx
      .insert(ideGrants)
      .values({ tokenHash: ctx.tokenHash, userId: ctx.user.id, issuedAt: now, expiresAt })
      .onConflictDoUpdate({ target: ideGrants.tokenHash, set: { userId: ctx.user.id, issuedAt: now, expiresAt } });
  });
  return { expiresAt: expiresAt.toISOString(), minutes: IDE_GRANT_MINUTES };
}

async function ownWorkspace(db: Db | Tx, userId: number, workspaceId: number, lock = false): Promise<Workspace> {
  const q = db
    .select()
    .from(ideWorkspaces)
    .where(and(eq(ideWorkspaces.id, workspaceId), eq(ideWorkspaces.userId, userId)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

async function ownFile(db: Db | Tx, workspaceId: number, fileId: number): Promise<File> {
  const [row] = await db
    .select()
    .from(ideFiles)
    .where(and(eq(ideFiles.id, fileId), eq(ideFiles.workspaceId, workspaceId)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

const fileOut = (f: File) => ({
  fileId: f.id,
  path: f.path,
  folder: f.folder,
  content: f.content,
  updatedAt: f.updatedAt.toISOString(),
});

async function workspaceOut(db: Db | Tx, w: Workspace) {
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

export async function listTemplates(_input: Payload<"/sys/ide/template/list">, ctx: Ctx) {
  return (await listIdeTemplates(ctx.services)).map((t) => ({
    templateId: t.templateId,
    origin: t.origin,
    title: t.title,
    files: Object.keys(t.files),
  }));
}

export async function listWorkspaces(input: Payload<"/sys/ide/workspace/list">, ctx: Ctx) {
  const db = ctx.services.db;
  const where = eq(ideWorkspaces.userId, ctx.user.id);
  const [{ total }] = await db.select({ total: count() }).from(ideWorkspaces).where(where);
  const rows = await db
    .select()
    .from(ideWorkspaces)
    .where(where)
    .orderBy(desc(ideWorkspaces.updatedAt), desc(ideWorkspaces.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const out = [];
  for (const w of rows) out.push(await workspaceOut(db, w));
  return { page: { rows: out, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/** A new workspace with the template's files (and their folders). */
export async function createWorkspace(input: Payload<"/sys/ide/workspace/create">, ctx: Ctx) {
  const template = (await listIdeTemplates(ctx.services)).find((t) => t.templateId === input.templateId);
  if (!template) throw fieldError("templateId", Msg.IDE_TEMPLATE_UNKNOWN, Msg.IDE_TEMPLATE_UNKNOWN);
  const now = ctx.services.now();
  const row = await ctx.services.db.transaction(async (tx) => {
    const [w] = await tx
      .insert(ideWorkspaces)
      .values({
        userId: ctx.user.id,
        name: input.name,
        templateId: template.templateId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const folders = [...new Set(Object.keys(template.files).flatMap(parentsOf))];
    const values = [
      ...folders.map((path) => ({ workspaceId: w!.id, path, folder: true, content: "", updatedAt: now })),
      ...Object.entries(template.files).map(([path, content]) => ({
        workspaceId: w!.id,
        path,
        folder: false,
        content,
        updatedAt: now,
      })),
    ];
    if (values.length) await tx.insert(ideFiles).values(values);
    return w!;
  });
  return workspaceOut(ctx.services.db, row);
}

export async function renameWorkspace(input: Payload<"/sys/ide/workspace/rename">, ctx: Ctx) {
  const w = await ownWorkspace(ctx.services.db, ctx.user.id, input.workspaceId);
  const [row] = await ctx.services.db
    .update(ideWorkspaces)
    .set({ name: input.name, updatedAt: ctx.services.now() })
    .where(eq(ideWorkspaces.id, w.id))
    .returning();
  return workspaceOut(ctx.services.db, row!);
}

/** Deletes a workspace with its files; the contracts deployed from it stay deployments of their projects. */
export async function deleteWorkspace(input: Payload<"/sys/ide/workspace/delete">, ctx: Ctx) {
  const w = await ownWorkspace(ctx.services.db, ctx.user.id, input.workspaceId);
  await ctx.services.db.delete(ideWorkspaces).where(eq(ideWorkspaces.id, w.id));
  return null;
}

/** The deployments made from a workspace, read through the contracts domain's tables, newest first. */
async function deploymentsOf(db: Db | Tx, workspaceId: number, contractIds?: number[]) {
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
    txHash: c.status === 0 ? null : c.txHash,
    blockNumber: c.blockNumber,
    abi: c.abi ?? [],
    createdAt: d.createdAt.toISOString(),
  }));
  if (contractIds) return projectRows;
  return [...projectRows, ...(await testDeploymentsOf(db, workspaceId))]
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, 50);
}

type TestDeployment = typeof ideTestDeployments.$inferSelect;
const testOut = (t: TestDeployment) => ({
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

export async function openWorkspace(input: Payload<"/sys/ide/workspace/open">, ctx: Ctx) {
  const db = ctx.services.db;
  const w = await ownWorkspace(db, ctx.user.id, input.workspaceId);
  const expiresAt = await requireGrant(ctx);
  const files = await db.select().from(ideFiles).where(eq(ideFiles.workspaceId, w.id)).orderBy(asc(ideFiles.path));
  const compiled = await db
    .select()
    .from(ideCompiled)
    .where(eq(ideCompiled.workspaceId, w.id))
    .orderBy(asc(ideCompiled.file), asc(ideCompiled.name));
  return {
    ...(await workspaceOut(db, w)),
    files: files.map(fileOut),
    compiled: compiled.map((c) => ({
      file: c.file,
      name: c.name,
      abi: c.abi,
      bytecode: c.bytecode,
      compiledAt: c.compiledAt.toISOString(),
    })),
    diagnostics: w.diagnostics.map((d) => ({ ...d, severity: d.severity as "error" | "warning" | "info" })),
    compiledAt: w.compiledAt?.toISOString() ?? null,
    compiler: w.compiler,
    deployments: await deploymentsOf(db, w.id),
    grantExpiresAt: expiresAt.toISOString(),
  };
}

const touch = (tx: Db | Tx, w: Workspace, now: Date) =>
  tx.update(ideWorkspaces).set({ updatedAt: now }).where(eq(ideWorkspaces.id, w.id));

async function pathFree(tx: Tx, workspaceId: number, path: string) {
  const [taken] = await tx
    .select({ id: ideFiles.id })
    .from(ideFiles)
    .where(and(eq(ideFiles.workspaceId, workspaceId), eq(ideFiles.path, path)));
  if (taken) throw fieldError("path", Msg.IDE_PATH_TAKEN, Msg.IDE_PATH_TAKEN);
}

/** Its parent folders, made when absent; a parent that is a file is refused. */
async function ensureParents(tx: Tx, workspaceId: number, path: string, now: Date) {
  for (const parent of parentsOf(path)) {
    const [row] = await tx
      .select()
      .from(ideFiles)
      .where(and(eq(ideFiles.workspaceId, workspaceId), eq(ideFiles.path, parent)));
    if (row && !row.folder) throw fieldError("path", Msg.IDE_BAD_PARENT, Msg.IDE_BAD_PARENT);
    if (!row)
      await tx.insert(ideFiles).values({ workspaceId, path: parent, folder: true, content: "", updatedAt: now });
  }
}

export async function createFile(input: Payload<"/sys/ide/file/create">, ctx: Ctx) {
  const now = ctx.services.now();
  const w = await ownWorkspace(ctx.services.db, ctx.user.id, input.workspaceId);
  await requireGrant(ctx);
  const row = await ctx.services.db.transaction(async (tx) => {
    await ownWorkspace(tx, ctx.user.id, w.id, true);
    const [{ n }] = await tx.select({ n: count() }).from(ideFiles).where(eq(ideFiles.workspaceId, w.id));
    if (n >= IDE_FILES_MAX) throw new ApiError(Msg.IDE_TOO_MANY_FILES);
    await pathFree(tx, w.id, input.path);
    await ensureParents(tx, w.id, input.path, now);
    const content =
      input.folder || !isSolidity(input.path) ? "" : "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\n";
    const [created] = await tx
      .insert(ideFiles)
      .values({ workspaceId: w.id, path: input.path, folder: input.folder, content, updatedAt: now })
      .returning();
    await touch(tx, w, now);
    return created!;
  });
  return fileOut(row);
}

/** Renames (moves) a file, or a folder with everything under it. */
export async function renameFile(input: Payload<"/sys/ide/file/rename">, ctx: Ctx) {
  const now = ctx.services.now();
  const w = await ownWorkspace(ctx.services.db, ctx.user.id, input.workspaceId);
  await requireGrant(ctx);
  const row = await ctx.services.db.transaction(async (tx) => {
    await ownWorkspace(tx, ctx.user.id, w.id, true);
    const file = await ownFile(tx, w.id, input.fileId);
    if (input.path === file.path) return file;
    if (input.path.startsWith(`${file.path}/`)) throw fieldError("path", Msg.IDE_BAD_PARENT, Msg.IDE_BAD_PARENT);
    await pathFree(tx, w.id, input.path);
    await ensureParents(tx, w.id, input.path, now);
    const children = file.folder
      ? await tx
          .select()
          .from(ideFiles)
          .where(and(eq(ideFiles.workspaceId, w.id), like(ideFiles.path, `${filesUnder(file.path)}%`)))
      : [];
    for (const child of children) {
      const to = movedPath(child.path, file.path, input.path);
      await pathFree(tx, w.id, to);
      await tx.update(ideFiles).set({ path: to, updatedAt: now }).where(eq(ideFiles.id, child.id));
    }
    const [moved] = await tx
      .update(ideFiles)
      .set({ path: input.path, updatedAt: now })
      .where(eq(ideFiles.id, file.id))
      .returning();
    await touch(tx, w, now);
    return moved!;
  });
  return fileOut(row);
}

/** Deletes a file, or a folder with everything under it. */
export async function deleteFile(input: Payload<"/sys/ide/file/delete">, ctx: Ctx) {
  const now = ctx.services.now();
  const w = await ownWorkspace(ctx.services.db, ctx.user.id, input.workspaceId);
  await requireGrant(ctx);
  await ctx.services.db.transaction(async (tx) => {
    const file = await ownFile(tx, w.id, input.fileId);
    if (file.folder)
      await tx
        .delete(ideFiles)
        .where(and(eq(ideFiles.workspaceId, w.id), like(ideFiles.path, `${filesUnder(file.path)}%`)));
    await tx.delete(ideFiles).where(eq(ideFiles.id, file.id));
    await touch(tx, w, now);
  });
  return null;
}

export async function saveFile(input: Payload<"/sys/ide/file/save">, ctx: Ctx) {
  const now = ctx.services.now();
  const w = await ownWorkspace(ctx.services.db, ctx.user.id, input.workspaceId);
  const file = await ownFile(ctx.services.db, w.id, input.fileId);
  await requireGrant(ctx);
  if (file.folder) throw new ApiError(Msg.IDE_NOT_A_FILE);
  const [saved] = await ctx.services.db
    .update(ideFiles)
    .set({ content: input.content, updatedAt: now })
    .where(eq(ideFiles.id, file.id))
    .returning();
  await touch(ctx.services.db, w, now);
  return fileOut(saved!);
}

/**
 * Compiles the workspace's .sol files off the main thread (imports between them and from OpenZeppelin resolved);
 * the messages are kept at their file and line, and the contracts (ABI, bytecode) replace the last ones when
 * there is no error.
 */
export async function compile(input: Payload<"/sys/ide/compile">, ctx: Ctx) {
  const db = ctx.services.db;
  const w = await ownWorkspace(db, ctx.user.id, input.workspaceId);
  await requireGrant(ctx);
  const files = await db
    .select()
    .from(ideFiles)
    .where(and(eq(ideFiles.workspaceId, w.id), eq(ideFiles.folder, false)));
  const sources = Object.fromEntries(files.filter((f) => isSolidity(f.path)).map((f) => [f.path, f.content]));
  const result = await chain.api.compileWorkspace(sources);
  const now = ctx.services.now();
  const diagnostics = result.diagnostics.map(({ severity, file, line, column, message }) => ({
    severity,
    file,
    line,
    column,
    message,
  }));
  await db.transaction(async (tx) => {
    await tx
      .update(ideWorkspaces)
      .set({ diagnostics, compiledAt: now, compiler: result.compiler || null })
      .where(eq(ideWorkspaces.id, w.id));
    if (!result.ok) return;
    await tx.delete(ideCompiled).where(eq(ideCompiled.workspaceId, w.id));
    const deployable = result.contracts.filter((c) => c.bytecode.length > 2);
    if (deployable.length) {
      await tx.insert(ideCompiled).values(
        deployable.map((c) => ({
          workspaceId: w.id,
          file: c.file,
          name: c.name,
          abi: c.abi as Record<string, unknown>[],
          bytecode: c.bytecode,
          compiledAt: now,
        })),
      );
    }
  });
  const compiled = result.ok
    ? await db
        .select()
        .from(ideCompiled)
        .where(eq(ideCompiled.workspaceId, w.id))
        .orderBy(asc(ideCompiled.file), asc(ideCompiled.name))
    : [];
  return {
    ok: result.ok,
    compiled: compiled.map((c) => ({
      file: c.file,
      name: c.name,
      abi: c.abi,
      bytecode: c.bytecode,
      compiledAt: c.compiledAt.toISOString(),
    })),
    diagnostics,
    compiler: result.compiler || null,
  };
}

/**
 * Deploys a compiled contract as a contract deployment of one of the caller's projects (docs/decisions/033: its
 * checks, its job, one deployment at a time), through the contracts domain's api.
 */
export async function deploy(input: Payload<"/sys/ide/deploy">, ctx: Ctx) {
  const db = ctx.services.db;
  const w = await ownWorkspace(db, ctx.user.id, input.workspaceId);
  await requireGrant(ctx);
  const [compiled] = await db
    .select()
    .from(ideCompiled)
    .where(eq(ideCompiled.workspaceId, w.id))
    .then((rows) => rows.filter((c) => `${c.file}:${c.name}` === input.contract));
  if (!compiled) throw fieldError("contract", Msg.IDE_NOT_COMPILED, Msg.IDE_NOT_COMPILED);
  if (input.network === "test") return deployToTestNetwork(ctx, w, compiled, input.constructorArgs);
  if (!input.accountId) throw fieldError("accountId", Msg.IDE_ACCOUNT_REQUIRED, Msg.IDE_ACCOUNT_REQUIRED);
  const request = contractCreateSchema.safeParse({
    projectId: input.projectId,
    accountId: input.accountId,
    name: deploymentName(compiled.name),
    sourceKind: "abi",
    abi: JSON.stringify(compiled.abi),
    bytecode: compiled.bytecode,
    constructorArgs: input.constructorArgs,
  });
  if (!request.success)
    throw new ApiError(Msg.INVALID_PARAMS, {
      reason: request.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    });
  const created = await contracts.api.create(request.data, ctx);
  await db.insert(ideDeployments).values({
    workspaceId: w.id,
    contractId: created.contractId,
    file: compiled.file,
    name: compiled.name,
    createdAt: ctx.services.now(),
  });
  await touch(db, w, ctx.services.now());
  const [out] = await deploymentsOf(db, w.id, [created.contractId]);
  return out!;
}

const isRead = (f: AbiFunction) => f.stateMutability === "view" || f.stateMutability === "pure";

/** A function of a contract deployed from the workspace: a read through eth_call, a write signed by a custody account. */
export async function call(input: Payload<"/sys/ide/call">, ctx: Ctx) {
  const db = ctx.services.db;
  const w = await ownWorkspace(db, ctx.user.id, input.workspaceId);
  if (input.network === "test") return callOnTestNetwork(ctx, w, input);
  const [deployment] = await db
    .select()
    .from(ideDeployments)
    .where(and(eq(ideDeployments.workspaceId, w.id), eq(ideDeployments.contractId, input.contractId)));
  if (!deployment) throw new ApiError(Msg.NOT_FOUND);
  await requireGrant(ctx);
  const detail = await contracts.api.detail({ contractId: input.contractId }, ctx);
  if (detail.status !== 2 || !detail.abi) throw new ApiError(Msg.CONTRACT_NOT_DEPLOYED);
  const abi = detail.abi as unknown as Abi;
  const fn = abi.find(
    (e): e is AbiFunction => e.type === "function" && contracts.api.signatureOf(e) === input.signature,
  );
  if (!fn) throw fieldError("signature", Msg.CONTRACT_NO_SUCH_FUNCTION, Msg.CONTRACT_NO_SUCH_FUNCTION);
  if (isRead(fn)) {
    const read = await contracts.api.read(
      { contractId: input.contractId, functionName: fn.name, signature: input.signature, args: input.args },
      ctx,
    );
    return {
      signature: read.signature,
      kind: "read" as const,
      outputs: read.outputs,
      transaction: null,
      receipt: null,
      events: [],
    };
  }
  if (!input.accountId) throw fieldError("accountId", Msg.IDE_ACCOUNT_REQUIRED, Msg.IDE_ACCOUNT_REQUIRED);
  return contracts.api.write(ctx.services, ctx.user.id, {
    contractId: input.contractId,
    signature: input.signature,
    args: input.args,
    accountId: input.accountId,
  });
}

/* The test network (docs/decisions/044 addendum). */

/** Gas the user's test-network account is given when it holds less than half of it: 1 test ether, as test services' deployers. */
const TEST_GAS = 10n ** 18n;
/** A deployment still "deploying" after this long was cut short (a restart): it no longer blocks the next one. */
const STALE_MS = 10 * 60_000;

/** The caller's test-network account, made on first use (its key sealed as a test service's deployer key). */
async function testAccountOf(deps: Deps, userId: number) {
  const [found] = await deps.db.select().from(ideTestAccounts).where(eq(ideTestAccounts.userId, userId));
  if (found) return found;
  const made = await testServices.api.newDeployer(deps.env);
  await deps.db
    .insert(ideTestAccounts)
    .values({ userId, address: made.deployerAddress, keySealed: made.deployerKeySealed, createdAt: deps.now() })
    .onConflictDoNothing();
  const [row] = await deps.db.select().from(ideTestAccounts).where(eq(ideTestAccounts.userId, userId));
  return row!;
}

/** The account's gas topped up from the network's treasury when it runs low. */
async function fundTestAccount(deps: Deps, chainName: string, address: string) {
  const balance = BigInt(
    String(await chain.api.request(deps, chainName, { method: "eth_getBalance", params: [address, "latest"] })),
  );
  if (balance < TEST_GAS / 2n) await chain.api.fund(deps, chainName, address, TEST_GAS);
}

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e.code === "23505" || e.cause?.code === "23505";
};

/**
 * Deploys a compiled contract to the test network from the caller's test-network account: one at a time per
 * user (MSG_47108), recorded with its chain, and answered once the chain has the receipt (address, transaction,
 * block) or the chain's reason.
 */
async function deployToTestNetwork(
  ctx: Ctx,
  w: Workspace,
  compiled: typeof ideCompiled.$inferSelect,
  constructorArgs: string[],
) {
  const deps = ctx.services;
  const abi = compiled.abi as unknown as Abi;
  const ctor = abi.find((e) => e.type === "constructor");
  let data: string;
  try {
    const args = contracts.api.parseArguments(ctor && "inputs" in ctor ? ctor.inputs : [], constructorArgs);
    data = encodeDeployData({ abi, bytecode: compiled.bytecode as Hex, args });
  } catch (error) {
    throw new ApiError(Msg.CONTRACT_BAD_ARGUMENTS, {
      fieldErrors: { constructorArgs: [Msg.CONTRACT_BAD_ARGUMENTS] },
      reason: error instanceof Error ? error.message.split("\n")[0] : String(error),
    });
  }
  const account = await testAccountOf(deps, ctx.user.id);
  const network = await testServices.api.currentNetwork(deps.db);
  const now = deps.now();
  let row: TestDeployment;
  try {
    row = await deps.db.transaction(async (tx) => {
      await tx.select().from(ideTestAccounts).where(eq(ideTestAccounts.userId, ctx.user.id)).for("update");
      await tx
        .update(ideTestDeployments)
        .set({ status: 3, failReason: "interrupted before the chain answered" })
        .where(
          and(
            eq(ideTestDeployments.userId, ctx.user.id),
            eq(ideTestDeployments.status, 1),
            lt(ideTestDeployments.createdAt, new Date(now.getTime() - STALE_MS)),
          ),
        );
      const [busy] = await tx
        .select({ id: ideTestDeployments.id })
        .from(ideTestDeployments)
        .where(and(eq(ideTestDeployments.userId, ctx.user.id), eq(ideTestDeployments.status, 1)));
      if (busy) throw new ApiError(Msg.IDE_TEST_DEPLOY_UNDER_WAY);
      const [inserted] = await tx
        .insert(ideTestDeployments)
        .values({
          userId: ctx.user.id,
          workspaceId: w.id,
          file: compiled.file,
          name: compiled.name,
          chainName: network.chainName,
          deployer: account.address,
          abi: compiled.abi,
          status: 1,
          createdAt: now,
        })
        .returning();
      return inserted!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(Msg.IDE_TEST_DEPLOY_UNDER_WAY);
    throw error;
  }
  let set: Partial<TestDeployment>;
  try {
    await fundTestAccount(deps, network.chainName, account.address);
    const done = await chain.api.deploy(
      deps,
      network.chainName,
      testServices.api.openDeployerKey(deps.env, account.keySealed),
      data,
    );
    set = {
      status: 2,
      address: done.address,
      txHash: done.txHash,
      blockNumber: done.blockNumber,
      deployedAt: deps.now(),
    };
  } catch (error) {
    set = {
      status: 3,
      failReason:
        `the test network refused the deployment: ${error instanceof Error ? error.message : String(error)}`.slice(
          0,
          2000,
        ),
    };
  }
  const [settled] = await deps.db
    .update(ideTestDeployments)
    .set(set)
    .where(eq(ideTestDeployments.id, row.id))
    .returning();
  await touch(deps.db, w, deps.now());
  return testOut(settled!);
}

/** A function of a contract the workspace deployed to the test network, through the contracts domain's read and write. */
async function callOnTestNetwork(ctx: Ctx, w: Workspace, input: Payload<"/sys/ide/call">) {
  const deps = ctx.services;
  const [row] = await deps.db
    .select()
    .from(ideTestDeployments)
    .where(and(eq(ideTestDeployments.id, input.contractId), eq(ideTestDeployments.workspaceId, w.id)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  await requireGrant(ctx);
  if (row.status !== 2 || !row.address) throw new ApiError(Msg.CONTRACT_NOT_DEPLOYED);
  const abi = row.abi as unknown as Abi;
  const at = { chainName: row.chainName, address: row.address, abi };
  const fn = abi.find(
    (e): e is AbiFunction => e.type === "function" && contracts.api.signatureOf(e) === input.signature,
  );
  if (!fn) throw fieldError("signature", Msg.CONTRACT_NO_SUCH_FUNCTION, Msg.CONTRACT_NO_SUCH_FUNCTION);
  if (isRead(fn)) {
    const read = await contracts.api.readAt(deps, at, {
      functionName: fn.name,
      signature: input.signature,
      args: input.args,
    });
    return {
      signature: read.signature,
      kind: "read" as const,
      outputs: read.outputs,
      transaction: null,
      receipt: null,
      events: [],
    };
  }
  const account = await testAccountOf(deps, ctx.user.id);
  await fundTestAccount(deps, row.chainName, account.address);
  return contracts.api.writeAt(
    deps,
    at,
    { from: account.address, privateKey: testServices.api.openDeployerKey(deps.env, account.keySealed) },
    input.signature,
    input.args,
  );
}
