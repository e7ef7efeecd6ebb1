import type { KeyObject } from "node:crypto";
import type { Deps } from "#backend/deps.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { randomBytes } from "node:crypto";
import { ChaincodeRefused, TRIAL_PREFIX, type FabricHost } from "./peer/host.ts";
import { identityOf, localProposal } from "./peer/identity.ts";
import { endorsedEnvelope } from "./peer/blocks.ts";
import { checkPackage } from "./peer/package.ts";
import { doorLock } from "#backend/kit/door-guard.ts";
import { channelOfAppCode, mspIdOfAppCode } from "./gateway/admit.ts";
import { gatewayMeter } from "./gateway/meter.ts";
import { forgetCallers } from "./gateway/memo.ts";
import { channelResolver } from "./gateway/resolve.ts";
import { startGateway } from "./gateway/server.ts";
import { gatewayHosts, loadGatewayTls } from "./gateway/tls.ts";
import { checkOnNetwork } from "./network.ts";
import { RemoteHost } from "./cluster.ts";
import { FabricEngine, type HeldGateway } from "./engine.ts";

export { ChaincodeRefused } from "./peer/host.ts";
export type { FabricPeer } from "./peer-api.ts";

/**
 * The fabric domain (docs/decisions/064): the embedded Fabric peer. Each channel (one per consortium service) keeps
 * its block log in the database and its world state in memory, rebuilt from the log at first use; Node.js
 * chaincode runs in child processes under Node's permission model, talking the chaincode protocol to the peer's
 * listener on 127.0.0.1. The gateway (`./gateway/`, issue 28 item 4) reaches a channel through `peerFor`.
 */
const engines = new WeakMap<Deps, FabricEngine>();
const enginesByEnv = new WeakMap<Deps["env"], FabricEngine>();

/** An issued identity that signs proposals instead of the peer's own (a test service's test identity). */
export type { ProposalSigner } from "./cluster.ts";
import type { ProposalSigner } from "./cluster.ts";

/** A service's certificate authority, the MSP of its channel: participation's, handed over at its start. */
type ServiceCaOf = (
  deps: Deps,
  service: { id: number; appCode: string; name: string },
) => Promise<{ pem: string; privateKey: KeyObject }>;
let serviceCaOf: ServiceCaOf | null = null;

function engineOf(deps: Deps): FabricEngine {
  const engine = engines.get(deps) ?? enginesByEnv.get(deps.env);
  if (!engine) throw new Error("the fabric domain has not started");
  return engine;
}
const hostOf = (deps: Deps) => engineOf(deps).host();

/** A service's channel: its app code in lower case, as Fabric channel names are (docs/decisions/065). */
export const channelOf = (target: { appCode: string } | { channel: string }) =>
  "channel" in target ? target.channel : channelOfAppCode(target.appCode);

/**
 * Starts the Gateway gRPC service in front of this process's peers: a channel is served while its service is a
 * running Fabric service with its chaincode installed here; the MSP is the service's CA (participation's).
 */
async function serveGateway(deps: Deps, host: FabricHost): Promise<HeldGateway> {
  const tls = await loadGatewayTls(deps.env, deps.db, gatewayHosts(deps.env.fabricGateway.publicUrl), deps.now());
  const running = await startGateway({
    port: deps.env.fabricGateway.port,
    tls,
    now: deps.now,
    resolve: channelResolver(deps, {
      peerOf: async (service) => {
        const peer = await host.peer(channelOf(service));
        return peer.chaincode() ? peer : null;
      },
      caOf: async (service) => {
        if (!serviceCaOf) throw new Error("participation has not handed over the service CAs");
        const ca = await serviceCaOf(deps, service);
        return { certificatePem: ca.pem, privateKey: ca.privateKey };
      },
    }),
    meter: gatewayMeter(deps),
    doorGuard: doorLock(deps, "fabric-gateway"),
  });
  return { running, caPem: tls.caPem };
}

