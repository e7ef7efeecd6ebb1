import type { Deps } from "#backend/deps.ts";
import { handlersOf } from "#backend/http/router.ts";
import { defineDomain, type Endpoint } from "#backend/kit/domain.ts";
import { RPC_DOOR_RATE_PER_MINUTE } from "#backend/kit/door-rate.ts";
import { compileSolidity, compileWorkspace, stopCompiler } from "./compile.ts";
import { OPEN_ALLIANCE, TEST_NETWORK, ChainRegistry } from "./registry.ts";
import { answerText, type RpcCall } from "./rpc.ts";
import { listChainNodes, moveChain } from "./node-ops.ts";
import { EmbeddedProvisioner, type GatewayRequest } from "./dedicated/provisioner.ts";
import { DEDICATED_PREFIX } from "./dedicated/provisioner-state.ts";
import type { DeployInput, NetworkCredentials, NodeLimits } from "./dedicated/types.ts";

/**
 * The chain domain (docs/decisions/025): the registry of EVM chains (the embedded engine in a worker thread,
 * or CHAIN_RPC_URL), their durable log and index in the database, the JSON-RPC layer and the compiler.
 * Other domains reach it through `api`; the keyed public endpoint comes with the public-chain console.
 */
const registries = new WeakMap<Deps, ChainRegistry>();
/** The same by configuration: an audited operator path's handler gets a copy of the deps (its db the decision's transaction). */
const registriesByEnv = new WeakMap<Deps["env"], ChainRegistry>();

const provisioners = new WeakMap<Deps, EmbeddedProvisioner>();
const provisionersByEnv = new WeakMap<Deps["env"], EmbeddedProvisioner>();

function provisionerOf(deps: Deps): EmbeddedProvisioner {
  const provisioner = provisioners.get(deps) ?? provisionersByEnv.get(deps.env);
  if (!provisioner) throw new Error("the chain domain has not started");
  return provisioner;
}

function registryOf(deps: Deps): ChainRegistry {
  const registry = registries.get(deps) ?? registriesByEnv.get(deps.env);
  if (!registry) throw new Error("the chain domain has not started");
  return registry;
}

/** The largest JSON-RPC request body (SPEC §9: 5 MB per request). */
const RPC_BODY_LIMIT = 5 * 1024 * 1024;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });

/**
 * Tests only (TEST_FIXTURES=1): a chain's JSON-RPC over HTTP without a key, at /chain/test-rpc/<chain name>;
 * `…/<chain name>/fund` ({ address, wei }) sends gas from its treasury and `…/<chain name>/compile` (file name →
 * source) compiles, so that tests reach what later slices reach through the api; `…/<network>/dedicated`
 * ({ peers, user, password, consensus }) deploys a dedicated network and `…/<network>/dedicated-fund` funds from
 * its treasury (the bench's set-up).
 */
const testRpc: Endpoint = {
  methods: ["POST"],
  path: "/chain/test-rpc/",
  auth: "public",
  bodyLimitBytes: RPC_BODY_LIMIT,
  // Test fixtures only; the suites speak from an exempt address (RATE_LIMIT_EXEMPT), anyone else is held to
  // the chain doors' rate (docs/decisions/067).
  ratePerMinute: RPC_DOOR_RATE_PER_MINUTE,
  jsonRpc: true,
  enabled: (env) => env.testFixtures,
  async handle(request, deps) {
    const [name = "", action, ...rest] = new URL(request.url).pathname
      .slice("/chain/test-rpc/".length)
      .split("/")
      .map(decodeURIComponent);
    const registry = registryOf(deps);
    if ((action === "dedicated" || action === "dedicated-fund") && !rest.length) {
      // A dedicated network deployed or funded without the dedicated-nodes domain (the bench's set-up).
      try {
        const body = JSON.parse(await request.text()) as Record<string, string>;
        const networks = provisionerOf(deps);
        if (action === "dedicated")
          return json(
            200,
            await networks.deploy({
              name,
              peers: Number(body.peers ?? 1),
              consensus: String(body.consensus ?? "raft"),
              user: String(body.user),
              password: String(body.password),
            }),
          );
        return json(200, { hash: await networks.fund(name, String(body.address), BigInt(body.wei ?? "0")) });
      } catch (error) {
        return json(400, { error: error instanceof Error ? error.message : String(error) });
      }
    }
    if (!registry.has(name) || rest.length)
      return json(404, { jsonrpc: "2.0", id: null, error: { code: -32601, message: `no chain named ${name}` } });
    const text = await request.text();
    if (action === undefined) return json(200, await answerText(registry.node(name), text));
    try {
      const body = JSON.parse(text) as Record<string, string>;
      if (action === "fund")
        return json(200, { hash: await registry.fund(name, String(body.address), BigInt(body.wei ?? "0")) });
      if (action === "compile") return json(200, await compileSolidity(body));
    } catch (error) {
      return json(400, { error: error instanceof Error ? error.message : String(error) });
    }
    return json(404, { error: `no action ${action}` });
  },
};

