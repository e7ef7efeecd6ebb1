import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/**", "public/build/**", "bench/bare/build/**", "bench/bare/public/**", "node_modules/**", "backend/db/migrations/**", "test-results/**", "playwright-report/**", ".cache/**"] },
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
          selector: "ImportDeclaration[source.value='zod'][importKind='value'] > :matches(ImportSpecifier[imported.name='z'][importKind='value'], ImportDefaultSpecifier)",
          message: 'Use `import * as z from "zod"`: it lets the browser bundle drop what the code does not use.',
        },
      ],
    },
  },
  {
    files: ["scripts/**", "bench/**", "backend/db/seed-cli.ts", "e2e/**", "tests/**"],
    rules: { "no-console": "off", "@typescript-eslint/no-explicit-any": "off" },
  },
);
