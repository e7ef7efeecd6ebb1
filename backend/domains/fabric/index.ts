import type { KeyObject } from "node:crypto";
import type { Deps } from "#backend/deps.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { randomBytes } from "node:crypto";
import { ChaincodeRefused, DEFAULT_HOST, FabricHost, TRIAL_PREFIX } from "./peer/host.ts";
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
import type { RunningGateway } from "./gateway/types.ts";
import { checkOnNetwork } from "./network.ts";
import { RemoteHost, serveFabricPeers, type GatewayInfo } from "./cluster.ts";
import type { Server } from "node:http";

export { ChaincodeRefused } from "./peer/host.ts";
export type { FabricPeer } from "./peer-api.ts";

/**
 * The fabric domain (docs/decisions/064): the embedded Fabric peer. Each channel (one per consortium service) keeps
 * its block log in the database and its world state in memory, rebuilt from the log at first use; Node.js
 * chaincode runs in child processes under Node's permission model, talking the chaincode protocol to the peer's
 * listener on 127.0.0.1. The gateway (`./gateway/`, issue 28 item 4) reaches a channel through `peerFor`.
 */
const hosts = new WeakMap<Deps, FabricHost | RemoteHost>();
const hostsByEnv = new WeakMap<Deps["env"], FabricHost | RemoteHost>();
/** In a cluster's owner: the engine socket on which the peer workers reach this process's peer (./cluster.ts). */
const sockets = new WeakMap<Deps, Server>();
/** In a cluster's peer worker: the owner's gateway (its address and TLS CA), learnt at start. */
const ownersGateway = new WeakMap<Deps["env"], GatewayInfo>();
/** The Gateway gRPC service of this process (docs/decisions/065) and the TLS CA its clients pin. */
const gateways = new WeakMap<Deps, { running: RunningGateway; caPem: string }>();
const gatewaysByEnv = new WeakMap<Deps["env"], { running: RunningGateway; caPem: string }>();

/** An issued identity that signs proposals instead of the peer's own (a test service's test identity). */
export type { ProposalSigner } from "./cluster.ts";
import type { ProposalSigner } from "./cluster.ts";

/** A throwaway channel older than this at start was left by an interrupted test job. */
const STALE_TRIAL_MS = 15 * 60_000;

/** A service's certificate authority, the MSP of its channel: participation's, handed over at its start. */
type ServiceCaOf = (
  deps: Deps,
  service: { id: number; appCode: string; name: string },
) => Promise<{ pem: string; privateKey: KeyObject }>;
let serviceCaOf: ServiceCaOf | null = null;

function hostOf(deps: Deps): FabricHost | RemoteHost {
  const host = hosts.get(deps) ?? hostsByEnv.get(deps.env);
  if (!host) throw new Error("the fabric domain has not started");
  return host;
}

/** A service's channel: its app code in lower case, as Fabric channel names are (docs/decisions/065). */
export const channelOf = (target: { appCode: string } | { channel: string }) =>
  "channel" in target ? target.channel : channelOfAppCode(target.appCode);

/**
 * Starts the Gateway gRPC service in front of this process's peers: a channel is served while its service is a
 * running Fabric service with its chaincode installed here; the MSP is the service's CA (participation's).
 */
async function serveGateway(deps: Deps, host: FabricHost) {
  const tls = await loadGatewayTls(deps.env, gatewayHosts(deps.env.fabricGateway.publicUrl), deps.now());
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
  const held = { running, caPem: tls.caPem };
  gateways.set(deps, held);
  gatewaysByEnv.set(deps.env, held);
}

export default defineDomain({
  name: "fabric",
  async start(deps) {
    // WORKERS > 1 (docs/decisions/078): one Fabric writer, the owner; a peer worker calls it on the engine socket.
    if (deps.env.cluster?.role === "peer") {
      const remote = new RemoteHost(deps.env);
      hosts.set(deps, remote);
      hostsByEnv.set(deps.env, remote);
      ownersGateway.set(deps.env, await remote.start());
      return;
    }
    const host = new FabricHost(deps.db, deps.env.dataDir, deps.now, {
      ...DEFAULT_HOST,
      limits: { ...DEFAULT_HOST.limits, invocationMs: deps.env.fabricChaincodeTimeoutMs },
    });
    hosts.set(deps, host);
    hostsByEnv.set(deps.env, host);
    // The process that runs the peer serves the gateway (docs/decisions/064). It also drops the throwaway channels
    // of test jobs that a stop interrupted (docs/decisions/069).
    await Promise.all([
      serveGateway(deps, host),
      host.dropStaleTrials(new Date(deps.now().getTime() - STALE_TRIAL_MS)),
    ]);
    if (deps.env.cluster?.role === "owner")
      sockets.set(
        deps,
        await serveFabricPeers(deps.env, host, () => {
          const held = gateways.get(deps);
          if (!held) return null;
          const publicUrl = deps.env.fabricGateway.publicUrl.replace(/:0$/, `:${held.running.port}`);
          return { publicUrl, port: held.running.port, caPem: held.caPem };
        }),
      );
  },
  async stop(deps) {
    await new Promise((resolve) => {
      const socket = sockets.get(deps);
      if (socket) socket.close(resolve);
      else resolve(undefined);
    });
    sockets.delete(deps);
    await gateways.get(deps)?.running.close();
    gateways.delete(deps);
    gatewaysByEnv.delete(deps.env);
    await hosts.get(deps)?.close();
    hosts.delete(deps);
    hostsByEnv.delete(deps.env);
    ownersGateway.delete(deps.env);
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
    gateway: (deps: Deps) => {
      const held = gateways.get(deps) ?? gatewaysByEnv.get(deps.env);
      if (!held) return ownersGateway.get(deps.env) ?? null;
      // FABRIC_GATEWAY_PORT=0 (tests) listens on a free port: the address names the one it got.
      const publicUrl = deps.env.fabricGateway.publicUrl.replace(/:0$/, `:${held.running.port}`);
      return { publicUrl, port: held.running.port, caPem: held.caPem };
    },
    /**
     * Where a Fabric service's clients connect (docs/decisions/068): the connected network's peer
     * (FABRIC_PEER_ENDPOINT) when there is one, else this process's gateway (or its configured public address).
     */
    clientEndpoint: (deps: Deps): string => {
      if (deps.env.fabricNetwork) return deps.env.fabricNetwork.endpoint;
      const held = gateways.get(deps) ?? gatewaysByEnv.get(deps.env);
      const url = deps.env.fabricGateway.publicUrl;
      return held ? url.replace(/:0$/, `:${held.running.port}`) : (ownersGateway.get(deps.env)?.publicUrl ?? url);
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
