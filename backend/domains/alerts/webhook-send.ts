import { createHmac, randomBytes } from "node:crypto";
import { request } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMEOUT_MS } from "#contract/alert-webhook.ts";

/**
 * One attempt of a webhook delivery (docs/decisions/092): a JSON POST over HTTPS to the address the guard checked
 * (./webhook-address.ts), connected to that IP through a pinned lookup (no second resolution) while the TLS server
 * name and the Host header stay the URL's name, so the certificate is verified for the name. Node's https client
 * follows no redirect: a 3xx is a failure like any answer outside 2xx. The whole attempt, connection included, has
 * WEBHOOK_TIMEOUT_MS. The answer's body is read and dropped (at most 64 KB), never stored.
 */

/** A new signing secret: 32 random bytes, hex, with a prefix that says what it is. */
export const newSecret = () => `whsec_${randomBytes(32).toString("hex")}`;

/** The signature header's value: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`. */
export function signature(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  return `t=${t},v1=${v1}`;
}

export type Attempt = { ok: true; status: number } | { ok: false; status: number | null; error: string };

export type Target = { url: URL; host: string; address: string; family: 4 | 6 };

const MAX_ANSWER_BYTES = 64 * 1024;

export function postSigned(
  target: Target,
  body: string,
  headers: Record<string, string>,
  secret: string,
  at: Date,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<Attempt> {
  // Every resolution of this request answers the checked address.
  const pinned: LookupFunction = (_host, options, callback) => {
    const cb = callback as (...args: unknown[]) => void;
    if ((options as { all?: boolean }).all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  };
  const signal = AbortSignal.timeout(timeoutMs);
  return new Promise<Attempt>((resolve) => {
    const req = request(
      {
        protocol: "https:",
        host: target.host,
        port: target.url.port || 443,
        path: `${target.url.pathname}${target.url.search}`,
        method: "POST",
        lookup: pinned,
        // The certificate is checked for the name (SNI); an IP address is checked against its IP entries, without SNI.
        ...(isIP(target.host) ? {} : { servername: target.host }),
        signal,
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "BSN-Portal-Webhook/1",
          [WEBHOOK_SIGNATURE_HEADER]: signature(secret, body, at),
          ...headers,
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const done = () =>
          resolve(
            status >= 200 && status < 300
              ? { ok: true, status }
              : {
                  ok: false,
                  status,
                  error:
                    status >= 300 && status < 400 ? `redirect refused (HTTP ${status})` : `answered HTTP ${status}`,
                },
          );
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      const timedOut = signal.aborted;
      resolve({
        ok: false,
        status: null,
        error: timedOut
          ? `no answer within ${timeoutMs / 1000} s`
          : `${error.code ?? "error"}: ${error.message}`.slice(0, 300),
      });
    });
    req.end(body);
  });
}
