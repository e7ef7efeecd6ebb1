import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import {
  callContract,
  readAt,
  contractDetail,
  contractEvents,
  createContract,
  listContracts,
  redeployContract,
  updateContract,
} from "./handlers.ts";
import { seedDemoContracts } from "./demo.ts";
import { contractJobs } from "./jobs.ts";
import { parseArguments, readFunctions, signatureOf } from "./rules.ts";
import { transactionDetail } from "./transaction.ts";
import { decodeLogs, writeAt, writeContract } from "./writes.ts";

/**
 * Contract deployment on open-alliance projects (SPEC §4 Contract deployment, §5 Contract name;
 * contract/contracts.ts; docs/decisions/033): contracts compiled on the server or given as ABI and bytecode,
 * deployed by a job from a project's custody account, their read functions and events. It reaches the chain
 * only through the chain domain's api, projects and accounts through public-chain's tables and api.
 */
export default defineDomain({
  name: "contracts",
  handlers: handlersOf({
    "/sys/opc/contract/create": createContract,
    "/sys/opc/contract/list": listContracts,
    "/sys/opc/contract/detail": contractDetail,
    "/sys/opc/contract/update": updateContract,
    "/sys/opc/contract/redeploy": redeployContract,
    "/sys/opc/contract/call": callContract,
    "/sys/opc/contract/events": contractEvents,
    "/sys/opc/transaction": transactionDetail,
    "/sys/opc/contract/write": (input, ctx) => writeContract(ctx.deps, ctx.user.id, input),
  }),
  jobs: contractJobs,
  /**
   * For the online IDE (docs/decisions/044): a deployment is created, read and called exactly as through the
   * /sys/opc/contract paths, as the signed-in caller; write functions are signed by a custody account.
   */
  api: {
    create: (input: Parameters<typeof createContract>[0], ctx: Parameters<typeof createContract>[1]) =>
      createContract(input, ctx),
    detail: (input: Parameters<typeof contractDetail>[0], ctx: Parameters<typeof contractDetail>[1]) =>
      contractDetail(input, ctx),
    read: (input: Parameters<typeof callContract>[0], ctx: Parameters<typeof callContract>[1]) =>
      callContract(input, ctx),
    write: writeContract,
    /** The same read and write on any chain of the registry, at an address with an ABI (the IDE's test network). */
    readAt,
    writeAt,
    decodeLogs,
    readFunctions,
    parseArguments,
    signatureOf,
  },
  seedDemo: seedDemoContracts,
});
