import { and, asc, eq, isNotNull, isNull, inArray } from "drizzle-orm";
import { accessAllowed } from "#contract/participation-codes.ts";
import { RPC_BODY_LIMIT_BYTES } from "#contract/public-chain-codes.ts";
import { RPC_DOOR_RATE_PER_MINUTE } from "#backend/kit/door-rate.ts";
import { VerState } from "#contract/service-status.ts";
import type { Endpoint } from "#backend/kit/domain.ts";
import billing from "#backend/domains/billing/index.ts";
import chain from "#backend/domains/chain/index.ts";
import { appJoins } from "#backend/domains/participation/tables.ts";
import { SERVICE_KEY_SHAPE, SERVICE_RPC_PREFIX, hashServiceKey } from "./chain.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { appNodes, appVersions, apps, serviceChainKeys, serviceChains } from "./tables.ts";

/**
 * A consortium service's chain over JSON-RPC (docs/decisions/038): POST /chain/service/<key>, standard JSON-RPC
 * that viem and ethers use; POST /chain/service/<city node code>/<key> is the same chain reached through one
 * booked city node of the running version (docs/decisions/052), answered only for a node the service has. The key is one user's: the publisher's, or a participant's whose participation
 * gives access (approved, not disabled: SPEC §4). The service must be running (25); a key stops working when
 * its user loses access, and the chain keeps its state. Every answered call is metered (docs/decisions/057): the
 * service, the participant (0 for the publisher), the city node (the path's, else the first booked one), the
 * method, calls and bytes in and out, billed to the publisher.
 */
const headers = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };
const refusal = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }), { status, headers });

export const serviceChainRpc: Endpoint = {
  methods: ["POST"],
  path: SERVICE_RPC_PREFIX,
  auth: "key",
  bodyLimitBytes: RPC_BODY_LIMIT_BYTES,
  // The same rate as /chain/rpc (docs/decisions/067).
  ratePerMinute: RPC_DOOR_RATE_PER_MINUTE,
  jsonRpc: true,
  async handle(request, deps) {
    const rest = decodeURIComponent(new URL(request.url).pathname.slice(SERVICE_RPC_PREFIX.length));
    const slash = rest.lastIndexOf("/");
    const nodeCode = slash >= 0 ? rest.slice(0, slash) : null;
    const key = rest.slice(slash + 1);
    if (!SERVICE_KEY_SHAPE.test(key) || (nodeCode !== null && !/^[A-Za-z0-9-]{1,40}$/.test(nodeCode)))
      return refusal(
        401,
        -32001,
        "a valid service key is required: POST to /chain/service/<key> or /chain/service/<city node code>/<key>",
      );
    const [row] = await deps.db
      .select({
        userId: serviceChainKeys.userId,
        appId: apps.id,
        owner: apps.userId,
        chainName: serviceChains.chainName,
        verState: appVersions.verState,
        verId: appVersions.id,
      })
      .from(serviceChainKeys)
      .innerJoin(apps, eq(apps.id, serviceChainKeys.appId))
      .innerJoin(serviceChains, eq(serviceChains.appId, apps.id))
      .leftJoin(appVersions, eq(appVersions.id, apps.currentVerId))
      .where(eq(serviceChainKeys.keyHash, hashServiceKey(key)));
    if (!row) return refusal(401, -32001, "unknown service key");
    if (row.verState !== VerState.RUNNING) return refusal(403, -32002, "this service is not running");
    // The city node the call is metered on: the one in the path, else the first booked node of the version.
    const nodes = await deps.db
      .select({ id: appNodes.cityNodeId, code: cityNodes.code })
      .from(appNodes)
      .innerJoin(cityNodes, eq(cityNodes.id, appNodes.cityNodeId))
      .where(and(eq(appNodes.verId, row.verId!), isNotNull(appNodes.bookedAt)))
      .orderBy(asc(cityNodes.id));
    const node = nodeCode === null ? nodes[0] : nodes.find((n) => n.code.toUpperCase() === nodeCode.toUpperCase());
    if (nodeCode !== null && !node) return refusal(404, -32004, `this service has no node ${nodeCode}`);
    let joinId = 0;
    if (row.userId !== row.owner) {
      const joins = await deps.db
        .select({ id: appJoins.id, auditState: appJoins.auditState })
        .from(appJoins)
        .where(
          and(
            eq(appJoins.appId, row.appId),
            eq(appJoins.userId, row.userId),
            isNull(appJoins.disabledAt),
            inArray(appJoins.auditState, [13, 15]),
          ),
        );
      const open = joins.find((j) =>
        accessAllowed({ auditState: j.auditState, verState: row.verState ?? 0, disabled: false }),
      );
      if (!open) return refusal(403, -32003, "this key's participation gives no access to the service");
      joinId = open.id;
    }
    const text = await request.text();
    const answer = JSON.stringify(await chain.api.answer(deps, row.chainName, text));
    // Metered where it happens (docs/decisions/057): per service, participant, city node, method and day.
    if (node) {
      const bytesIn = Buffer.byteLength(text);
      const bytesOut = Buffer.byteLength(answer);
      for (const [i, m] of callsOf(text).entries())
        billing.api.meterTraffic(deps, {
          userId: row.owner,
          cityNodeId: node.id,
          appId: row.appId,
          joinId,
          callerId: joinId ? row.userId : null,
          method: m.method,
          calls: m.calls,
          bytesIn: i === 0 ? bytesIn : 0,
          bytesOut: i === 0 ? bytesOut : 0,
        });
    }
    return new Response(answer, { status: 200, headers });
  },
};

/** The JSON-RPC methods of a body and how many calls each (a batch has many; an unreadable body is one call of ""). */
function callsOf(text: string): { method: string; calls: number }[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [{ method: "", calls: 1 }];
  }
  const list = Array.isArray(body) ? body : [body];
  const counts = new Map<string, number>();
  for (const c of list) {
    const method = c && typeof c === "object" && "method" in c ? String((c as { method: unknown }).method) : "";
    counts.set(method, (counts.get(method) ?? 0) + 1);
  }
  return counts.size ? [...counts].map(([method, calls]) => ({ method, calls })) : [{ method: "", calls: 1 }];
}
