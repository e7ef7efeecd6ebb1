import { boolean, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { files } from "#backend/db/tables.ts";
import { ts } from "#backend/db/columns.ts";
import type { MarketFunction } from "#contract/market.ts";

/** The Drizzle tables of the chaincode market (issue 15; docs/decisions/042). */

/** A market entry: a chaincode package (its zip in `files`) with its functions and download count. */
export const marketPackages = pgTable(
  "market_packages",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    language: text("language").notNull(),
    version: text("version").notNull(),
    descriptionEn: text("description_en").notNull(),
    descriptionZh: text("description_zh").notNull(),
    mainPath: text("main_path").notNull(),
    initParams: text("init_params").notNull().default(""),
    functions: jsonb("functions").$type<MarketFunction[]>().notNull(),
    fileId: integer("file_id")
      .notNull()
      .references(() => files.id),
    fileName: text("file_name").notNull(),
    size: integer("size").notNull(),
    downloads: integer("downloads").notNull().default(0),
    /** published | withdrawn (contract/market.ts MARKET_STATUSES). */
    status: text("status").notNull().default("published"),
    /** The key of the package the product shipped (backend/domains/market/samples.ts), null for an operator's. */
    shippedKey: text("shipped_key"),
    /** An operator saved it: the product's version no longer replaces it at start. */
    operatorEdited: boolean("operator_edited").notNull().default(false),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("market_packages_name").on(sql`lower(${t.name})`),
    uniqueIndex("market_packages_shipped_key")
      .on(t.shippedKey)
      .where(sql`${t.shippedKey} is not null`),
  ],
);
