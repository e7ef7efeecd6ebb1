import { isUniqueViolation } from "#backend/db/errors.ts";
import { and, asc, eq, lt } from "drizzle-orm";
import type { Deps } from "#backend/deps.ts";
import { encodeDeployData, type Abi, type AbiFunction, type Hex } from "viem";
import { ContractStatus } from "#contract/contracts-codes.ts";
import { contractCreateSchema } from "#contract/contracts.ts";
import { Msg } from "#contract/messages.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import chain from "#backend/domains/chain/index.ts";
import contracts from "#backend/domains/contracts/index.ts";
import testServices from "#backend/domains/test-services/index.ts";
import { deploymentName, isSolidity } from "#backend/domains/ide/rules.ts";
import {
  ideCompiled,
  ideDeployments,
  ideFiles,
  ideTestAccounts,
  ideTestDeployments,
  ideWorkspaces,
} from "#backend/domains/ide/tables.ts";
import {
  deploymentsOf,
  ownWorkspace,
  requireGrant,
  testOut,
  touch,
  type Ctx,
  type TestDeployment,
  type Workspace,
} from "./shared.ts";

/**
 * Compiles the workspace's .sol files off the main thread (imports between them and from OpenZeppelin resolved);
 * the messages are kept at their file and line, and the contracts (ABI, bytecode) replace the last ones when
 * there is no error. A compilation with errors withdraws the last ones: they were built from another source,
 * and deploying them while the workspace shows errors would deploy something the user no longer sees (issue 30).
 */
export async function compile(input: Payload<"/sys/ide/compile">, ctx: Ctx) {
  const db = ctx.deps.db;
  const w = await ownWorkspace(db, ctx.user.id, input.workspaceId);
  await requireGrant(ctx);
  const files = await db
    .select()
    .from(ideFiles)
    .where(and(eq(ideFiles.workspaceId, w.id), eq(ideFiles.folder, false)));
  const sources = Object.fromEntries(files.filter((f) => isSolidity(f.path)).map((f) => [f.path, f.content]));
  const result = await chain.api.compileWorkspace(sources);
  const now = ctx.deps.now();
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
    await tx.delete(ideCompiled).where(eq(ideCompiled.workspaceId, w.id));
    if (!result.ok) return;
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
  const db = ctx.deps.db;
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
    createdAt: ctx.deps.now(),
  });
  await touch(db, w, ctx.deps.now());
  const [out] = await deploymentsOf(db, w.id, [created.contractId]);
  return out!;
}

const isRead = (f: AbiFunction) => f.stateMutability === "view" || f.stateMutability === "pure";

/** A function of a contract deployed from the workspace: a read through eth_call, a write signed by a custody account. */
export async function call(input: Payload<"/sys/ide/call">, ctx: Ctx) {
  const db = ctx.deps.db;
  const w = await ownWorkspace(db, ctx.user.id, input.workspaceId);
  if (input.network === "test") return callOnTestNetwork(ctx, w, input);
  const [deployment] = await db
    .select()
    .from(ideDeployments)
    .where(and(eq(ideDeployments.workspaceId, w.id), eq(ideDeployments.contractId, input.contractId)));
  if (!deployment) throw new ApiError(Msg.NOT_FOUND);
  await requireGrant(ctx);
  const detail = await contracts.api.detail({ contractId: input.contractId }, ctx);
  if (detail.status !== ContractStatus.SUCCESS || !detail.abi) throw new ApiError(Msg.CONTRACT_NOT_DEPLOYED);
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
  return contracts.api.write(ctx.deps, ctx.user.id, {
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
  const deps = ctx.deps;
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
        .set({ status: ContractStatus.FAILED, failReason: "interrupted before the chain answered" })
        .where(
          and(
            eq(ideTestDeployments.userId, ctx.user.id),
            eq(ideTestDeployments.status, ContractStatus.DEPLOYING),
            lt(ideTestDeployments.createdAt, new Date(now.getTime() - STALE_MS)),
          ),
        );
      const [busy] = await tx
        .select({ id: ideTestDeployments.id })
        .from(ideTestDeployments)
        .where(
          and(eq(ideTestDeployments.userId, ctx.user.id), eq(ideTestDeployments.status, ContractStatus.DEPLOYING)),
        );
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
          status: ContractStatus.DEPLOYING,
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
      status: ContractStatus.SUCCESS,
      address: done.address,
      txHash: done.txHash,
      blockNumber: done.blockNumber,
      deployedAt: deps.now(),
    };
  } catch (error) {
    set = {
      status: ContractStatus.FAILED,
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
  const deps = ctx.deps;
  const [row] = await deps.db
    .select()
    .from(ideTestDeployments)
    .where(and(eq(ideTestDeployments.id, input.contractId), eq(ideTestDeployments.workspaceId, w.id)));
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  await requireGrant(ctx);
  if (row.status !== ContractStatus.SUCCESS || !row.address) throw new ApiError(Msg.CONTRACT_NOT_DEPLOYED);
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
