import type { Deps } from "../../../deps";
import type { DeployInput, GatewayAnswer, NetworkCredentials, NetworkStatus } from "./types";

/**
 * The embedded provisioner (docs/decisions/046): every dedicated network runs in a worker thread of this
 * server, with its orderer, peers, gateway and CA. (Being written: the first commit fixes the interface.)
 */
export class EmbeddedProvisioner {
  constructor(private readonly deps: Deps) {}

  async start(): Promise<void> {}
  async close(): Promise<void> {}

  deploy(input: DeployInput): Promise<NetworkStatus> {
    return Promise.reject(new Error(`the dedicated network ${input.name} cannot be deployed yet`));
  }
  scale(name: string, peers: number): Promise<NetworkStatus> {
    return Promise.reject(new Error(`the dedicated network ${name} cannot be scaled to ${peers} yet`));
  }
  setCredentials(name: string, input: NetworkCredentials): Promise<void> {
    void input;
    return Promise.reject(new Error(`no dedicated network ${name}`));
  }
  stop(name: string): Promise<void> {
    return Promise.reject(new Error(`no dedicated network ${name}`));
  }
  resume(name: string): Promise<NetworkStatus> {
    return Promise.reject(new Error(`no dedicated network ${name}`));
  }
  remove(name: string): Promise<void> {
    return Promise.reject(new Error(`no dedicated network ${name}`));
  }
  async status(name: string): Promise<NetworkStatus | null> {
    void name;
    void this.deps;
    return null;
  }
  async gateway(name: string, credentials: NetworkCredentials, body: string): Promise<GatewayAnswer> {
    void credentials;
    void body;
    return { status: 404, body: { jsonrpc: "2.0", id: null, error: { code: -32601, message: `no network named ${name}` } } };
  }
  fund(name: string, address: string, wei: bigint): Promise<string> {
    void address;
    void wei;
    return Promise.reject(new Error(`no dedicated network ${name}`));
  }
}
