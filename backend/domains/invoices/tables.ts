import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { users } from "#backend/db/tables.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { ts, cents } from "#backend/db/columns.ts";

/** The Drizzle tables of the invoices domain (migrations: backend/db/migrations). */

/** SPEC §3 Invoice title; §9 title type 1 individual, 2 enterprise, 3 organisation. One default per user. */
export const invoiceTitles = pgTable(
  "invoice_titles",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    titleType: smallint("title_type").notNull(),
    title: text("title").notNull(),
    taxNo: text("tax_no"),
    bank: text("bank"),
    bankAccount: text("bank_account"),
    registeredAddress: text("registered_address"),
    registeredPhone: text("registered_phone"),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("invoice_titles_user").on(t.userId),
    uniqueIndex("invoice_titles_one_default")
      .on(t.userId)
      .where(sql`${t.isDefault}`),
  ],
);

/** SPEC §3 Receiver address (recipient of paper invoices). One default per user. */
export const receiverAddresses = pgTable(
  "receiver_addresses",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    mobile: text("mobile").notNull(),
    location: text("location").notNull(),
    address: text("address").notNull(),
    postalCode: text("postal_code"),
    email: text("email"),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("receiver_addresses_user").on(t.userId),
    uniqueIndex("receiver_addresses_one_default")
      .on(t.userId)
      .where(sql`${t.isDefault}`),
  ],
);

/**
 * SPEC §3 Invoice application; status §4: 1 pending review, 3 not approved, 5 pending delivery,
 * 10 delivered. Title and recipient are copied at application time, so later edits do not change it.
 */
export const invoiceApplications = pgTable(
  "invoice_applications",
  {
    id: serial("id").primaryKey(),
    applicationNo: text("application_no").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    title: jsonb("title")
      .$type<{
        titleType: number;
        title: string;
        taxNo?: string | null;
        bank?: string | null;
        bankAccount?: string | null;
        registeredAddress?: string | null;
        registeredPhone?: string | null;
      }>()
      .notNull(),
    /** §9: 1 general VAT, 5 special VAT. */
    invoiceType: smallint("invoice_type").notNull(),
    amountCents: cents("amount_cents").notNull(),
    status: smallint("status").notNull().default(1),
    /** §4: 1 paper, 2 electronic. */
    issuance: smallint("issuance").notNull(),
    recipient: jsonb("recipient")
      .$type<{
        name?: string;
        mobile?: string;
        location?: string;
        address?: string;
        postalCode?: string | null;
        email?: string | null;
        remark?: string | null;
      }>()
      .notNull(),
    deliveryEmail: text("delivery_email"),
    courierName: text("courier_name"),
    courierNo: text("courier_no"),
    idempotencyKey: text("idempotency_key"),
    createdAt: ts("created_at").notNull().defaultNow(),
    reviewedBy: integer("reviewed_by").references(() => users.id),
    reviewedAt: ts("reviewed_at"),
    reviewComments: text("review_comments"),
    deliveredBy: integer("delivered_by").references(() => users.id),
    deliveredAt: ts("delivered_at"),
  },
  (t) => [
    index("invoice_applications_user").on(t.userId, t.createdAt),
    uniqueIndex("invoice_applications_user_idempotency").on(t.userId, t.idempotencyKey),
  ],
);

export const invoiceApplicationBills = pgTable(
  "invoice_application_bills",
  {
    applicationId: integer("application_id")
      .notNull()
      .references(() => invoiceApplications.id),
    billId: integer("bill_id")
      .notNull()
      .references(() => bills.id),
    amountCents: cents("amount_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.billId] }), index("invoice_application_bills_bill").on(t.billId)],
);
