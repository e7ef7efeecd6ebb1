import { RPC_BODY_LIMIT_BYTES } from "#contract/public-chain-codes.ts";
import { RPC_DOOR_RATE_PER_MINUTE } from "#backend/kit/door-rate.ts";
import type { Endpoint } from "#backend/kit/domain.ts";
import chain from "#backend/domains/chain/index.ts";
import { projectOfKey, takeRequests } from "./meter.ts";
import { KEY_SHAPE } from "./keys.ts";
import { meterRows, methodsOf } from "./rules.ts";

/**
 * The keyed JSON-RPC endpoint of open-alliance projects (issue 12, SPEC §7 x-api-key, §9): POST
 * /chain/rpc/<projectKey>, or /chain/rpc with the key in `x-api-key`. It answers only for an enabled key of an
 * enabled project (status 16); every request counts max(calls, ceil(size / 5 MB)) against the project's daily
 * requests (UTC+8 day) and is metered per method; at the cap it answers HTTP 429 with a JSON-RPC error.
 */
const PREFIX = "/chain/rpc";

/** JSON-RPC errors of the endpoint itself (the chain's own are answered by the chain domain). */
export const RPC_REFUSAL = { KEY: -32001, DISABLED: -32002, LIMIT: -32005 } as const;

const headers = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };

function refusal(
  status: number,
  code: number,
  message: string,
  id: unknown = null,
  extra: Record<string, string> = {},
) {
  return new Response(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }), {
    status,
    headers: { ...headers, ...extra },
  });
}

/** The id of a single call (for its error), else null. */
function idOf(text: string): unknown {
  try {
    const body = JSON.parse(text) as { id?: unknown };
    return body &&
      !Array.isArray(body) &&
      typeof body === "object" &&
      (typeof body.id === "number" || typeof body.id === "string")
      ? body.id
      : null;
  } catch {
    return null;
  }
}

/** Seconds until the next UTC+8 midnight, when the daily count starts again. */
function secondsToNextDay(now: Date): number {
  const shifted = now.getTime() + 8 * 3_600_000;
  return Math.max(1, Math.ceil((Math.ceil(shifted / 86_400_000) * 86_400_000 - shifted) / 1000));
}

export const projectRpc: Endpoint = {
  methods: ["POST"],
  path: `${PREFIX}/`,
  auth: "key",
  bodyLimitBytes: RPC_BODY_LIMIT_BYTES,
  // 50 a second per address (docs/decisions/067): far above what a wallet or an indexer polling one project
  // sends; the project's daily cap, not this rate, is what bounds a key's use.
  ratePerMinute: RPC_DOOR_RATE_PER_MINUTE,
  jsonRpc: true,
  async handle(request, deps) {
    const rest = new URL(request.url).pathname.slice(PREFIX.length);
    let key: string | null;
    if (rest === "" || rest === "/") key = request.headers.get("x-api-key");
    else if (/^\/[^/]+$/.test(rest)) key = decodeURIComponent(rest.slice(1));
    else
      return refusal(
        404,
        -32601,
        "not found: POST to /chain/rpc/<project key>, or to /chain/rpc with the key in x-api-key",
      );
    if (!key || !KEY_SHAPE.test(key))
      return refusal(401, RPC_REFUSAL.KEY, "a valid project key is required (in the path or the x-api-key header)");
    const found = await projectOfKey(deps.db, key);
    if ("refused" in found) {
      if (found.refused === "unknown") return refusal(401, RPC_REFUSAL.KEY, "unknown project key");
      if (found.refused === "key disabled") return refusal(403, RPC_REFUSAL.DISABLED, "this project key is disabled");
      return refusal(403, RPC_REFUSAL.DISABLED, "this project is not enabled");
    }
    const bytes = new Uint8Array(await request.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    const now = deps.now();
    const rows = meterRows(methodsOf(text), bytes.byteLength);
    if (!(await takeRequests(deps.db, found.project, rows, bytes.byteLength, now))) {
      const units = rows.reduce((n, r) => n + r.requests, 0);
      return refusal(
        429,
        RPC_REFUSAL.LIMIT,
        `daily request limit reached: this project may make ${found.project.dailyRequests} requests a day (UTC+8) and this request counts ${units}; raise the project's daily requests or wait until tomorrow`,
        idOf(text),
        { "Retry-After": String(secondsToNextDay(now)) },
      );
    }
    return new Response(JSON.stringify(await chain.api.answer(deps, found.project.chain, text)), {
      status: 200,
      headers,
    });
  },
};
