import { eq } from "drizzle-orm";
import { RPC_BODY_LIMIT_BYTES } from "#contract/public-chain-codes.ts";
import { TestServiceStatus } from "#contract/test-services-codes.ts";
import type { Endpoint } from "#backend/kit/domain.ts";
import chain from "#backend/domains/chain/index.ts";
import { TEST_KEY_SHAPE, hashKey } from "./network.ts";
import { testServices } from "./tables.ts";

/**
 * The access URL of a test service (SPEC §3; docs/decisions/034): POST /chain/test/<test key>, standard
 * JSON-RPC on the test network. The test network is free: no plan, no meter, no bill; the key must belong to
 * a deployed test service (status 10), and the address's rate limit guards the network.
 */
const PREFIX = "/chain/test/";
const headers = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };

const refusal = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }), { status, headers });

export const testServiceRpc: Endpoint = {
  methods: ["POST"],
  path: PREFIX,
  auth: "key",
  bodyLimitBytes: RPC_BODY_LIMIT_BYTES,
  // The free test network: 10 a second per address (docs/decisions/067).
  ratePerMinute: 600,
  jsonRpc: true,
  async handle(request, deps) {
    const key = decodeURIComponent(new URL(request.url).pathname.slice(PREFIX.length));
    if (!TEST_KEY_SHAPE.test(key))
      return refusal(401, -32001, "a valid test key is required: POST to /chain/test/<test key>");
    const [row] = await deps.db
      .select({ status: testServices.status, chainName: testServices.chainName })
      .from(testServices)
      .where(eq(testServices.keyHash, hashKey(key)));
    if (!row) return refusal(401, -32001, "unknown test key");
    if (row.status !== TestServiceStatus.DEPLOYED || !row.chainName)
      return refusal(403, -32002, "this test service is not deployed: deploy it (again) to use its access URL");
    return new Response(JSON.stringify(await chain.api.answer(deps, row.chainName, await request.text())), {
      status: 200,
      headers,
    });
  },
};
