import type { Deps } from "../../deps";
import { defineDomain, type Endpoint } from "../../kit/domain";
import { compileSolidity, compileWorkspace, stopCompiler } from "./compile";
import { OPEN_ALLIANCE, TEST_NETWORK, ChainRegistry } from "./registry";
import { answerText, type RpcCall } from "./rpc";

/**
 * The chain domain (docs/decisions/025): the registry of EVM chains (the embedded engine in a worker thread,
 * or CHAIN_RPC_URL), their durable log and index in the database, the JSON-RPC layer and the compiler.
 * Other domains reach it through `api`; the keyed public endpoint comes with the public-chain console.
 */
const registries = new WeakMap<Deps, ChainRegistry>();
/** The same by configuration: an audited operator path's handler gets a copy of the deps (its db the decision's transaction). */
const registriesByEnv = new WeakMap<Deps["env"], ChainRegistry>();

function registryOf(deps: Deps): ChainRegistry {
  const registry = registries.get(deps) ?? registriesByEnv.get(deps.env);
  if (!registry) throw new Error("the chain domain has not started");
  return registry;
}

/** The largest JSON-RPC request body (SPEC §9: 5 MB per request). */
const RPC_BODY_LIMIT = 5 * 1024 * 1024;

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" } });

/**
 * Tests only (TEST_FIXTURES=1): a chain's JSON-RPC over HTTP without a key, at /chain/test-rpc/<chain name>;
 * `…/<chain name>/fund` ({ address, wei }) sends gas from its treasury and `…/<chain name>/compile` (file name →
 * source) compiles, so that tests reach what later slices reach through the api.
 */
const testRpc: Endpoint = {
  methods: ["POST"],
  path: "/chain/test-rpc/",
  auth: "public",
  bodyLimitBytes: RPC_BODY_LIMIT,
  ratePerMinute: null,
  enabled: (env) => env.testFixtures,
  async handle(request, deps) {
    const [name = "", action, ...rest] = new URL(request.url).pathname.slice("/chain/test-rpc/".length).split("/").map(decodeURIComponent);
    const registry = registryOf(deps);
    if (!registry.has(name) || rest.length) return json(404, { jsonrpc: "2.0", id: null, error: { code: -32601, message: `no chain named ${name}` } });
    const text = await request.text();
    if (action === undefined) return json(200, await answerText(registry.node(name), text));
    try {
      const body = JSON.parse(text) as Record<string, string>;
      if (action === "fund") return json(200, { hash: await registry.fund(name, String(body.address), BigInt(body.wei ?? "0")) });
      if (action === "compile") return json(200, await compileSolidity(body));
    } catch (error) {
      return json(400, { error: error instanceof Error ? error.message : String(error) });
    }
    return json(404, { error: `no action ${action}` });
  },
};

export default defineDomain({
  name: "chain",
  async start(deps) {
    const registry = new ChainRegistry(deps);
    registries.set(deps, registry);
    registriesByEnv.set(deps.env, registry);
    await registry.start();
  },
  async stop(deps) {
    await registries.get(deps)?.close();
    registries.delete(deps);
    registriesByEnv.delete(deps.env);
    await stopCompiler();
  },
  async health(deps) {
    return { chains: await registryOf(deps).health() };
  },
  endpoints: [testRpc],
  api: {
    OPEN_ALLIANCE,
    TEST_NETWORK,
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
    /** Signs with `privateKey` and sends a transfer, call or creation; resolves with the hash once accepted (`onSigned` gets the hash before the send). */
    send: (deps: Deps, name: string, privateKey: string, input: { to?: string; data?: string; value?: bigint; gasLimit?: bigint }, onSigned?: (hash: string) => Promise<void>) =>
      registryOf(deps).send(name, privateKey, input, onSigned),
    /** Deploys creation bytecode from the account of `privateKey`: address, transaction, block (or throws the chain's reason). */
    deploy: (deps: Deps, name: string, privateKey: string, bytecode: string) => registryOf(deps).deploy(name, privateKey, bytecode),
    /** Compiles Solidity sources off the main thread: contracts (ABI, bytecode) or the compiler's errors. */
    compile: compileSolidity,
    /** Compiles a workspace's files with imports between them and from OpenZeppelin, messages at file and line (docs/decisions/044). */
    compileWorkspace,
  },
});
