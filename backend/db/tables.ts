import { bigserial, index, integer, jsonb, pgTable, serial, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { bytea, ts } from "./columns";

/** The platform's core tables, shared by the kernel and every domain: users, tokens, files, jobs, messages, city nodes. */

/**
 * Stored files (licences, chaincode zips, attachments, covers): in the database, so every process sees them.
 * Read and written only through the storage adapter (backend/kit/storage.ts). A file arriving by upload
 * (docs/decisions/023) carries its upload id, kind and uploader and stays pending until the call that uses
 * it claims it (`claimedAt`); pending uploads left unclaimed are swept after a while.
 */
export const files = pgTable(
  "files",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    mime: text("mime").notNull(),
    size: integer("size").notNull(),
    bytes: bytea("bytes").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** The upload's id (random, unguessable), or null for a file stored by the backend itself. */
    uploadId: text("upload_id"),
    /** The upload kind (contract/uploads.ts), for an uploaded file. */
    kind: text("kind"),
    /** Who uploaded it; null for the licence uploaded before its account exists. */
    ownerId: integer("owner_id"),
    /** When the call that uses the upload took it; null while pending. */
    claimedAt: ts("claimed_at"),
  },
  (t) => [uniqueIndex("files_upload_id_idx").on(t.uploadId), index("files_pending_idx").on(t.createdAt).where(sql`${t.uploadId} is not null and ${t.claimedAt} is null`)],
);

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    userName: text("user_name").notNull(),
    passwordHash: text("password_hash").notNull(),
    realName: text("real_name").notNull(),
    email: text("email").notNull(),
    mobile: text("mobile"),
    /** SPEC §3: 1 individual, 2 enterprise. */
    userType: smallint("user_type").notNull(),
    companyName: text("company_name"),
    companyAddress: text("company_address"),
    contactName: text("contact_name"),
    country: text("country"),
    creditCode: text("credit_code"),
    licenceFileId: integer("licence_file_id").references(() => files.id),
    /** "user" or "operator" (operations staff, SPEC §6). */
    role: text("role").notNull().default("user"),
    activatedAt: ts("activated_at"),
    failedLogins: integer("failed_logins").notNull().default(0),
    lockedUntil: ts("locked_until"),
    lastLoginAt: ts("last_login_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    /* SPEC §3 Profile (basic information). Notification email and mobile change only through support (§6). */
    selfIntroduction: text("self_introduction"),
    /** Company term options of §9: 1 under 3 years, 2 over 3, 3 under 10, 4 over 10. */
    termOfBusiness: smallint("term_of_business"),
    /** Staff options of §9: 1 under 100, 2 100-300, 3 300-500, 4 over 500. */
    staffCount: smallint("staff_count"),
    businessInformation: text("business_information"),
    mainBusiness: text("main_business"),
    companyProfile: text("company_profile"),
    companyUrl: text("company_url"),
    fax: text("fax"),
  },
  (t) => [
    uniqueIndex("users_user_name_lower").on(sql`lower(${t.userName})`),
    uniqueIndex("users_email_lower").on(sql`lower(${t.email})`),
    index("users_mobile").on(t.mobile),
  ],
);

/** Backend tokens issued at login; only their SHA-256 is stored. */
export const authTokens = pgTable(
  "auth_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id),
    createdAt: ts("created_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [index("auth_tokens_user").on(t.userId)],
);

/** SPEC §3 City node. Prices in USD cents. */
export const cityNodes = pgTable("city_nodes", {
  id: serial("id").primaryKey(),
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
  nameZh: text("name_zh").notNull(),
  operator: text("operator").notNull(),
  cloudProvider: text("cloud_provider").notNull(),
  address: text("address").notNull(),
  availableTps: integer("available_tps").notNull(),
  capacityGb: integer("capacity_gb").notNull(),
  peers: integer("peers").notNull(),
  trafficPricePerGbCents: integer("traffic_price_per_gb_cents").notNull(),
  tpsPricePerMonthCents: integer("tps_price_per_month_cents").notNull(),
  tpsPricePerYearCents: integer("tps_price_per_year_cents").notNull(),
  capacityPricePerGbMonthCents: integer("capacity_price_per_gb_month_cents").notNull(),
});

/** SPEC §3 Message: the text is an i18n key with its parameters, so each reader sees their language. */
export const messages = pgTable(
  "messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id),
    status: smallint("status").notNull().default(0),
    textKey: text("text_key").notNull(),
    params: jsonb("params").$type<Record<string, string>>().notNull().default({}),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("messages_user_status").on(t.userId, t.status, t.createdAt)],
);

/* ------------------------------------------------------------------------------------------------
 * Background jobs (ARCHITECTURE: payment expiry, callbacks, weekly bills, later tests and deployments).
 * A job is claimed with FOR UPDATE SKIP LOCKED and a lease, so it survives a restart and runs once even
 * with several processes. `dedupeKey` makes scheduling the same job twice a no-op.
 * ---------------------------------------------------------------------------------------------- */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    dedupeKey: text("dedupe_key").unique(),
    runAt: ts("run_at").notNull().defaultNow(),
    lockedUntil: ts("locked_until"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    doneAt: ts("done_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("jobs_due").on(t.doneAt, t.runAt)],
);
