// @ts-check
/**
 * The end user's address (docs/decisions/021). The server entry is where it is known: the socket's peer, or,
 * when TRUST_PROXY says the peer is a proxy of ours, the address that proxy put in X-Forwarded-For (Express's
 * `trust proxy`, req.ip). It reaches the app two ways: as `context.clientAddress` (the /vueapi route), and
 * in the CLIENT_ADDRESS_HEADER of the request, which is overwritten on every incoming request so that a
 * browser cannot choose its value (the portal's request layer passes it on to the backend in-process).
 */

/** The same name as contract/envelope.ts CLIENT_ADDRESS_HEADER (tests/unit/client-address.test.ts checks it). */
export const CLIENT_ADDRESS_HEADER = "x-portal-client-address";

/**
 * TRUST_PROXY as Express's `trust proxy` setting: unset, "0" or "false" trusts no proxy (the socket's address
 * counts); a number trusts that many proxy hops in front of this server; otherwise a comma-separated list of
 * addresses, subnets (CIDR) or the names loopback, linklocal, uniquelocal. "true" (trust any peer) is
 * refused: anyone reaching the server directly could then choose their address.
 * @param {string | undefined} value
 * @returns {false | number | string[]}
 */
export function parseTrustProxy(value) {
  const text = (value ?? "").trim();
  if (text === "" || text === "0" || text === "false") return false;
  if (text === "true")
    throw new Error(
      "TRUST_PROXY=true would let any client choose its address: give the number of proxy hops or the proxies' addresses",
    );
  if (/^\d+$/.test(text)) return Number(text);
  return text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * The address Express determined for the request (its `trust proxy` applied), or the socket's.
 * @param {import("express").Request} req
 * @returns {string | undefined}
 */
export function clientAddressOf(req) {
  return req.ip ?? req.socket.remoteAddress ?? undefined;
}
