/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.*", "**/*.server.test.*"],
  serverModuleFormat: "esm",
  tailwind: true,
  // PGlite loads its WASM next to its own module: keep every dependency external. Our own modules, imported
  // through the package's subpath imports (#app/..., #backend/..., #contract/...), look bare to Remix: bundle them.
  serverDependenciesToBundle: [/^#(app|backend|contract)\//],
  watchPaths: ["./backend/**/*", "./contract/**/*", "./locales/**/*"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: false,
  },
};