export default defineDomain({
  name: "fabric",
  async start(deps) {
    // With DATABASE_URL, one process among any number runs the peer: the holder of its lease (docs/decisions/099).
    const engine = new FabricEngine(deps, (host) => serveGateway(deps, host));
    engines.set(deps, engine);
    enginesByEnv.set(deps.env, engine);
    await engine.start();
  },
  async stop(deps) {
    await engines.get(deps)?.close();
    engines.delete(deps);
    enginesByEnv.delete(deps.env);
  },
  async health(deps) {
    return hostOf(deps).health();
  },
  api: {
    channelOf,
    /** A service's MSP id on its channel (its CA's; docs/decisions/065). */
    mspIdOf: mspIdOfAppCode,
    /**
     * After a write that took access away (a participant disabled, a certificate revoked): the gateway of this
     * process forgets the callers it admitted, so the next call is checked again (./gateway/memo.ts).
     */
    forgetCallers,
    /** Participation hands over its service CAs at start (it owns them; this domain may not import it). */
    useServiceCas: (provider: ServiceCaOf) => {
      serviceCaOf = provider;
    },
    /** The gateway's address for clients (grpcs://host:port), its port in this process and the TLS CA they pin. */
    gateway: (deps: Deps) => engineOf(deps).gateway(),
    /**
     * Where a Fabric service's clients connect (docs/decisions/068): the connected network's peer
     * (FABRIC_PEER_ENDPOINT) when there is one, else this process's gateway (or its configured public address).
     */
    clientEndpoint: (deps: Deps): string => {
      if (deps.env.fabricNetwork) return deps.env.fabricNetwork.endpoint;
      return engineOf(deps).gateway()?.publicUrl ?? deps.env.fabricGateway.publicUrl;
    },
    /**
     * On a connected Fabric network: whether the service's chaincode answers there (docs/decisions/068), asked with a
     * client identity of the service's CA made for this check; null when no network is connected.
     */
    checkConnected: async (deps: Deps, service: { id: number; appCode: string; name: string; version: string }) => {
      const network = deps.env.fabricNetwork;
      if (!network) return null;
      if (!serviceCaOf) throw new Error("participation has not handed over the service CAs");
      const ca = await serviceCaOf(deps, service);
      return checkOnNetwork(network, service, { certificatePem: ca.pem, privateKey: ca.privateKey }, deps.now());
    },
    /** The peer of a service's (or a named) channel; its state is rebuilt from the block log at first use. */
    peerFor: (deps: Deps, target: { appCode: string } | { channel: string }) => hostOf(deps).peer(channelOf(target)),
    /**
     * Installs a Node.js chaincode package (the package check first; Init on the first install, an upgrade on a
     * new version); throws ChaincodeRefused with the reasons.
     */
    installChaincode: async (
      deps: Deps,
      input: ({ appCode: string } | { channel: string }) & {
        name: string;
        version: string;
        packageZip: Uint8Array;
        initArgs?: string[];
        /** Who signs Init; else the peer's own identity. */
        initSigner?: ProposalSigner;
      },
    ) => {
      const host = hostOf(deps);
      const { initSigner, ...rest } = input;
      const channel = channelOf(input);
      if (host instanceof RemoteHost) return host.install({ ...rest, channel, signer: initSigner });
      return host.install({ ...rest, channel, initSigner: initSigner ? await identityOf(initSigner) : undefined });
    },
    /**
     * The test job's run of a Node.js chaincode (docs/decisions/069): installed with its init parameters on a
     * throwaway channel of this process's peer, so that a failing Init fails the test, then the channel is dropped
     * (blocks, records, unpacked files): a later deploy or a restart sees nothing of it. Ok, or the reasons.
     */
    trialInstall: async (
      deps: Deps,
      input: { packageZip: Uint8Array; initArgs?: string[] },
    ): Promise<{ ok: true } | { ok: false; problems: string[] }> => {
      const host = hostOf(deps);
      const channel = `${TRIAL_PREFIX}${deps.now().getTime().toString(36)}-${randomBytes(4).toString("hex")}`;
      try {
        await host.install({ ...input, channel, name: "trial", version: "1" });
        return { ok: true };
      } catch (error) {
        if (error instanceof ChaincodeRefused) return { ok: false, problems: error.problems };
        throw error;
      } finally {
        await host.dropChannels([channel]);
      }
    },
    /**
     * Drops a channel of this process's peer with its blocks, records and files (a test service's, when the
     * service is deleted or deployed again).
     */
    dropChannel: (deps: Deps, channel: string) => hostOf(deps).dropChannels([channel]),
    /** The package check alone (the test job): ok with the files, or the problems, each naming what. */
    checkPackage,
    /**
     * A proposal for callers without a gateway (a test service's console, tests): signed by `signer` (a test
     * service's test identity), else by the peer's own identity.
     */
    localProposal: async (
      deps: Deps,
      input: { channel: string; chaincode: string; args: string[] },
      signer?: ProposalSigner,
    ) =>
      localProposal(signer ? await identityOf(signer) : await hostOf(deps).ownIdentity(), {
        ...input,
        timestamp: deps.now(),
      }),
    /** The envelope of an endorsed proposal, as a client assembles it before Submit (for callers without a gateway). */
    endorsedEnvelope,
    /** The chaincode processes (pids, restarts), for tests and operators. */
    processes: (deps: Deps) => {
      const host = hostOf(deps);
      return host instanceof RemoteHost ? [] : host.processList();
    },
  },
});