/**
 * The dedicated networks' endpoints (docs/decisions/046), with HTTP Basic auth of the network's authorized user:
 * POST /chain/dedicated/<network> (the gateway: JSON-RPC, batches too; writes to the orderer, reads spread over
 * the peers), POST …/<network>/nodes/<node> (one node), GET …/<network>/ca (the CA certificate, PEM).
 */
const dedicatedGateway: Endpoint = {
  methods: ["GET", "POST"],
  path: DEDICATED_PREFIX,
  auth: "key",
  bodyLimitBytes: RPC_BODY_LIMIT,
  // A customer's own network: the chain doors' rate (docs/decisions/067).
  ratePerMinute: RPC_DOOR_RATE_PER_MINUTE,
  jsonRpc: true,
  async handle(request, deps) {
    const parts = new URL(request.url).pathname.slice(DEDICATED_PREFIX.length).split("/");
    let target: GatewayRequest["target"] | undefined;
    let network = "";
    try {
      network = decodeURIComponent(parts[0] ?? "");
      if (parts.length === 1) target = "gateway";
      else if (parts.length === 2 && parts[1] === "ca") target = "ca";
      else if (parts.length === 3 && parts[1] === "nodes") target = { node: decodeURIComponent(parts[2]!) };
    } catch {
      target = undefined;
    }
    if (!target)
      return json(404, {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32601, message: "not found: POST to /chain/dedicated/<network> or …/nodes/<node>, GET …/ca" },
      });
    const reply = await provisionerOf(deps).serve({
      network,
      target,
      method: request.method,
      authorization: request.headers.get("authorization"),
      body: request.method === "POST" ? await request.text() : "",
    });
    if (reply.pem !== undefined)
      return new Response(reply.pem, {
        status: reply.status,
        headers: { "Content-Type": "application/x-pem-file", "Cache-Control": "no-store", ...reply.headers },
      });
    const response = json(reply.status, reply.body);
    for (const [name, value] of Object.entries(reply.headers ?? {})) response.headers.set(name, value);
    return response;
  },
};

