import { CLIENT_ADDRESS_HEADER } from "#contract/envelope.ts";
import type { Deps } from "#backend/deps.ts";
import { addressKey } from "./rate-limit-rules.ts";

/**
 * The lock on the doors that take a credential (docs/decisions/062; issue "limits on every door"): the key
 * doors outside /vueapi (`/chain/rpc`, `/chain/service`, the IPFS gateways, the dedicated-node gateways). A
 * refused credential (the door answers 401) is counted in the database per (client address, door,
 * credential); at the tenth in 15 minutes that pair is locked for 15 minutes: every request with it is refused
 * with 429 and Retry-After before the door checks anything, so a flood of guesses costs neither an scrypt run
 * nor a key lookup. A good credential writes nothing. Whether a pair is locked is read from the database and
 * remembered in this process for one second, so a lock set by another process may let at most one second of
 * requests through here.
 */
const REMEMBER_MS = 1000;
const MAX_REMEMBERED = 10_000;
const remembered = new Map<string, { until: number; locked: boolean; retryAfterSeconds: number }>();

/**
 * What a request claims to be at a door: the door itself for a key (each guess is another key, so the
 * address's guesses count together), and the user name too for HTTP Basic (a gateway's user and network).
 */
export function credentialOf(request: Request, doorPath: string): string {
  const url = new URL(request.url);
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  if (!basic) return doorPath;
  const text = Buffer.from(basic[1]!, "base64").toString("utf8");
  const user = text.slice(0, Math.max(0, text.indexOf(":")));
  const network = url.pathname.slice(doorPath.length).split("/")[0] ?? "";
  return `${doorPath}${network}:${user}`.slice(0, 300);
}

function subjectOf(request: Request, doorPath: string, deps: Deps): string | null {
  const address = addressKey(request.headers.get(CLIENT_ADDRESS_HEADER));
  if (deps.limits.config.exempt.has(address)) return null;
  return `${address}|${credentialOf(request, doorPath)}`;
}

function lockedAnswer(retryAfterSeconds: number): Response {
  return new Response(
    JSON.stringify({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32005,
        message: `too many refused credentials from this address: try again in ${retryAfterSeconds} s`,
      },
    }),
    {
      status: 429,
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "no-store",
        "Retry-After": String(retryAfterSeconds),
      },
    },
  );
}

/** Serves `handle` behind the lock: a locked pair gets 429; a 401 from the door counts one refusal. */
export async function guardDoor(
  request: Request,
  doorPath: string,
  deps: Deps,
  handle: (request: Request) => Promise<Response>,
): Promise<Response> {
  const subject = subjectOf(request, doorPath, deps);
  if (subject === null) return handle(request);
  const known = await lockOf(subject, deps);
  if (known.locked) return lockedAnswer(known.retryAfterSeconds);
  const response = await handle(request);
  if (response.status === 401) await refuse(subject, deps);
  return response;
}

/** Whether `subject` is locked: from this process's memory for a second, else from the database. */
async function lockOf(subject: string, deps: Deps) {
  const now = Date.now();
  let known = remembered.get(subject);
  if (!known || known.until <= now) {
    const peeked = await deps.limits.peek("door.lock", subject);
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    known = { until: now + REMEMBER_MS, locked: peeked.over, retryAfterSeconds: peeked.retryAfterSeconds };
    remembered.set(subject, known);
  }
  return known;
}

/** Counts one refused credential of `subject`; at the limit, the pair is locked here at once. */
async function refuse(subject: string, deps: Deps) {
  const counted = await deps.limits.hit("door.lock", subject);
  if (counted.over)
    remembered.set(subject, {
      until: Date.now() + REMEMBER_MS,
      locked: true,
      retryAfterSeconds: counted.retryAfterSeconds,
    });
}

/**
 * The same lock for a door that does not speak HTTP (the Fabric gateway's gRPC port, docs/decisions/065): a
 * refused identity counts one refusal per (client address, door); `locked` answers the seconds to wait, 0 when
 * the address may call. Exempt addresses are never locked.
 */
export function doorLock(deps: Deps, door: string) {
  const subjectOf = (address: string) => {
    const key = addressKey(address);
    return deps.limits.config.exempt.has(key) ? null : `${key}|${door}`;
  };
  return {
    async locked(address: string): Promise<number> {
      const subject = subjectOf(address);
      if (subject === null) return 0;
      const known = await lockOf(subject, deps);
      return known.locked ? Math.max(1, known.retryAfterSeconds) : 0;
    },
    async refused(address: string): Promise<void> {
      const subject = subjectOf(address);
      if (subject !== null) await refuse(subject, deps);
    },
  };
}
