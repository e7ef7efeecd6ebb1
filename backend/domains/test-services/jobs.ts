import { eq } from "drizzle-orm";
import { encodeDeployData, type Abi } from "viem";
import { TestServiceStatus, type FailureSuggestion } from "#contract/test-services-codes.ts";
import type { Tx } from "#backend/db/client.ts";
import type { Deps } from "#backend/deps.ts";
import type { JobEntry } from "#backend/jobs/runner.ts";
import { schedule } from "#backend/jobs/runner.ts";
import chain from "#backend/domains/chain/index.ts";
import { deployOnFabric } from "./fabric.ts";
import { moveTestService } from "./machine.ts";
import { currentNetwork, openDeployerKey } from "./network.ts";
import { chooseContract, constructorArgs, suggestionOfChainError } from "./rules.ts";
import { testServices } from "./tables.ts";

/**
 * The deployment of a test service on the test network (SPEC §4; docs/decisions/034): 5 → 10 with the
 * contract's address, or 15 with the reason (the compiler's, the chain's) and a suggestion. Its sources are
 * compiled for real, its deployer account receives test gas from the network's treasury, and the contract is
 * created from that account. Each attempt has its own job; an attempt overtaken by a newer one, or by a
 * reset of the network, changes nothing.
 */
export const JOB_TEST_DEPLOY = "test-services.deploy";

/** The gas a deployer is given when it holds less than half of it: 1 test ether. */
const DEPLOYER_GAS = 10n ** 18n;

export async function scheduleTestDeploy(tx: Tx, testServiceId: number, attempt: number, now: Date) {
  await schedule(
    tx,
    JOB_TEST_DEPLOY,
    { testServiceId, attempt },
    { runAt: now, dedupeKey: `${JOB_TEST_DEPLOY}:${testServiceId}:${attempt}` },
  );
}

type Outcome =
  | { ok: true; set: Partial<typeof testServices.$inferSelect> }
  | { ok: false; reason: string; suggestion: FailureSuggestion };

async function attempt(row: typeof testServices.$inferSelect, chainName: string, deps: Deps): Promise<Outcome> {
  // A Node.js chaincode runs on its own channel of the embedded Fabric peer (docs/decisions/069).
  if (row.language === "node") return deployOnFabric(row, deps);
  const compiled = await chain.api.compile(row.sources);
  if (!compiled.ok) return { ok: false, reason: compiled.errors.join("\n").slice(0, 4000), suggestion: "compile" };
  const chosen = chooseContract(compiled.contracts, row.mainContract);
  if ("reason" in chosen) return { ok: false, reason: chosen.reason, suggestion: chosen.suggestion };
  const { contract } = chosen;
  const args = constructorArgs(contract.abi, row.initParams);
  if ("reason" in args) return { ok: false, reason: args.reason, suggestion: "initParams" };
  let data: string;
  try {
    data = encodeDeployData({
      abi: contract.abi as Abi,
      bytecode: contract.bytecode as `0x${string}`,
      args: args.args,
    });
  } catch (error) {
    return {
      ok: false,
      reason: `the init params do not fit the constructor: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
      suggestion: "initParams",
    };
  }
  try {
    const balance = BigInt(
      (await chain.api.request(deps, chainName, {
        method: "eth_getBalance",
        params: [row.deployerAddress, "latest"],
      })) as string,
    );
    if (balance < DEPLOYER_GAS / 2n) await chain.api.fund(deps, chainName, row.deployerAddress, DEPLOYER_GAS);
    const deployed = await chain.api.deploy(deps, chainName, openDeployerKey(deps.env, row.deployerKeySealed), data);
    return {
      ok: true,
      set: {
        chainName,
        contractName: contract.name,
        contractAddress: deployed.address,
        abi: contract.abi,
        txHash: deployed.txHash,
        blockNumber: deployed.blockNumber,
        failReason: null,
        suggestion: null,
      },
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: `the test network refused the deployment: ${message}`.slice(0, 2000),
      suggestion: suggestionOfChainError(message),
    };
  }
}

async function deploy(payload: Record<string, unknown>, deps: Deps) {
  const id = Number(payload.testServiceId);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error("job payload without testServiceId");
  const [start] = await deps.db.select().from(testServices).where(eq(testServices.id, id));
  if (!start || start.status !== TestServiceStatus.DEPLOYING || start.attempts !== Number(payload.attempt)) return;
  const network = await currentNetwork(deps.db);
  const outcome = await attempt(start, network.chainName, deps);
  await deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(testServices).where(eq(testServices.id, id)).for("update");
    if (!row || row.status !== TestServiceStatus.DEPLOYING || row.attempts !== start.attempts) return;
    if ((await currentNetwork(tx)).chainName !== network.chainName) return; // reset meanwhile: the reset moved it
    const now = deps.now();
    if (outcome.ok) await moveTestService(tx, row, "deployOk", "system", now, { ...outcome.set, deployedAt: now });
    else
      await moveTestService(tx, row, "deployFail", "system", now, {
        failReason: outcome.reason,
        suggestion: outcome.suggestion,
      });
  });
}

export const testServiceJobs: Record<string, JobEntry> = {
  [JOB_TEST_DEPLOY]: {
    run: deploy,
    async ownerOf(payload, db) {
      const [s] = await db
        .select({ userId: testServices.userId, name: testServices.name })
        .from(testServices)
        .where(eq(testServices.id, Number(payload.testServiceId) || 0));
      return s ? { userId: s.userId, subject: s.name } : null;
    },
  },
};
