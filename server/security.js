// @ts-check
import { randomBytes } from "node:crypto";

/**
 * The security headers of every response the server sends: pages, /vueapi, resource routes, static files
 * and errors alike (docs/decisions/016). A route that sets one of them itself keeps its own value.
 */

/** A fresh script nonce: 128 random bits, base64 (a CSP `base64-value`). */
export function createNonce() {
  return randomBytes(16).toString("base64");
}

/**
 * The Content-Security-Policy for one response.
 * - Scripts: our own files and the inline scripts that carry this response's nonce (Remix's context and
 *   module loader, its scroll restoration, React's streaming helpers); never 'unsafe-inline'.
 * - Styles: 'unsafe-inline' as well, because apexcharts injects <style> elements and style attributes
 *   at run time (and the sandbox checkout page has an inline stylesheet). A nonce in style-src would
 *   switch 'unsafe-inline' off, so styles get none.
 * - Images: data: URLs (the captcha) and blob: URLs besides our own.
 * - form-action is left open: a payment provider's hosted checkout is reached by a redirect after a form
 *   post, which form-action would block.
 * @param {{ nonce: string; development?: boolean }} options
 */
export function contentSecurityPolicy({ nonce, development = false }) {
  /** @type {Record<string, string[]>} */
  const directives = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    // `remix dev` reloads the page over a websocket on its own port.
    "connect-src": development ? ["'self'", "ws:", "wss:"] : ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/** HSTS for a year; sent in production only (a plain-HTTP development server must stay reachable). */
export const HSTS = "max-age=31536000";

/**
 * The headers every response gets, for one request.
 * @param {{ nonce: string; production: boolean; development: boolean }} options
 * @returns {Record<string, string>}
 */
export function securityHeaders({ nonce, production, development }) {
  return {
    "Content-Security-Policy": contentSecurityPolicy({ nonce, development }),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    ...(production ? { "Strict-Transport-Security": HSTS } : {}),
  };
}
