import { readdirSync } from "node:fs";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const NO_BACKEND = {
  regex: "(^|/|#)backend(/|$)",
  message:
    "The portal reaches the backend through the request layer (app/lib/vueapi.server.ts); only the door files import backend/.",
};
// Every CSV export neutralises formula cells through one writer (docs/decisions/024).
const NO_CSV_WRITER = ["csv-stringify", "csv-stringify/sync"].map((name) => ({
  name,
  message: "Write CSV with toCsv() of app/lib/csv.server.ts.",
}));
const NO_COMPONENTS = {
  regex: "^(#app/|~/|(\\.\\./)+)components/|(^|/)app/components/",
  message:
    "app/lib does not import app/components: URL builders go to app/lib/<domain>-urls.ts, rules to app/lib/<domain>-rules.ts, formats to app/lib/format*.ts.",
};

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "public/build/**",
      "bench/bare/build/**",
      "bench/bare/public/**",
      "node_modules/**",
      "backend/db/migrations/**",
      "test-results/**",
      "playwright-report/**",
      ".cache/**",
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["error", "warn"] }],
    },
  },
  {
    // The code that reaches the browser.
    files: ["app/**/*.{ts,tsx}", "contract/**/*.ts"],
    rules: {
      // `import { z } from "zod"` makes esbuild keep zod's whole namespace (every locale, JSON Schema
      // conversion) in the browser chunk shared by all pages with a Zod form: ~65 KB gzip more (bench/README.md).
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "ImportDeclaration[source.value='zod'][importKind='value'] > :matches(ImportSpecifier[imported.name='z'][importKind='value'], ImportDefaultSpecifier)",
          message: 'Use `import * as z from "zod"`: it lets the browser bundle drop what the code does not use.',
        },
      ],
    },
  },
  {
    // Only the door files import backend/ (docs/decisions/018): the /vueapi resource route, the transport,
    // and the door route that serves the endpoints the domains register.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/routes/vueapi.$.ts", "app/routes/$.tsx", "app/lib/transport.server.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [NO_BACKEND], paths: NO_CSV_WRITER }] },
  },
  {
    // app/lib holds what components and routes build on (URLs, rules, formats, loaders); it never reaches
    // back into app/components (issue 27 item 7). The same rule keeps the two above, as a later block replaces them.
    files: ["app/lib/**/*.{ts,tsx}"],
    ignores: ["app/lib/transport.server.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [NO_BACKEND, NO_COMPONENTS], paths: NO_CSV_WRITER }],
    },
  },
  {
    files: ["app/lib/transport.server.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [NO_COMPONENTS] }] },
  },
  // A domain reaches another only through its index (the `api` of defineDomain) or its tables.ts
  // (Drizzle foreign keys and read joins): docs/decisions/018.
  ...readdirSync("backend/domains", { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name }) => ({
      files: [`backend/domains/${name}/**/*.ts`],
      rules: {
        "no-restricted-imports": [
          "error",
          {
            patterns: [
              {
                regex: `^#backend/domains/(?!${name}/)[^/]+/(?!(index|tables)\\.ts$).+`,
                message: `Import another domain through its index (\`import billing from "#backend/domains/billing/index.ts"\`, then billing.api...) or its tables.ts.`,
              },
            ],
          },
        ],
      },
    })),
  {
    // db/ and the kernel never import a domain; only backend/index.ts and backend/seed.ts list them.
    files: ["backend/db/**/*.ts", "backend/http/**/*.ts", "backend/jobs/**/*.ts", "backend/kit/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "(^|/)domains(/|$)", message: "The kernel never imports a domain (docs/decisions/018)." },
          ],
        },
      ],
    },
  },
  {
    // Kept catalogues (backend/kit/constant-data.ts, docs/decisions/030): only their write paths, which clear
    // the kept copy, write their tables.
    files: ["backend/**/*.ts", "tests/**/*.ts", "scripts/**/*.ts"],
    ignores: ["backend/domains/platform/catalogue.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name=/^(insert|update|delete)$/][arguments.0.name=/^(cityNodes)$/]",
          message:
            "The city-node catalogue is kept per process: write it through backend/domains/platform/catalogue.ts, which clears the kept copy (docs/decisions/030).",
        },
      ],
    },
  },
  {
    files: ["scripts/**", "bench/**", "backend/db/seed-cli.ts", "e2e/**", "tests/**"],
    rules: { "no-console": "off", "@typescript-eslint/no-explicit-any": "off" },
  },
);
