import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, serial, text, uniqueIndex, type AnyPgColumn } from "drizzle-orm/pg-core";
import { ts } from "#backend/db/columns.ts";

/** The Drizzle tables of the documentation and help manual (issue 15; docs/decisions/042). */

/** A manual page: bilingual Markdown, in a tree (parent, position among its siblings). */
export const docPages = pgTable(
  "doc_pages",
  {
    id: serial("id").primaryKey(),
    slug: text("slug").notNull(),
    parentId: integer("parent_id").references((): AnyPgColumn => docPages.id),
    position: integer("position").notNull().default(0),
    titleEn: text("title_en").notNull().default(""),
    titleZh: text("title_zh").notNull().default(""),
    bodyEn: text("body_en").notNull().default(""),
    bodyZh: text("body_zh").notNull().default(""),
    published: boolean("published").notNull().default(true),
    /** The key of the page the product shipped (locales/<lang>/manual.json), null for an operator's own. */
    shippedKey: text("shipped_key"),
    /** An operator saved it: the product's text no longer replaces it at start. */
    operatorEdited: boolean("operator_edited").notNull().default(false),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("doc_pages_slug").on(t.slug),
    uniqueIndex("doc_pages_shipped_key")
      .on(t.shippedKey)
      .where(sql`${t.shippedKey} is not null`),
    index("doc_pages_parent").on(t.parentId, t.position),
  ],
);

/**
 * The shipped pages written once: a page an operator deleted is not written again at the next start
 * (its key stays here).
 */
export const docShipped = pgTable("doc_shipped", {
  key: text("key").primaryKey(),
  writtenAt: ts("written_at").notNull(),
});
