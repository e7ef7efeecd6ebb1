import { escapeHtml } from "#contract/html-text.ts";
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { sandboxCheckouts } from "./tables.ts";
import { schedule, type JobHandler } from "#backend/jobs/runner.ts";
import type { Deps } from "#backend/deps.ts";
import { PLATFORM_CURRENCY } from "#contract/payments-codes.ts";
import { eventFor, signCallback, type CheckoutRequest, type CheckoutState, type CheckoutStatus } from "./checkout.ts";
import { webhookSecret } from "./secret.ts";
import { alipayPage, wechatPayPage, type WalletPageFacts } from "./sandbox-wallets.ts";

/**
 * The SANDBOX card payment provider (docs/decisions/007): a third party of its own, embedded in this
 * process for development, tests and demos. It keeps its own records (`sandbox_checkouts`, never a full
 * card number), serves its hosted checkout page under /sandbox-pay (plain HTML, works without
 * JavaScript), and tells the merchant the outcome with a signed server-to-server callback, a durable
 * job retried until the merchant answers code 0. It takes no real money: it runs only outside production
 * or as the demo (DEMO=1), and its page says "test mode" (docs/decisions/020).
 */

export const SANDBOX_PATH = "/sandbox-pay";
const MERCHANT_NAME = "BSN Portal";

type TestCard = { brand: string; outcome: "succeeded" } | { brand: string; outcome: "declined"; reason: string };

/** The sandbox's test cards, listed on its page as a hint. */
export const TEST_CARDS: Record<string, TestCard> = {
  "4242424242424242": { brand: "Visa", outcome: "succeeded" },
  "5555555555554444": { brand: "Mastercard", outcome: "succeeded" },
  "4000000000000002": { brand: "Visa", outcome: "declined", reason: "card_declined" },
  "4000000000009995": { brand: "Visa", outcome: "declined", reason: "insufficient_funds" },
};

type Row = typeof sandboxCheckouts.$inferSelect;

export function sandboxCheckoutUrl(services: Deps, id: string): string {
  return `${services.env.publicUrl}${SANDBOX_PATH}/checkout/${encodeURIComponent(id)}`;
}

function stateOf(row: Row): CheckoutState {
  return {
    reference: row.id,
    mode: row.mode === "setup" ? "setup" : "payment",
    merchantRef: row.merchantRef,
    status: row.status as CheckoutStatus,
    amountCents: row.amountCents,
    currency: row.mode === "setup" ? null : row.currency,
    card:
      row.cardBrand && row.cardLast4
        ? { brand: row.cardBrand, last4: row.cardLast4, expMonth: row.cardExpMonth, expYear: row.cardExpYear }
        : null,
    reason: row.declineReason,
  };
}

export async function createSandboxCheckout(services: Deps, request: CheckoutRequest) {
  const id = `cs_${randomBytes(18).toString("base64url")}`;
  await services.db.insert(sandboxCheckouts).values({
    id,
    mode: request.mode,
    method: request.mode === "setup" ? "card" : request.method,
    merchantRef: request.merchantRef,
    amountCents: request.amountCents,
    currency: PLATFORM_CURRENCY,
    description: request.description,
    // Like real providers, the return URL may carry the checkout's id: {CHECKOUT_ID}.
    returnUrl: request.returnUrl.replace("{CHECKOUT_ID}", id),
    callbackUrl: request.callbackUrl,
    createdAt: services.now(),
    expiresAt: request.expiresAt,
  });
  return { reference: id, redirectUrl: sandboxCheckoutUrl(services, id) };
}

async function load(services: Deps, id: string): Promise<Row | undefined> {
  const [row] = await services.db.select().from(sandboxCheckouts).where(eq(sandboxCheckouts.id, id)).limit(1);
  return row;
}

/** Closes an open checkout (expired, or canceled by the payer) and tells the merchant. */
async function close(services: Deps, id: string, reason: string): Promise<Row | undefined> {
  const now = services.now();
  return services.db.transaction(async (tx) => {
    const [closed] = await tx
      .update(sandboxCheckouts)
      .set({ status: "expired", declineReason: reason, completedAt: now })
      .where(and(eq(sandboxCheckouts.id, id), eq(sandboxCheckouts.status, "open")))
      .returning();
    if (closed)
      await schedule(tx, "sandbox.callback", { checkoutId: id }, { runAt: now, dedupeKey: `sandbox.callback:${id}` });
    const [row] = await tx.select().from(sandboxCheckouts).where(eq(sandboxCheckouts.id, id));
    return row;
  });
}