export default defineDomain({
  name: "chain",
  async start(deps) {
    const registry = new ChainRegistry(deps);
    registries.set(deps, registry);
    registriesByEnv.set(deps.env, registry);
    await registry.start();
    const provisioner = new EmbeddedProvisioner(deps);
    provisioners.set(deps, provisioner);
    provisionersByEnv.set(deps.env, provisioner);
    await provisioner.start();
  },
  async stop(deps) {
    await provisioners.get(deps)?.close();
    provisioners.delete(deps);
    provisionersByEnv.delete(deps.env);
    await registries.get(deps)?.close();
    registries.delete(deps);
    registriesByEnv.delete(deps.env);
    await stopCompiler();
  },
  async health(deps) {
    const registry = registryOf(deps);
    // With several processes on one database: which one runs the chains, where, since which change of holder.
    return {
      chains: await registry.health(),
      holder: await registry.holder(),
      dedicated: provisionerOf(deps).health(),
    };
  },
  endpoints: [testRpc, dedicatedGateway],
  // The operators' page of the chains on nodes by URL (docs/decisions/094 addendum).
  handlers: handlersOf({
    "/sys/ops/chainNodes/list": (_input, ctx) => listChainNodes(registryOf(ctx.deps), ctx),
    "/sys/ops/chainNodes/move": (input, ctx) => moveChain(registryOf(ctx.deps), input, ctx),
  }),
  api: {
    OPEN_ALLIANCE,
    TEST_NETWORK,
    /** Whether the chains run on nodes by URL (CHAIN_NODES), where a chain cannot be started afresh (docs/decisions/094). */
    external: (deps: Deps) => registryOf(deps).isExternal(),
    /** Every chain of the registry. */
    chains: (deps: Deps) => registryOf(deps).list(),
    chain: (deps: Deps, name: string) => registryOf(deps).info(name),
    /** Adds a chain (one per consortium EVM service); returns the existing one of that name. */
    createChain: (deps: Deps, input: { name: string; purpose: string }) => registryOf(deps).createChain(input),
    /** One JSON-RPC call on a chain: its result, or throws an RpcError (code, message, data). */
    request: (deps: Deps, name: string, call: RpcCall) => registryOf(deps).request(name, call),
    /** A JSON-RPC request's text answered as JSON (one call or a batch), for an HTTP endpoint. */
    answer: (deps: Deps, name: string, text: string) => answerText(registryOf(deps).node(name), text),
    /** Sends wei from the chain's treasury to an address; resolves with the transaction hash once accepted. */
    fund: (deps: Deps, name: string, address: string, wei: bigint) => registryOf(deps).fund(name, address, wei),
    /** Signs with `privateKey` and sends a transfer, call or creation; resolves with the hash once accepted (`onSigned` gets the hash and signed bytes before the send); one queue per chain and sender takes the nonces. */
    send: (
      deps: Deps,
      name: string,
      privateKey: string,
      input: { to?: string; data?: string; value?: bigint; gasLimit?: bigint },
      onSigned?: (hash: string, raw: string) => Promise<void>,
    ) => registryOf(deps).send(name, privateKey, input, onSigned),
    /** Deploys creation bytecode from the account of `privateKey`: address, transaction, block (or throws the chain's reason). */
    deploy: (deps: Deps, name: string, privateKey: string, bytecode: string) =>
      registryOf(deps).deploy(name, privateKey, bytecode),
    /** Compiles Solidity sources off the main thread: contracts (ABI, bytecode) or the compiler's errors. */
    compile: compileSolidity,
    /** Compiles a workspace's files with imports between them and from OpenZeppelin, messages at file and line (docs/decisions/044). */
    compileWorkspace,
    /** Dedicated networks (docs/decisions/046): a real network per project, run by the provisioner. */
    networks: {
      /** Idempotent by name: called again after a crash it finishes what is missing; resolves once every node runs. */
      deploy: (deps: Deps, input: DeployInput) => provisionerOf(deps).deploy(input),
      /** Grows only; new peers start and catch up (resolves once started; they may still lag). */
      scale: (deps: Deps, name: string, peers: number) => provisionerOf(deps).scale(name, peers),
      /** Applies the nodes' limits to the running network without a restart (docs/decisions/074); null: none. */
      setLimits: (deps: Deps, name: string, limits: NodeLimits | null) => provisionerOf(deps).setLimits(name, limits),
      setCredentials: (deps: Deps, name: string, input: NetworkCredentials) =>
        provisionerOf(deps).setCredentials(name, input),
      /** Ends the nodes (worker ended); state kept; endpoints answer 503. */
      stop: (deps: Deps, name: string) => provisionerOf(deps).stop(name),
      resume: (deps: Deps, name: string) => provisionerOf(deps).resume(name),
      /** State removed from disk and its database rows; the name is free again. */
      remove: (deps: Deps, name: string) => provisionerOf(deps).remove(name),
      /** Null: no such network. */
      status: (deps: Deps, name: string) => provisionerOf(deps).status(name),
      /** Exactly what the HTTP gateway answers for this JSON-RPC text (401 wrong credentials, 503 stopped, 404 unknown). */
      gateway: (deps: Deps, name: string, credentials: NetworkCredentials, body: string) =>
        provisionerOf(deps).gateway(name, credentials, body),
      /** Gas from the network's treasury (the transaction's hash). */
      fund: (deps: Deps, name: string, address: string, wei: bigint) => provisionerOf(deps).fund(name, address, wei),
    },
  },
});
