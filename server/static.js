// @ts-check
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import express from "express";

/**
 * Static files and compression (docs/decisions/016).
 */

/**
 * gzip level for what is compressed per response (pages, data, small files). Levels 1-3 cost the same
 * here (~65 µs for a 22 KB page) and 3 is the smallest of them; 6 takes ~1.7x as long for 5% less.
 */
export const DYNAMIC_GZIP_LEVEL = 3;
/** Smaller answers are sent as they are: gzip's own framing would eat most of the gain. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * Does the client accept gzip? Only when it says so: no Accept-Encoding means no compression.
 * @param {import("express").Request} req
 */
export function acceptsGzip(req) {
  return !!req.headers["accept-encoding"] && req.acceptsEncodings("gzip") === "gzip";
}

/**
 * Runs a compression middleware with gzip as the only encoding it may choose: the `compression` package
 * prefers brotli whenever a browser offers it, at a cost per response we do not want to pay. The
 * middleware sees a view of the request whose Accept-Encoding is reduced to "gzip" or "identity"; the
 * request itself is not changed.
 * @param {import("express").RequestHandler} middleware
 * @returns {import("express").RequestHandler}
 */
export function gzipOnly(middleware) {
  return (req, res, next) => {
    const headers = { ...req.headers, "accept-encoding": acceptsGzip(req) ? "gzip" : "identity" };
    const view = /** @type {import("express").Request} */ (Object.create(req, { headers: { value: headers } }));
    return middleware(view, res, next);
  };
}

/**
 * The files under `dir` that have a `.gz` beside them (written at build time by scripts/precompress.mjs),
 * as URL paths relative to `dir` ("/_shared/chunk-ABC.js").
 * @param {string} dir
 * @returns {Set<string>}
 */
export function precompressedFiles(dir) {
  const found = new Set();
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".gz")) continue;
    const full = path.join(entry.parentPath, entry.name);
    const source = full.slice(0, -".gz".length);
    if (existsSync(source)) found.add("/" + path.relative(dir, source).split(path.sep).join("/"));
  }
  return found;
}

/**
 * Serves the build's assets (content-hashed names: cached for a year, immutable), their gzip twin when
 * the client accepts gzip and one was written at build time.
 * @param {string} dir the assets build directory
 * @param {{ precompressed: boolean }} options
 * @returns {import("express").RequestHandler[]}
 */
export function buildAssets(dir, { precompressed }) {
  const cache = { immutable: true, maxAge: "1y" };
  const gzipped = precompressed ? precompressedFiles(dir) : new Set();
  /** @type {import("express").RequestHandler} */
  const twin = (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !gzipped.has(req.path)) return next();
    res.vary("Accept-Encoding");
    if (!acceptsGzip(req)) return next();
    const type = express.static.mime.lookup(req.path);
    const charset = express.static.mime.charsets.lookup(type, "");
    const headers = { "Content-Type": charset ? `${type}; charset=${charset}` : type, "Content-Encoding": "gzip" };
    res.sendFile(path.resolve(dir, "." + req.path + ".gz"), { ...cache, headers }, (error) => {
      // A twin that has gone away: the plain file below answers.
      if (error && !res.headersSent) next();
    });
  };
  return [twin, express.static(dir, { ...cache, index: false, redirect: false })];
}
