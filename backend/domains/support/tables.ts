import { sql } from "drizzle-orm";
import { index, integer, pgTable, serial, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { files, users } from "#backend/db/tables.ts";
import { ts } from "#backend/db/columns.ts";

/** The Drizzle tables of technical support and the newsletter (SPEC §1, §5 "Support ticket", §9; docs/decisions/041). */

/**
 * A support ticket: a signed-in user's (userId) or a visitor's (userId null, reached by the private link whose
 * key is kept as SHA-256 and sealed to be mailed again). Status 1 open, 2 answered, 3 closed (machine.ts).
 */
export const supportTickets = pgTable(
  "support_tickets",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").references(() => users.id),
    /** console | support | contact (contract/support-codes.ts TICKET_SOURCES). */
    source: text("source").notNull(),
    question: text("question").notNull(),
    contactName: text("contact_name"),
    contactEmail: text("contact_email"),
    contactMobile: text("contact_mobile"),
    /** The language of the asker's mails. */
    language: text("language").notNull(),
    status: smallint("status").notNull().default(1),
    fileId: integer("file_id").references(() => files.id),
    /** A visitor's ticket: SHA-256 of the private link's key (looked up by it) and the key sealed (mailed again with each reply). */
    keyHash: text("key_hash"),
    keySealed: text("key_sealed"),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
    closedAt: ts("closed_at"),
  },
  (t) => [
    index("support_tickets_user_idx").on(t.userId, t.status),
    index("support_tickets_status_idx").on(t.status, t.updatedAt),
    uniqueIndex("support_tickets_key_idx").on(t.keyHash),
  ],
);

/** The conversation of a ticket after its question: replies of the asker (user) and of operators. */
export const supportMessages = pgTable(
  "support_messages",
  {
    id: serial("id").primaryKey(),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => supportTickets.id),
    /** user | operator */
    author: text("author").notNull(),
    /** The operator who replied (null for the asker). */
    operatorId: integer("operator_id").references(() => users.id),
    content: text("content").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("support_messages_ticket_idx").on(t.ticketId, t.id)],
);

/**
 * A newsletter subscriber (SPEC §2 subscribes, double opt-in): 1 pending until the confirmation link is opened,
 * 2 confirmed, 3 unsubscribed. The confirmation token is one-time (SHA-256 kept, cleared when used); the
 * unsubscribe token is kept sealed so that every newsletter mail carries its one-click link.
 */
export const newsletterSubscribers = pgTable(
  "newsletter_subscribers",
  {
    id: serial("id").primaryKey(),
    /** The address as given; unique in lower case. */
    email: text("email").notNull(),
    language: text("language").notNull(),
    status: smallint("status").notNull().default(1),
    confirmHash: text("confirm_hash"),
    confirmSentAt: ts("confirm_sent_at"),
    confirmedAt: ts("confirmed_at"),
    unsubscribeHash: text("unsubscribe_hash").notNull(),
    unsubscribeSealed: text("unsubscribe_sealed").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("newsletter_subscribers_email_idx").on(sql`lower(${t.email})`),
    uniqueIndex("newsletter_subscribers_confirm_idx").on(t.confirmHash),
    uniqueIndex("newsletter_subscribers_unsubscribe_idx").on(t.unsubscribeHash),
    index("newsletter_subscribers_status_idx").on(t.status, t.id),
  ],
);

/** A newsletter issue written by an operator, sent by the background job (jobs.ts) in batches. */
export const newsletterIssues = pgTable("newsletter_issues", {
  id: serial("id").primaryKey(),
  subjectEn: text("subject_en").notNull(),
  subjectZh: text("subject_zh").notNull(),
  bodyEn: text("body_en").notNull(),
  bodyZh: text("body_zh").notNull(),
  /** 1 sending, 2 sent. */
  status: smallint("status").notNull().default(1),
  /** Confirmed subscribers when it was sent; how many mails went out so far. */
  recipients: integer("recipients").notNull(),
  sent: integer("sent").notNull().default(0),
  /** The last subscriber id mailed: the job's cursor, so a restarted job does not mail anyone twice. */
  cursor: integer("cursor").notNull().default(0),
  createdBy: integer("created_by")
    .notNull()
    .references(() => users.id),
  createdAt: ts("created_at").notNull(),
  sentAt: ts("sent_at"),
});
