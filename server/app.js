// @ts-check
import compression from "compression";
import express from "express";
import { existsSync, readdirSync } from "node:fs";
import { clientAddressOf } from "./client-address.js";
import { remixHandler } from "./remix.js";
import { createNonce, securityHeaders } from "./security.js";
import { buildAssets, COMPRESS_THRESHOLD, DYNAMIC_GZIP_LEVEL, gzipOnly } from "./static.js";

/**
 * The HTTP application serving a Remix build (docs/decisions/016): security headers with a fresh CSP
 * nonce on every response, gzip when asked for, the build's assets with long caching, the other public
 * files, then Remix (pages, resource routes and the /vueapi service mounted as a route).
 * @param {{
 *   build: import("@remix-run/node").ServerBuild;
 *   mode: string;
 *   publicDir?: string;
 *   isStopping?: () => boolean;
 *   trustProxy?: false | number | string[];
 * }} options
 */
export function createApp({ build, mode, publicDir = "public", isStopping = () => false, trustProxy = false }) {
  const production = mode === "production";
  const development = mode === "development";
  const app = express();
  app.disable("x-powered-by");
  // Which peers may tell the end user's address in X-Forwarded-For (TRUST_PROXY, server/client-address.js);
  // Express checks the list here, so a wrong address stops the server at start.
  app.set("trust proxy", trustProxy);

  app.use((req, res, next) => {
    const nonce = createNonce();
    res.locals.cspNonce = nonce;
    for (const [name, value] of Object.entries(securityHeaders({ nonce, production, development })))
      res.setHeader(name, value);
    // A keep-alive connection is not kept once the server is stopping.
    if (isStopping()) res.setHeader("Connection", "close");
    next();
  });
  app.use(gzipOnly(compression({ level: DYNAMIC_GZIP_LEVEL, threshold: COMPRESS_THRESHOLD })));
  app.use(build.publicPath, ...buildAssets(build.assetsBuildDirectory, { precompressed: !development }));
  // The other public files (favicon …): only a request whose first path segment names one of them goes to
  // the static handler, so a page request costs no file-system stat (issue 11). In development the list is
  // read again on each request, so a file added to public/ is served at once.
  const servePublic = express.static(publicDir, { maxAge: "1h", index: false, redirect: false });
  const listPublic = () => new Set(existsSync(publicDir) ? readdirSync(publicDir) : []);
  const publicNames = listPublic();
  app.use((req, res, next) => {
    const first = decodeURIComponentSafe(req.path.split("/")[1] ?? "");
    return (development ? listPublic() : publicNames).has(first) ? servePublic(req, res, next) : next();
  });
  app.all(
    "*",
    remixHandler({
      build,
      mode,
      getLoadContext: (req, res) => ({
        cspNonce: /** @type {string} */ (res.locals.cspNonce),
        clientAddress: clientAddressOf(req),
      }),
    }),
  );
  return app;
}

/** @param {string} segment */
function decodeURIComponentSafe(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
