import { createCookieSessionStorage, redirect } from "@remix-run/node";
import type { IdeCallResult } from "#contract/ide.ts";
import { getEnv } from "./env.server.ts";
import { PC } from "./public-chain-urls.ts";
import { flashCookie } from "./session.server.ts";

type Flash = Parameters<typeof flashCookie>[1];

/**
 * The contract page's write, post-redirect-get (issue 30 leftovers; docs/decisions/081): a sent transaction is
 * answered with a 303 to the page itself, so reloading the answer reads the page again and never sends the
 * transaction a second time. The answer travels in two one-time cookies: the flash (the banner every page
 * shows once) and this one, the transaction, its receipt and its decoded events, which the page shows once
 * under the function that sent it and clears. It is scoped to the contract page's path and stays under a
 * cookie's 4 KB: the raw input, topics and data are left out (the page's events table has them) and events
 * that do not fit are counted instead of carried.
 */

export const CONTRACT_PAGE = `${PC}/Contract`;

/** What the page shows of a write: the function's signature, the result as the IDE shows it, the events left out. */
export type WrittenResult = { contractId: number; signature: string; result: IdeCallResult; moreEvents: number };

type WrittenData = { written: WrittenResult };

/** A cookie's value must stay below 4096 bytes with its name and attributes; this leaves them room. */
const MAX_COOKIE = 3800;

let storage: ReturnType<typeof createCookieSessionStorage<Record<string, never>, WrittenData>> | undefined;

function getStorage() {
  const env = getEnv();
  storage ??= createCookieSessionStorage<Record<string, never>, WrittenData>({
    cookie: {
      name: "__contract_written",
      path: CONTRACT_PAGE,
      httpOnly: true,
      sameSite: "lax",
      secure: env.cookieSecure,
      secrets: env.sessionSecrets,
    },
  });
  return storage;
}

/** The result without what the page does not show (the raw input, topics and data). */
function slim(result: IdeCallResult): IdeCallResult {
  return {
    ...result,
    transaction: result.transaction ? { ...result.transaction, input: "" } : null,
    events: result.events.map((e) => ({ ...e, topics: [], data: "" })),
  };
}

/** The cookie holding `value`, or null when it would not fit (Remix refuses cookies over 4096 bytes). */
async function cookieOf(value: WrittenResult): Promise<string | null> {
  const session = await getStorage().getSession();
  session.flash("written", value);
  try {
    const cookie = await getStorage().commitSession(session);
    return cookie.length <= MAX_COOKIE ? cookie : null;
  } catch {
    return null;
  }
}

/** Bytes of the cookie's value before signing: the JSON as UTF-8, in base64. */
const encodedSize = (value: unknown) => Math.ceil((Buffer.byteLength(JSON.stringify(value)) * 4) / 3);

/** The cookie that carries `written`, with as many of its events as fit (the others counted). */
export async function writtenCookie(written: Omit<WrittenResult, "moreEvents">): Promise<string> {
  const result = slim(written.result);
  const all = result.events.length;
  const value = (events: IdeCallResult["events"], outputs = result.outputs): WrittenResult => ({
    ...written,
    result: { ...result, outputs, events },
    moreEvents: all - events.length,
  });
  const events = [...result.events];
  // The estimate drops what cannot fit at once; the signed cookie itself decides the rest.
  while (events.length > 0 && encodedSize(value(events)) > MAX_COOKIE) events.pop();
  for (;;) {
    const cookie = await cookieOf(value(events));
    if (cookie) return cookie;
    if (events.length === 0) break;
    events.pop();
  }
  // Outputs too long to carry (a write rarely has any): the transaction and its receipt still are.
  return (await cookieOf(value([], [])))!;
}

/** The flash of a sent transaction: confirmed, reverted, or sent with no receipt yet; the hash shortened. */
export function writtenFlash(result: IdeCallResult): Flash {
  const hash = result.transaction ? `${result.transaction.hash.slice(0, 10)}…` : "";
  if (!result.receipt) return { kind: "info", key: "contracts:flash.writeSent", params: { hash } };
  const block = String(result.receipt.blockNumber);
  return result.receipt.status === "success"
    ? { kind: "success", key: "contracts:flash.written", params: { hash, block } }
    : { kind: "error", key: "contracts:flash.writeReverted", params: { hash, block } };
}

/** The answer to a sent transaction: 303 to `to` (the page itself), with the flash and the result, each once. */
export async function redirectAfterWrite(
  request: Request,
  to: string,
  written: Omit<WrittenResult, "moreEvents">,
): Promise<Response> {
  const headers = new Headers();
  headers.append("Set-Cookie", await writtenCookie(written));
  headers.append("Set-Cookie", await flashCookie(request, writtenFlash(written.result)));
  return redirect(to, { status: 303, headers });
}

/**
 * The result of the write this request follows, read once: null when there is none or it belongs to another
 * contract; `setCookie` clears the cookie whenever it held one.
 */
export async function takeWritten(
  request: Request,
  contractId: number,
): Promise<{ written: WrittenResult | null; setCookie: string | null }> {
  const session = await getStorage().getSession(request.headers.get("Cookie"));
  const written = session.get("written");
  if (!written) return { written: null, setCookie: null };
  const setCookie = await getStorage().commitSession(session);
  return { written: written.contractId === contractId ? written : null, setCookie };
}
