import { and, count, desc, eq, inArray } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { Msg } from "#contract/messages.ts";
import { TestServiceStatus, type TestServiceFields, type TestService } from "#contract/test-services.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import { recordAudit } from "#backend/kit/audit.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import chain from "#backend/domains/chain/index.ts";
import fabric from "#backend/domains/fabric/index.ts";
import participation from "#backend/domains/participation/index.ts";
import { callChaincode, dropTestChannel } from "./fabric.ts";
import { scheduleTestDeploy } from "./jobs.ts";
import { allowed, moveTestService, type TestServiceRow } from "./machine.ts";
import {
  accessPathOf,
  chainNameOf,
  currentNetwork,
  newDeployer,
  newEndpointKey,
  openEndpointKey,
  openIdentityKey,
  sealIdentityKey,
} from "./network.ts";
import { deploymentNameOf, solidityFilesOf } from "./rules.ts";
import { testNetworkGenerations, testServices } from "./tables.ts";

/** The handlers of test services (contract/test-services.ts; docs/decisions/034). */

type Ctx = SignedInContext;

/** A test service of the caller, locked for update when asked; another user's is not found. */
async function own(q: Db | Tx, userId: number, id: number, lock = false): Promise<TestServiceRow> {
  const query = q
    .select()
    .from(testServices)
    .where(and(eq(testServices.id, id), eq(testServices.userId, userId)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

type Sources = {
  sources: Record<string, string>;
  packageName: string | null;
  language: string;
  packageFileId: number | null;
};

/**
 * The sources of a create, edit or upgrade: typed Solidity, or the .sol files of an uploaded chaincode package; on
 * Fabric, an uploaded Node.js chaincode package the embedded peer takes (docs/decisions/069).
 */
async function sourcesOf(tx: Tx, ctx: Ctx, input: TestServiceFields): Promise<Sources> {
  if (input.platform === "fabric") return chaincodeOf(tx, ctx, input);
  if (input.sourceKind === "source") {
    // A file named with typed source is refused rather than ignored: the caller meant one or the other.
    if (input.uploadId) throw fieldError("uploadId", "testServices:validation.fileWithSource", Msg.INVALID_PARAMS);
    if (!input.source?.trim()) throw fieldError("source", "validation.required", Msg.TEST_SERVICE_SOURCE_REQUIRED);
    return {
      sources: { [`${input.mainContract || "Contract"}.sol`]: input.source },
      packageName: null,
      language: "solidity",
      packageFileId: null,
    };
  }
  if (!input.uploadId) throw fieldError("file", "validation.required", Msg.TEST_SERVICE_SOURCE_REQUIRED);
  const claimed = await ctx.deps.files.claim(tx, input.uploadId, {
    kind: "chaincode",
    ownerId: ctx.user.id,
    at: ctx.deps.now(),
  });
  if (!claimed) throw fieldError("uploadId", `errors:${Msg.UPLOAD_FAILED}`, Msg.UPLOAD_FAILED);
  const file = await ctx.deps.files.read(tx, claimed.id);
  const sources = file && solidityFilesOf(file.bytes);
  if (!sources) throw fieldError("file", "testServices:validation.package", Msg.TEST_SERVICE_PACKAGE_INVALID);
  return { sources, packageName: claimed.name, language: "solidity", packageFileId: null };
}

/** A Fabric test service's Node.js chaincode package: claimed and checked as the peer will install it. */
async function chaincodeOf(tx: Tx, ctx: Ctx, input: TestServiceFields): Promise<Sources> {
  const refused = () => fieldError("file", "testServices:validation.chaincode", Msg.TEST_SERVICE_CHAINCODE_INVALID);
  if (input.sourceKind !== "package" || !input.uploadId) throw refused();
  const claimed = await ctx.deps.files.claim(tx, input.uploadId, {
    kind: "chaincode",
    ownerId: ctx.user.id,
    at: ctx.deps.now(),
  });
  if (!claimed) throw fieldError("uploadId", `errors:${Msg.UPLOAD_FAILED}`, Msg.UPLOAD_FAILED);
  const file = await ctx.deps.files.read(tx, claimed.id);
  if (!file || !fabric.api.checkPackage(new Uint8Array(file.bytes)).ok) throw refused();
  return { sources: {}, packageName: claimed.name, language: "node", packageFileId: claimed.id };
}

/** The columns a create or an edit sets from the form. */
const editable = (input: TestServiceFields, { sources, packageName, language, packageFileId }: Sources) => ({
  name: input.name,
  version: input.version,
  platform: input.platform,
  sourceKind: input.sourceKind,
  sources,
  packageName,
  language,
  packageFileId,
  mainContract: input.mainContract,
  initParams: input.initParams,
});

async function nameFree(tx: Tx, userId: number, name: string, version: string, except?: number) {
  const [taken] = await tx
    .select({ id: testServices.id })
    .from(testServices)
    .where(and(eq(testServices.userId, userId), eq(testServices.name, name), eq(testServices.version, version)));
  if (taken && taken.id !== except)
    throw fieldError("name", "testServices:validation.nameTaken", Msg.TEST_SERVICE_NAME_TAKEN);
}

async function out(q: Db | Tx, ctx: Ctx, row: TestServiceRow, detail: boolean): Promise<TestService> {
  const [user] = await q.select({ userName: users.userName }).from(users).where(eq(users.id, row.userId));
  const deployed = row.status === TestServiceStatus.DEPLOYED;
  const info = deployed && row.chainName ? chain.api.chain(ctx.deps, row.chainName) : null;
  return {
    testServiceId: row.id,
    name: row.name,
    version: row.version,
    platform: row.platform,
    sourceKind: row.sourceKind as TestService["sourceKind"],
    source: detail
      ? Object.entries(row.sources)
          .map(([file, text]) => (Object.keys(row.sources).length > 1 ? `// ${file}\n${text}` : text))
          .join("\n\n")
      : "",
    packageName: row.packageName,
    mainContract: row.mainContract,
    initParams: row.initParams,
    status: row.status,
    deployTime: row.deployedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    failReason: row.status === TestServiceStatus.FAILED ? row.failReason : null,
    suggestion: row.status === TestServiceStatus.FAILED ? row.suggestion : null,
    userCode: user?.userName ?? "",
    appCode: row.appCode,
    chainName: deployed ? row.chainName : null,
    chainId: info?.chainId ?? null,
    contractName: deployed ? row.contractName : null,
    contractAddress: deployed ? row.contractAddress : null,
    chaincodeAddress: row.deployerAddress,
    deploymentName: deployed ? deploymentNameOf(row.name, row.version) : null,
    txHash: deployed ? row.txHash : null,
    blockNumber: deployed ? row.blockNumber : null,
    abi: deployed && detail ? row.abi : null,
    language: row.language,
    channel: deployed ? row.channel : null,
    accessPath:
      deployed && detail && row.language !== "node" ? accessPathOf(openEndpointKey(ctx.deps.env, row.keySealed)) : null,
    certificatePem: detail ? row.certificatePem : null,
  };
}

export async function listTestServices(input: Payload<"/sys/testService/list">, ctx: Ctx) {
  const db = ctx.deps.db;
  const mine = eq(testServices.userId, ctx.user.id);
  const [{ total }] = await db.select({ total: count() }).from(testServices).where(mine);
  const rows = await db
    .select()
    .from(testServices)
    .where(mine)
    .orderBy(desc(testServices.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return {
    page: {
      rows: await Promise.all(rows.map((r) => out(db, ctx, r, false))),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
}

export async function testServiceDetail(input: Payload<"/sys/testService/detail">, ctx: Ctx) {
  return out(ctx.deps.db, ctx, await own(ctx.deps.db, ctx.user.id, input.testServiceId), true);
}

/** The test identity's private key, to its owner only (docs/decisions/034): the PEM and a file name of the service's. */
export async function testIdentityKey(input: Payload<"/sys/testService/identityKey">, ctx: Ctx) {
  const row = await own(ctx.deps.db, ctx.user.id, input.testServiceId);
  if (!row.certificateKeySealed) throw new ApiError(Msg.NOT_FOUND);
  return {
    fileName: `${row.appCode}-${row.version}-identity-key.pem`,
    pem: openIdentityKey(ctx.deps.env, row.certificateKeySealed),
  };
}

export async function createTestService(input: Payload<"/sys/testService/create">, ctx: Ctx) {
  const env = ctx.deps.env;
  const now = ctx.deps.now();
  const deployer = await newDeployer(env);
  const appCode = `TS${randomBytes(8).toString("hex").toUpperCase()}`;
  const identity = await participation.api.issueTestIdentity({
    appCode,
    name: input.name,
    userName: ctx.user.userName,
    now,
  });
  const row = await ctx.deps.db.transaction(async (tx) => {
    await nameFree(tx, ctx.user.id, input.name, input.version);
    const [created] = await tx
      .insert(testServices)
      .values({
        userId: ctx.user.id,
        ...editable(input, await sourcesOf(tx, ctx, input)),
        status: TestServiceStatus.NOT_DEPLOYED,
        appCode,
        ...deployer,
        ...newEndpointKey(env),
        certificatePem: identity.certificatePem,
        certificateKeySealed: sealIdentityKey(env, identity.privateKeyPem),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return created!;
  });
  return out(ctx.deps.db, ctx, row, true);
}

export async function editTestService(input: Payload<"/sys/testService/edit">, ctx: Ctx) {
  const row = await ctx.deps.db.transaction(async (tx) => {
    const current = await own(tx, ctx.user.id, input.testServiceId, true);
    allowed(current, "edit", "user");
    await nameFree(tx, ctx.user.id, input.name, input.version, current.id);
    const kept =
      input.sourceKind === current.sourceKind &&
      input.sourceKind === "package" &&
      !input.uploadId &&
      (input.platform === "fabric") === (current.language === "node");
    return moveTestService(tx, current, "edit", "user", ctx.deps.now(), {
      ...editable(input, kept ? current : await sourcesOf(tx, ctx, input)),
    });
  });
  return out(ctx.deps.db, ctx, row, true);
}

/** Start deploying (1 → 5), re-deploy (10, 15, 20 → 5): a new attempt and its job. */
async function startDeployment(ctx: Ctx, id: number, event: "deploy" | "redeploy") {
  const now = ctx.deps.now();
  const row = await ctx.deps.db.transaction(async (tx) => {
    const current = await own(tx, ctx.user.id, id, true);
    const moved = await moveTestService(tx, current, event, "user", now, {
      attempts: current.attempts + 1,
      failReason: null,
      suggestion: null,
    });
    await scheduleTestDeploy(tx, moved.id, moved.attempts, now);
    return moved;
  });
  return out(ctx.deps.db, ctx, row, true);
}

export const deployTestService = (input: Payload<"/sys/testService/deploy">, ctx: Ctx) =>
  startDeployment(ctx, input.testServiceId, "deploy");
export const redeployTestService = (input: Payload<"/sys/testService/redeploy">, ctx: Ctx) =>
  startDeployment(ctx, input.testServiceId, "redeploy");

/** Upgrade a deployed service: its new version and source, deployed as a new contract (10 → 5). */
export async function upgradeTestService(input: Payload<"/sys/testService/upgrade">, ctx: Ctx) {
  const now = ctx.deps.now();
  const row = await ctx.deps.db.transaction(async (tx) => {
    const current = await own(tx, ctx.user.id, input.testServiceId, true);
    allowed(current, "upgrade", "user");
    if (input.version === current.version)
      throw fieldError("version", "testServices:validation.sameVersion", Msg.INVALID_PARAMS);
    await nameFree(tx, ctx.user.id, current.name, input.version, current.id);
    const { sources, packageName, language, packageFileId } =
      input.sourceKind === "package" &&
      !input.uploadId &&
      current.sourceKind === "package" &&
      (input.platform === "fabric") === (current.language === "node")
        ? current
        : await sourcesOf(tx, ctx, { ...input, platform: current.language === "node" ? "fabric" : input.platform });
    const moved = await moveTestService(tx, current, "upgrade", "user", now, {
      version: input.version,
      sourceKind: input.sourceKind,
      sources,
      packageName,
      language,
      packageFileId,
      mainContract: input.mainContract,
      initParams: input.initParams,
      attempts: current.attempts + 1,
    });
    await scheduleTestDeploy(tx, moved.id, moved.attempts, now);
    return moved;
  });
  return out(ctx.deps.db, ctx, row, true);
}

export async function deleteTestService(input: Payload<"/sys/testService/delete">, ctx: Ctx) {
  const deleted = await ctx.deps.db.transaction(async (tx) => {
    const current = await own(tx, ctx.user.id, input.testServiceId, true);
    allowed(current, "delete", "user");
    await tx.delete(testServices).where(eq(testServices.id, current.id));
    return current;
  });
  // A Fabric test service's channel goes with it (docs/decisions/069).
  await dropTestChannel(deleted, ctx.deps);
  return null;
}

/** Query or invoke a deployed Fabric test service's chaincode (docs/decisions/069). */
export async function callTestChaincode(input: Payload<"/sys/testService/chaincode">, ctx: Ctx) {
  const row = await own(ctx.deps.db, ctx.user.id, input.testServiceId);
  if (row.status !== TestServiceStatus.DEPLOYED || !row.channel || !row.contractName)
    throw new ApiError(Msg.TEST_SERVICE_ACTION_NOT_AVAILABLE);
  const args = input.args === "" ? [] : input.args.replace(/\r\n/g, "\n").split("\n");
  return callChaincode(ctx.deps, row, { mode: input.mode, fn: input.fn, args });
}

/* ------------------------------------------ operators ------------------------------------------ */

async function networkOut(ctx: Ctx) {
  const db = ctx.deps.db;
  const network = await currentNetwork(db);
  const info = chain.api.chain(ctx.deps, network.chainName);
  const height = Number(
    await chain.api.request(ctx.deps, network.chainName, { method: "eth_blockNumber", params: [] }),
  );
  const [{ services }] = await db.select({ services: count() }).from(testServices);
  const [{ deployed }] = await db
    .select({ deployed: count() })
    .from(testServices)
    .where(eq(testServices.status, TestServiceStatus.DEPLOYED));
  return {
    chainName: network.chainName,
    chainId: info.chainId,
    generation: network.generation,
    resetAt: network.resetAt?.toISOString() ?? null,
    height,
    services,
    deployed,
  };
}

export const testNetworkStatus = (_input: Payload<"/sys/ops/testNetwork/status">, ctx: Ctx) => networkOut(ctx);

/**
 * Resets the test network: a new generation (a fresh chain with its own chain id) becomes the test network,
 * and every deployed or deploying test service moves to 20 "to re-deploy", its contract gone with the old state.
 */
export async function resetTestNetwork(_input: Payload<"/sys/ops/testNetwork/reset">, ctx: Ctx) {
  // A node by URL keeps its state: a new generation there would be the same chain under another name.
  if (chain.api.external(ctx.deps)) throw new ApiError(Msg.TEST_NETWORK_EXTERNAL);
  const now = ctx.deps.now();
  const next = (await currentNetwork(ctx.deps.db)).generation + 1;
  await chain.api.createChain(ctx.deps, { name: chainNameOf(next), purpose: "test" });
  const chainName = chainNameOf(next);
  await ctx.deps.db.transaction(async (tx) => {
    await tx
      .insert(testNetworkGenerations)
      .values({ generation: next, chainName: chainNameOf(next), resetBy: ctx.user.id, createdAt: now });
    const moving = await tx
      .select()
      .from(testServices)
      .where(inArray(testServices.status, [TestServiceStatus.DEPLOYING, TestServiceStatus.DEPLOYED]))
      .for("update");
    for (const row of moving) {
      await moveTestService(tx, row, "reset", "operator", now, {
        contractAddress: null,
        txHash: null,
        blockNumber: null,
        chainName: null,
      });
    }
    await recordAudit(tx, {
      action: "testNetwork.reset",
      targetType: "testNetwork",
      targetId: chainName,
      decision: "reset",
      comments: null,
      details: { generation: next, servicesToRedeploy: moving.length },
      actor: ctx.user,
      at: now,
      path: ctx.path,
      clientIp: ctx.clientAddress,
    });
  });
  return networkOut(ctx);
}
