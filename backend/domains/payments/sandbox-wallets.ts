import QRCode from "qrcode";
import { escapeHtml } from "#contract/html-text.ts";

/**
 * The sandbox's own page for each wallet method (docs/decisions/072), as the real ones behave: WeChat Pay
 * shows a QR code the payer scans with the phone, Alipay sends the browser to its own site where the payer
 * confirms. Nothing scans or logs in here: the buttons act as the phone or the Alipay account. Every page
 * keeps the sandbox's "test mode" banner (./sandbox.ts draws the frame).
 */

export type WalletPageFacts = {
  id: string;
  amount: string;
  description: string;
  merchant: string;
  /** What the QR code encodes: the checkout's own address at the sandbox. */
  checkoutUrl: string;
  error?: string;
};

function buttons(payLabel: string): string {
  return `<div class="actions"><button type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
<button type="submit" name="action" value="decline" data-testid="sandbox-decline">Simulate: payment fails</button>
<button type="submit" name="action" value="pay" class="pay">${escapeHtml(payLabel)}</button></div>`;
}

function errorLine(facts: WalletPageFacts): string {
  return facts.error ? `<p class="error" role="alert">${escapeHtml(facts.error)}</p>` : "";
}

/** WeChat Pay's web checkout: the amount and a QR code to scan (an SVG drawn by the qrcode library). */
export async function wechatPayPage(facts: WalletPageFacts): Promise<string> {
  const svg = await QRCode.toString(facts.checkoutUrl, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return `<p class="muted"><span class="badge">SANDBOX</span> WeChat Pay (simulated)</p>
<h1>${escapeHtml(facts.merchant)}</h1><p class="muted">Amount</p><p class="amount" data-testid="amount">${escapeHtml(facts.amount)}</p>
<p>${escapeHtml(facts.description)}</p>
<figure class="qr" data-testid="wechat-qr" role="img" aria-label="WeChat Pay QR code">${svg}</figure>
<p>Scan the code with WeChat to pay. In test mode no phone scans it: the button below acts as the phone.</p>
${errorLine(facts)}<form method="post">${buttons("Simulate: scanned and paid")}</form>`;
}

/** Alipay's own site, where the browser was redirected: the payer confirms there and is sent back. */
export function alipayPage(facts: WalletPageFacts): string {
  return `<p class="muted"><span class="badge">SANDBOX</span> Alipay (simulated site)</p>
<h1>Alipay · ${escapeHtml(facts.merchant)}</h1><p class="muted">Amount</p><p class="amount" data-testid="amount">${escapeHtml(facts.amount)}</p>
<p>${escapeHtml(facts.description)}</p>
<p>You were redirected to Alipay to confirm this payment; afterwards you return to ${escapeHtml(facts.merchant)}.
In test mode there is no Alipay account: the button below confirms as the payer would.</p>
${errorLine(facts)}<form method="post">${buttons("Simulate: confirm in Alipay")}</form>`;
}
