import type { Deps } from "#backend/deps.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { DEFAULT_HOST, FabricHost } from "./peer/host.ts";
import { localProposal } from "./peer/identity.ts";
import { endorsedEnvelope } from "./peer/blocks.ts";
import { checkPackage } from "./peer/package.ts";

export { ChaincodeRefused } from "./peer/host.ts";
export type { FabricPeer } from "./peer-api.ts";

/**
 * The fabric domain (docs/decisions/064): the embedded Fabric peer. Each channel (one per consortium service) keeps
 * its block log in the database and its world state in memory, rebuilt from the log at first use; Node.js
 * chaincode runs in child processes under Node's permission model, talking the chaincode protocol to the peer's
 * listener on 127.0.0.1. The gateway (`./gateway/`, issue 28 item 4) reaches a channel through `peerFor`.
 */
const hosts = new WeakMap<Deps, FabricHost>();
const hostsByEnv = new WeakMap<Deps["env"], FabricHost>();

function hostOf(deps: Deps): FabricHost {
  const host = hosts.get(deps) ?? hostsByEnv.get(deps.env);
  if (!host) throw new Error("the fabric domain has not started");
  return host;
}

/** A service's channel: `svc-<app code>` (lower case, as Fabric channel names are). */
export const channelOf = (target: { appCode: string } | { channel: string }) =>
  "channel" in target ? target.channel : `svc-${target.appCode.toLowerCase()}`;

export default defineDomain({
  name: "fabric",
  start(deps) {
    const host = new FabricHost(deps.db, deps.env.dataDir, deps.now, {
      ...DEFAULT_HOST,
      limits: { ...DEFAULT_HOST.limits, invocationMs: deps.env.fabricChaincodeTimeoutMs },
    });
    hosts.set(deps, host);
    hostsByEnv.set(deps.env, host);
  },
  async stop(deps) {
    await hosts.get(deps)?.close();
    hosts.delete(deps);
    hostsByEnv.delete(deps.env);
  },
  async health(deps) {
    return hostOf(deps).health();
  },
  api: {
    channelOf,
    /** The peer of a service's (or a named) channel; its state is rebuilt from the block log at first use. */
    peerFor: (deps: Deps, target: { appCode: string } | { channel: string }) => hostOf(deps).peer(channelOf(target)),
    /**
     * Installs a Node.js chaincode package (the package check first; Init on the first install, an upgrade on a
     * new version); throws ChaincodeRefused with the reasons.
     */
    installChaincode: (
      deps: Deps,
      input: ({ appCode: string } | { channel: string }) & {
        name: string;
        version: string;
        packageZip: Uint8Array;
        initArgs?: string[];
      },
    ) => hostOf(deps).install({ ...input, channel: channelOf(input) }),
    /** The package check alone (the test job): ok with the files, or the problems, each naming what. */
    checkPackage,
    /** A proposal signed by the peer's own identity, for callers without a gateway (the test job, tests). */
    localProposal: async (deps: Deps, input: { channel: string; chaincode: string; args: string[] }) =>
      localProposal(await hostOf(deps).ownIdentity(), { ...input, timestamp: deps.now() }),
    /** The envelope of an endorsed proposal, as a client assembles it before Submit (for callers without a gateway). */
    endorsedEnvelope,
    /** The chaincode processes (pids, restarts), for tests and operators. */
    processes: (deps: Deps) => hostOf(deps).processList(),
  },
});