/** The provider's status API; an open checkout past its end is closed first. */
export async function sandboxCheckoutState(services: Deps, id: string): Promise<CheckoutState | null> {
  let row = await load(services, id);
  if (row && row.status === "open" && row.expiresAt.getTime() <= services.now().getTime())
    row = await close(services, id, "expired");
  return row ? stateOf(row) : null;
}

export async function expireSandboxCheckout(services: Deps, id: string): Promise<CheckoutState | null> {
  const row = await close(services, id, "expired");
  return row ? stateOf(row) : null;
}

/* ------------------------------------------------------------------------------------------------
 * Server-to-server callback: a durable job, retried with a growing delay until the merchant answers 0.
 * ---------------------------------------------------------------------------------------------- */

const deliverCallback: JobHandler = async (payload, services) => {
  const id = String(payload.checkoutId);
  const row = await load(services, id);
  if (!row || row.status === "open") return;
  const now = services.now();
  const event = JSON.stringify(
    eventFor(stateOf(row), `evt_${row.id}`, Math.floor((row.completedAt ?? now).getTime() / 1000)),
  );
  const timestamp = Math.floor(now.getTime() / 1000);
  const body = { event, timestamp, signature: signCallback(webhookSecret(services.env), timestamp, event) };
  const response = await fetch(row.callbackUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", "User-Agent": "bsn-sandbox-pay/1" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const answer = (await response.json().catch(() => null)) as { code?: number } | null;
  if (!response.ok || answer?.code !== 0)
    throw new Error(`merchant answered HTTP ${response.status} code ${answer?.code ?? "?"}`);
  await services.db.update(sandboxCheckouts).set({ callbackDeliveredAt: now }).where(eq(sandboxCheckouts.id, id));
};

export const sandboxJobs: Record<string, JobHandler> = { "sandbox.callback": deliverCallback };

/* ------------------------------------------------------------------------------------------------
 * The hosted checkout page (GET shows it, POST pays or cancels). Plain server-rendered HTML.
 * ---------------------------------------------------------------------------------------------- */

/** On every page of the sandbox: it moves no money (docs/decisions/020). */
const TEST_MODE_BANNER =
  `<aside class="testmode" aria-label="Test mode" data-testid="test-mode-banner"><strong>Test mode — no real money.</strong> ` +
  `This is the sandbox provider: no card is charged and nothing is paid out.</aside>`;

type Values = { name: string; number: string; expiry: string; cvc: string };
type Errors = Partial<Record<keyof Values | "form", string>>;

const escape = escapeHtml;

function usd(cents: number | null) {
  return cents === null
    ? ""
    : new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
}

function html(body: string, status = 200): Response {
  return new Response(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>Sandbox Pay · Checkout</title><style>
body{font-family:system-ui,sans-serif;background:#f1f5f9;color:#0f172a;margin:0;padding:2rem 1rem}
main{max-width:28rem;margin:0 auto;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:1.5rem}
h1{font-size:1.1rem;margin:0 0 1rem}.muted{color:#64748b;font-size:.85rem}.amount{font-size:1.6rem;font-weight:600;margin:.25rem 0}
label{display:block;font-size:.85rem;font-weight:600;margin-top:.9rem}input{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #cbd5e1;border-radius:.4rem;font-size:1rem}
.row{display:flex;gap:.75rem}.row>div{flex:1}.error{color:#b91c1c;font-size:.85rem;margin:.25rem 0 0}
.actions{display:flex;gap:.75rem;margin-top:1.25rem}button{flex:1;padding:.65rem;border-radius:.4rem;border:1px solid #cbd5e1;font-size:1rem;cursor:pointer;background:#fff}
button.pay{background:#4f46e5;border-color:#4f46e5;color:#fff}.hint{margin-top:1.25rem;background:#fefce8;border:1px solid #fde68a;border-radius:.5rem;padding:.75rem;font-size:.85rem}
.hint ul{margin:.4rem 0 0;padding-left:1.1rem}.qr{margin:1rem auto;width:12rem}.qr svg{width:100%;height:auto}.testmode{max-width:28rem;margin:0 auto 1rem;background:#fef3c7;border:1px solid #f59e0b;color:#78350f;border-radius:.5rem;padding:.6rem .9rem;font-size:.9rem}code{font-size:.85rem}.badge{display:inline-block;background:#fde68a;color:#78350f;border-radius:9999px;padding:0 .5rem;font-size:.75rem;font-weight:600}
</style></head><body>${TEST_MODE_BANNER}<main>${body}</main></body></html>`,
    {
      status,
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
      },
    },
  );
}

function field(name: keyof Values, label: string, value: string, errors: Errors, attrs: string) {
  const error = errors[name];
  return `<label for="${name}">${label}</label><input id="${name}" name="${name}" value="${escape(value)}" ${attrs}${error ? ` aria-invalid="true" aria-describedby="${name}-error"` : ""}>${error ? `<p class="error" id="${name}-error" role="alert">${escape(error)}</p>` : ""}`;
}

function checkoutPage(row: Row, values: Values, errors: Errors): string {
  const setup = row.mode === "setup";
  const hints = Object.entries(TEST_CARDS)
    .map(
      ([number, card]) =>
        `<li><code>${number.replace(/(\d{4})(?=\d)/g, "$1 ")}</code> ${card.brand}: ${card.outcome === "succeeded" ? "succeeds" : card.reason === "insufficient_funds" ? "declined, insufficient funds" : "declined"}</li>`,
    )
    .join("");
  return `<p class="muted"><span class="badge">SANDBOX</span> Sandbox Pay · secure checkout</p>
<h1>${escape(MERCHANT_NAME)}</h1>
${setup ? `<p>Save a card for ${escape(MERCHANT_NAME)}. Nothing is charged now.</p>` : `<p class="muted">Amount</p><p class="amount" data-testid="amount">${usd(row.amountCents)}</p>`}
<p>${escape(row.description ?? "")}</p>
${errors.form ? `<p class="error" role="alert">${escape(errors.form)}</p>` : ""}
<form method="post" novalidate>
${field("number", "Card number", values.number, errors, `inputmode="numeric" autocomplete="cc-number" maxlength="23" required`)}
<div class="row"><div>${field("expiry", "Expiry (MM/YY)", values.expiry, errors, `autocomplete="cc-exp" placeholder="MM/YY" maxlength="7" required`)}</div>
<div>${field("cvc", "CVC", "", errors, `inputmode="numeric" autocomplete="cc-csc" maxlength="4" required`)}</div></div>
${field("name", "Name on card", values.name, errors, `autocomplete="cc-name" maxlength="80" required`)}
<div class="actions"><button type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
<button type="submit" name="action" value="pay" class="pay">${setup ? "Save card" : `Pay ${usd(row.amountCents)}`}</button></div>
</form>
<div class="hint"><strong>Sandbox test cards</strong> (any future expiry, any 3-digit CVC):<ul>${hints}</ul></div>`;
}

function closedPage(row: Row): string {
  return `<p class="muted"><span class="badge">SANDBOX</span> Sandbox Pay</p><h1>${escape(MERCHANT_NAME)}</h1>
<p>This checkout is no longer open (${escape(row.status)}).</p><p><a href="${escape(row.returnUrl)}">Return to ${escape(MERCHANT_NAME)}</a></p>`;
}

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function validate(values: Values, now: Date): { errors: Errors; expMonth?: number; expYear?: number; digits: string } {
  const errors: Errors = {};
  const digits = values.number.replace(/[\s-]/g, "");
  if (!/^[0-9]{12,19}$/.test(digits) || !luhn(digits)) errors.number = "Enter a valid card number.";
  else if (!TEST_CARDS[digits]) errors.number = "This is a sandbox: use one of the test cards below.";
  const exp = values.expiry.trim().match(/^(0[1-9]|1[0-2])\s*\/\s*([0-9]{2}|20[0-9]{2})$/);
  let expMonth: number | undefined;
  let expYear: number | undefined;
  if (!exp) errors.expiry = "Enter the expiry as MM/YY.";
  else {
    expMonth = Number(exp[1]);
    expYear = exp[2].length === 2 ? 2000 + Number(exp[2]) : Number(exp[2]);
    const endOfMonth = Date.UTC(expYear, expMonth, 1);
    if (endOfMonth <= now.getTime()) errors.expiry = "This card has expired.";
  }
  if (!/^[0-9]{3,4}$/.test(values.cvc.trim())) errors.cvc = "Enter the 3 or 4 digit security code.";
  if (!values.name.trim()) errors.name = "Enter the name on the card.";
  else if (values.name.trim().length > 80) errors.name = "The name is too long.";
  return { errors, expMonth, expYear, digits };
}

const EMPTY: Values = { name: "", number: "", expiry: "", cvc: "" };

/** The wallet page of an open checkout (WeChat Pay's QR code, Alipay's site), with an error line if any. */
function walletPage(services: Deps, row: Row, error?: string): Promise<string> | string {
  const facts: WalletPageFacts = {
    id: row.id,
    amount: usd(row.amountCents),
    description: row.description ?? "",
    merchant: MERCHANT_NAME,
    checkoutUrl: sandboxCheckoutUrl(services, row.id),
    error,
  };
  return row.method === "wechat_pay" ? wechatPayPage(facts) : alipayPage(facts);
}

/** Records a checkout's outcome once (an open checkout only) and schedules the callback to the merchant. */
async function complete(services: Deps, id: string, outcome: Partial<Row>): Promise<Row | undefined> {
  const now = services.now();
  return services.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(sandboxCheckouts)
      .set({ ...outcome, completedAt: now })
      .where(and(eq(sandboxCheckouts.id, id), eq(sandboxCheckouts.status, "open")))
      .returning();
    if (updated)
      await schedule(tx, "sandbox.callback", { checkoutId: id }, { runAt: now, dedupeKey: `sandbox.callback:${id}` });
    return updated;
  });
}

/**
 * Serves /sandbox-pay/checkout/<id> (GET the page, POST pay or cancel) and, for Alipay, the simulated Alipay
 * site /sandbox-pay/alipay/<id> the checkout redirects to (docs/decisions/072).
 */
export async function handleSandboxRequest(request: Request, services: Deps): Promise<Response> {
  const url = new URL(request.url);
  const match = url.pathname.match(/^\/sandbox-pay\/(checkout|alipay)\/(cs_[A-Za-z0-9_-]{10,60})$/);
  if (!match) return html(`<h1>Not found</h1><p>There is no such page at Sandbox Pay.</p>`, 404);
  let row = await load(services, match[2]);
  if (!row || (match[1] === "alipay" && (row.method !== "alipay" || row.mode !== "payment")))
    return html(`<h1>Not found</h1><p>This checkout does not exist.</p>`, 404);
  if (row.status === "open" && row.expiresAt.getTime() <= services.now().getTime())
    row = (await close(services, row.id, "expired")) ?? row;
  const wallet = row.mode === "payment" && row.method !== "card";
  if (request.method === "GET" || request.method === "HEAD") {
    if (row.status !== "open") return html(closedPage(row));
    // Alipay is another site: the checkout sends the browser there, as the real one does.
    if (match[1] === "checkout" && row.method === "alipay")
      return Response.redirect(`${services.env.publicUrl}${SANDBOX_PATH}/alipay/${encodeURIComponent(row.id)}`, 303);
    return html(wallet ? await walletPage(services, row) : checkoutPage(row, EMPTY, {}));
  }
  if (request.method !== "POST")
    return new Response("Method not allowed", { status: 405, headers: { Allow: "GET, POST" } });
  if (row.status !== "open") return html(closedPage(row), 409);
  const form = await request.formData();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.slice(0, 100) : "";
  };
  if (text("action") === "cancel") {
    await close(services, row.id, "canceled");
    return Response.redirect(row.returnUrl, 303);
  }
  if (wallet) {
    const action = text("action");
    if (action !== "pay" && action !== "decline")
      return html(await walletPage(services, row, "Choose one of the buttons."), 400);
    const done = await complete(services, row.id, {
      status: action === "pay" ? "succeeded" : "declined",
      declineReason: action === "pay" ? null : "payment_failed",
    });
    if (!done) return html(closedPage((await load(services, row.id)) ?? row), 409);
    return Response.redirect(row.returnUrl, 303);
  }
  if (text("action") !== "pay") return html(checkoutPage(row, EMPTY, { form: "Choose Pay or Cancel." }), 400);
  const values: Values = { name: text("name"), number: text("number"), expiry: text("expiry"), cvc: text("cvc") };
  const now = services.now();
  const checked = validate(values, now);
  if (Object.keys(checked.errors).length > 0) return html(checkoutPage(row, values, checked.errors), 400);
  const card = TEST_CARDS[checked.digits];
  // Only the brand, last 4 digits and expiry are kept; the number and CVC are forgotten here.
  const outcome = {
    status: card.outcome,
    declineReason: card.outcome === "declined" ? card.reason : null,
    cardBrand: card.brand,
    cardLast4: checked.digits.slice(-4),
    cardExpMonth: checked.expMonth ?? null,
    cardExpYear: checked.expYear ?? null,
  };
  const id = row.id;
  const done = await complete(services, id, outcome);
  if (!done) return html(closedPage((await load(services, id)) ?? row), 409);
  return Response.redirect(row.returnUrl, 303);
}
