import { sql } from "drizzle-orm";
import { check, integer, pgTable, smallint, text } from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { ts } from "#backend/db/columns.ts";

/**
 * The legal and contact texts operators saved (issue 30 item 16; docs/decisions/089), one row per page with both
 * languages. A page without a row shows the draft the product ships (locales/<lang>/pages.json), marked as such.
 */
export const legalTexts = pgTable("legal_texts", {
  /** contract/legal-codes.ts LEGAL_PAGES. */
  page: text("page").primaryKey(),
  titleEn: text("title_en").notNull(),
  titleZh: text("title_zh").notNull(),
  introEn: text("intro_en").notNull(),
  introZh: text("intro_zh").notNull(),
  /** Sections as operators write them (contract/legal-codes.ts sectionsOf). */
  bodyEn: text("body_en").notNull(),
  bodyZh: text("body_zh").notNull(),
  updatedAt: ts("updated_at").notNull(),
  updatedBy: integer("updated_by").references(() => users.id),
});

/** The contact page's addresses: one row (id 1); an empty address is not configured. */
export const contactAddresses = pgTable(
  "contact_addresses",
  {
    id: smallint("id").primaryKey().default(1),
    supportEmail: text("support_email").notNull().default(""),
    partnersEmail: text("partners_email").notNull().default(""),
    updatedAt: ts("updated_at").notNull(),
    updatedBy: integer("updated_by").references(() => users.id),
  },
  (t) => [check("contact_addresses_one_row", sql`${t.id} = 1`)],
);
