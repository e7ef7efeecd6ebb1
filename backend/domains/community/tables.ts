import { boolean, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { files, users } from "#backend/db/tables.ts";
import { ts } from "#backend/db/columns.ts";

/** The Drizzle tables of the developer community's content (issue 15; docs/decisions/040). */

/**
 * One table for every kind of post (news, event, release, announcement: contract/community-codes.ts): they
 * share the bilingual title and Markdown body and the publishing; the columns of other kinds stay empty.
 */
export const communityPosts = pgTable(
  "community_posts",
  {
    id: serial("id").primaryKey(),
    kind: text("kind").notNull(),
    titleEn: text("title_en").notNull().default(""),
    titleZh: text("title_zh").notNull().default(""),
    bodyEn: text("body_en").notNull().default(""),
    bodyZh: text("body_zh").notNull().default(""),
    published: boolean("published").notNull().default(false),
    /** When it was first published (the order of lists and feeds); kept when withdrawn and published again. */
    publishedAt: ts("published_at"),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
    startsAt: ts("starts_at"),
    location: text("location").notNull().default(""),
    capacity: integer("capacity"),
    signupDeadline: ts("signup_deadline"),
    version: text("version").notNull().default(""),
    activeFrom: ts("active_from"),
    activeTo: ts("active_to"),
  },
  (t) => [index("community_posts_kind_published").on(t.kind, t.published, t.publishedAt)],
);

/** SPEC §7 saveSingUpInfo: one sign-up per user and event. */
export const communitySignups = pgTable(
  "community_signups",
  {
    id: serial("id").primaryKey(),
    postId: integer("post_id")
      .notNull()
      .references(() => communityPosts.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    organization: text("organization").notNull().default(""),
    note: text("note").notNull().default(""),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("community_signups_post_user").on(t.postId, t.userId)],
);

/** SPEC §2 serviceNetworkLeague: the partners, in `sort_order` (then by id). */
export const communityPartners = pgTable(
  "community_partners",
  {
    id: serial("id").primaryKey(),
    nameEn: text("name_en").notNull().default(""),
    nameZh: text("name_zh").notNull().default(""),
    descriptionEn: text("description_en").notNull().default(""),
    descriptionZh: text("description_zh").notNull().default(""),
    link: text("link").notNull().default(""),
    sortOrder: integer("sort_order").notNull().default(0),
    /** The logo: an uploaded image (kind "cover", png or jpeg by its bytes), kept by the storage adapter. */
    logoFileId: integer("logo_file_id").references(() => files.id),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [index("community_partners_order").on(t.sortOrder, t.id)],
);
