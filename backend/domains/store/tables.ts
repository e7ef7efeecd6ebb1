import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { files, users } from "#backend/db/tables.ts";
import { apps, appComments } from "#backend/domains/services/tables.ts";
import { ts, cents } from "#backend/db/columns.ts";

/** The Drizzle tables of the store domain (migrations: backend/db/migrations). */

/** SPEC §3 Product; status §4: 0 pending submit, 1 pending approval, 2 displayed, 3 approval failed, 4 removed. */
export const products = pgTable(
  "products",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    /** Product type (the store's categories). */
    productType: smallint("product_type").notNull(),
    coverFileId: integer("cover_file_id").references(() => files.id),
    brief: text("brief").notNull(),
    description: text("description").notNull(),
    suggestedPriceCents: cents("suggested_price_cents").notNull(),
    /** Payment mode: 1 one-off, 2 monthly, 3 yearly. */
    payMode: smallint("pay_mode").notNull(),
    /** A company product (needs enterprise certification, §1 / §6). */
    company: boolean("company").notNull().default(false),
    status: smallint("status").notNull().default(0),
    listedAt: ts("listed_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    reviewedBy: integer("reviewed_by").references(() => users.id),
    reviewedAt: ts("reviewed_at"),
    reviewComments: text("review_comments"),
  },
  (t) => [index("products_status").on(t.status, t.listedAt), index("products_user").on(t.userId)],
);

/** A service draft made from a product by a buyer who publishes it (the buyer becomes its publisher). */
export const productServices = pgTable(
  "product_services",
  {
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    appId: integer("app_id")
      .notNull()
      .references(() => apps.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** The buyer's "Publish as my service" form key: submitting it twice makes one draft (docs/decisions/014). */
    idempotencyKey: text("idempotency_key"),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.appId] }),
    index("product_services_user").on(t.userId),
    uniqueIndex("product_services_user_idempotency").on(t.userId, t.idempotencyKey),
  ],
);

/** Follows of services and products by users (followers counts of §3 Product and Service listing). */
export const follows = pgTable(
  "follows",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** app | product */
    targetKind: text("target_kind").notNull(),
    targetId: integer("target_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.targetKind, t.targetId] }),
    index("follows_target").on(t.targetKind, t.targetId),
  ],
);

/** Ratings of services by their participants (§3 Service listing "user rating"), 1 to 5. */
export const appRatings = pgTable(
  "app_ratings",
  {
    appId: integer("app_id")
      .notNull()
      .references(() => apps.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    score: smallint("score").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.userId] }), check("app_ratings_score", sql`${t.score} BETWEEN 1 AND 5`)],
);

/** "Marked useful" (§3 Comment): one mark per user and comment. */
export const commentUseful = pgTable(
  "comment_useful",
  {
    commentId: integer("comment_id")
      .notNull()
      .references(() => appComments.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.userId] })],
);
