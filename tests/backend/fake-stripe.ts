import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/**
 * A stand-in for the Stripe API's Checkout Session calls (create, retrieve with expand, expire), on a real
 * socket inside the test, so that the official `stripe` client runs unchanged with its host, port and
 * protocol pointed here. Its answers are built on recorded objects (fixtures/stripe/*.json); it keeps
 * the sessions it made, records every request, and refuses what Stripe refuses that matters here (a
 * session ending less than 30 minutes after its creation, a missing price, expiring a closed session).
 */

type Json = Record<string, any>;
/** A recorded Stripe object of fixtures/stripe/, as any of its types. */
export const fixture = (name: string): any =>
  JSON.parse(readFileSync(path.join(__dirname, "fixtures/stripe", name), "utf8"));

type Answer = { status: number; body: Json };

export type Recorded = { method: string; path: string; params: Json; headers: IncomingHttpHeaders };

/** Stripe's form encoding (`line_items[0][price_data][currency]=usd`) back into objects and arrays. */
function parseForm(text: string): Json {
  const out: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node: Json = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = node[part] ??= /^[0-9]+$/.test(parts[i + 1]) ? [] : {};
    });
  }
  return out;
}

function stripeError(status: number, message: string, code?: string): Answer {
  return { status, body: { error: { type: "invalid_request_error", message, ...(code ? { code } : {}) } } };
}

export async function startFakeStripe() {
  const sessions = new Map<string, Json>();
  const requests: Recorded[] = [];
  const now = () => Math.floor(Date.now() / 1000);

  function create(params: Json): Answer {
    const mode = params.mode;
    if (mode !== "payment" && mode !== "setup")
      return stripeError(400, "Missing required param: mode.", "parameter_missing");
    if (!params.success_url) return stripeError(400, "Missing required param: success_url.", "parameter_missing");
    const created = now();
    const expiresAt = params.expires_at ? Number(params.expires_at) : created + 24 * 3600;
    if (expiresAt < created + 30 * 60)
      return stripeError(
        400,
        "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.",
        "parameter_invalid_integer",
      );
    const line = params.line_items?.[0];
    if (mode === "payment" && (!line?.price_data?.currency || !line?.price_data?.unit_amount))
      return stripeError(400, "Missing required param: line_items[0][price_data].", "parameter_missing");
    const amount = mode === "payment" ? Number(line.price_data.unit_amount) * Number(line.quantity ?? 1) : null;
    const id = `cs_test_${randomBytes(30).toString("base64url").replace(/[-_]/g, "x")}`;
    const session = {
      ...fixture("session.open.json"),
      id,
      created,
      expires_at: expiresAt,
      mode,
      client_reference_id: params.client_reference_id ?? null,
      metadata: params.metadata ?? {},
      success_url: params.success_url,
      cancel_url: params.cancel_url ?? null,
      payment_method_types: params.allowed_payment_method_types ?? ["card"],
      currency: mode === "payment" ? line.price_data.currency : null,
      amount_subtotal: amount,
      amount_total: amount,
      total_details: mode === "payment" ? { amount_discount: 0, amount_shipping: 0, amount_tax: 0 } : null,
      payment_status: mode === "setup" ? "no_payment_required" : "unpaid",
      status: "open",
      url: `https://checkout.stripe.com/c/pay/${id}`,
    };
    sessions.set(id, session);
    return { status: 200, body: session };
  }

  function retrieve(id: string, expand: string[]): Answer {
    const session = sessions.get(id);
    if (!session) return stripeError(404, `No such checkout.session: '${id}'`, "resource_missing");
    if (typeof session.setup_intent === "string" && expand.includes("setup_intent.payment_method")) {
      return {
        status: 200,
        body: { ...session, setup_intent: { ...fixture("setup_intent.succeeded.json"), id: session.setup_intent } },
      };
    }
    return { status: 200, body: session };
  }

  function expire(id: string): Answer {
    const session = sessions.get(id);
    if (!session) return stripeError(404, `No such checkout.session: '${id}'`, "resource_missing");
    if (session.status !== "open")
      return stripeError(400, `Only Checkout Sessions with a status in ["open"] can be expired.`);
    Object.assign(session, { status: "expired", url: null });
    return { status: 200, body: session };
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake.stripe");
      const params = parseForm(req.method === "GET" ? url.search.slice(1) : Buffer.concat(chunks).toString("utf8"));
      requests.push({ method: req.method ?? "", path: url.pathname, params, headers: req.headers });
      const expand: string[] = params.expand ?? [];
      const match = url.pathname.match(/^\/v1\/checkout\/sessions(?:\/([A-Za-z0-9_]+))?(\/expire)?$/);
      let answer: Answer = stripeError(404, `Unrecognized request URL (${req.method}: ${url.pathname}).`);
      if (!req.headers.authorization?.startsWith("Bearer sk_test_"))
        answer = {
          status: 401,
          body: { error: { type: "invalid_request_error", message: "Invalid API Key provided." } },
        };
      else if (match && req.method === "POST" && !match[1]) answer = create(params);
      else if (match && req.method === "GET" && match[1] && !match[2]) answer = retrieve(match[1], expand);
      else if (match && req.method === "POST" && match[1] && match[2]) answer = expire(match[1]);
      res.writeHead(answer.status, {
        "Content-Type": "application/json",
        "Request-Id": `req_${randomBytes(7).toString("hex")}`,
      });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    sessions,
    requests,
    /** The payer finishes the session at Stripe (paid; a setup gets its setup intent); `changes` makes Stripe say something else. */
    complete(id: string, changes: Json = {}) {
      const session = sessions.get(id)!;
      const setup = session.mode === "setup";
      Object.assign(
        session,
        { status: "complete", url: null, payment_status: setup ? "no_payment_required" : "paid" },
        setup ? { setup_intent: fixture("setup_intent.succeeded.json").id } : {},
        changes,
      );
      return session;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

/**
 * A recorded webhook event (fixtures/stripe/event.*.json) about `session` as Stripe knows it now: the
 * recorded session fields with this session's identity, amounts and state, under a fresh event id.
 */
export function eventAbout(fixtureName: string, session: Json): string {
  const event = fixture(fixtureName);
  const own = [
    "id",
    "created",
    "expires_at",
    "mode",
    "client_reference_id",
    "metadata",
    "success_url",
    "cancel_url",
    "currency",
    "amount_subtotal",
    "amount_total",
    "status",
    "payment_status",
    "setup_intent",
  ];
  event.id = `evt_${randomBytes(12).toString("hex")}`;
  event.data.object = { ...event.data.object, ...Object.fromEntries(own.map((k) => [k, session[k]])) };
  return JSON.stringify(event, null, 2);
}
