import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { errorSummary } from "#contract/error-summary.ts";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { getEnv } from "./lib/env.server.ts";
import { getLanguage, i18nFor } from "./lib/i18n.server.ts";
import { NonceContext } from "./lib/nonce.ts";
import { startServices } from "./lib/transport.server.ts";

// Validate the environment and start the embedded /vueapi backend (migrations, seed) before serving:
// a bad configuration stops the server here instead of failing the first request.
getEnv();
await startServices();

const ABORT_DELAY = 10_000;

/**
 * What Remix logs when a loader or action throws something other than a Response: the error's class,
 * message and frames, never what the request carried (docs/decisions/024). A request the browser gave
 * up on is not an error.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  console.error(`${request.method} ${new URL(request.url).pathname} failed: ${errorSummary(error)}`);
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The CSP nonce of this response (server/app.js): on every inline script, React's own included.
  const nonce = loadContext.cspNonce;
  // The language's instance, initialised once at start with every namespace (app/lib/i18n.server.ts).
  const instance = i18nFor(await getLanguage(request));

  const waitForAll = isbot(request.headers.get("user-agent") ?? "");

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // A render still going after ABORT_DELAY is cut short. The timer ends with the render, so that it does
    // not keep a stopping process alive for ten seconds.
    const timer = setTimeout(() => abort(), ABORT_DELAY);
    const send = () => {
      shellRendered = true;
      const body = new PassThrough();
      const stream = createReadableStreamFromReadable(body);
      // The security headers (CSP, nosniff, referrer, frames, HSTS) are the server entry's, on every response.
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <I18nextProvider i18n={instance}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />
        </I18nextProvider>
      </NonceContext.Provider>,
      {
        nonce,
        onShellReady() {
          if (!waitForAll) send();
        },
        onAllReady() {
          clearTimeout(timer);
          if (waitForAll) send();
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(`render failed: ${errorSummary(error)}`);
        },
      },
    );
  });
}
