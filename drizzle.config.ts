import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  // The core tables and every domain's own (docs/decisions/018-one-shape-for-every-domain.md).
  schema: ["./backend/db/tables.ts", "./backend/domains/*/tables.ts"],
  out: "./backend/db/migrations",
});
