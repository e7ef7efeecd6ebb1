import type { MessageRefKind } from "#contract/platform.ts";
import {
  bigserial,
  check,
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
import { bytea, ts } from "./columns.ts";

/** The platform's core tables, shared by the kernel and every domain: users, tokens, files, jobs, messages, city nodes. */

/**
 * Stored files (licences, chaincode zips, attachments, covers): their metadata and content address (the
 * SHA-256 of their bytes, `blob`); the bytes are in the blob store (backend/kit/blobs/, docs/decisions/053):
 * DATA_DIR/files, the `file_chunks` table, or a bucket. Read and written only through the storage adapter
 * (backend/kit/storage.ts). A file arriving by upload (docs/decisions/023) carries its upload id, kind and
 * uploader and stays pending until the call that uses it claims it (`claimedAt`); pending uploads left
 * unclaimed are swept after a while.
 */
export const files = pgTable(
  "files",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    mime: text("mime").notNull(),
    size: integer("size").notNull(),
    /**
     * The content address: the SHA-256 of the bytes, 64 hex digits. Null only on a row written before
     * docs/decisions/053 whose bytes the start-time migration has not moved out yet (backend/kit/storage.ts).
     */
    blob: text("blob"),
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
  (t) => [
    uniqueIndex("files_upload_id_idx").on(t.uploadId),
    index("files_pending_idx")
      .on(t.createdAt)
      .where(sql`${t.uploadId} is not null and ${t.claimedAt} is null`),
    index("files_blob_idx").on(t.blob),
  ],
);

/**
 * The bytes of stored files on PostgreSQL without FILES_URL (docs/decisions/053): each blob in chunks of at
 * most 1 MB, by content address and position. Owned by the storage kit (backend/kit/blobs/postgres.ts). A
 * blob being written sits under a temporary address (`tmp:<random>`) until the row that names it commits.
 */
export const fileChunks = pgTable(
  "file_chunks",
  {
    address: text("address").notNull(),
    seq: integer("seq").notNull(),
    bytes: bytea("bytes").notNull(),
    /** When the chunk was written or last reused (the sweep leaves younger blobs alone). */
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.address, t.seq] })],
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
    /**
     * Enterprise certification (docs/decisions/071; contract/certification.ts CertState): 0 not submitted,
     * 1 pending review, 5 rejected, 10 approved. Written only by the accounts domain.
     */
    certState: smallint("cert_state").notNull().default(0),
    /** The operator's reason of the last rejection (shown to the user until they submit again). */
    certReason: text("cert_reason"),
    certSubmittedAt: ts("cert_submitted_at"),
    certDecidedAt: ts("cert_decided_at"),
    /** "user" or "operator" (operations staff, SPEC §6). */
    role: text("role").notNull().default("user"),
    activatedAt: ts("activated_at"),
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
    /**
     * The language the login last signed in (or registered) with, "en" or "zh-CN": the language of the mails the
     * product sends them on its own (a message about the account's money or services, docs/decisions/085).
     */
    language: text("language").notNull().default("en"),
  },
  (t) => [
    check("users_language", sql`${t.language} in ('en', 'zh-CN')`),
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
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: ts("created_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
    /**
     * When the holder passed the second factor (operators, docs/decisions/022). An operator's token without
     * it opens only the two-factor paths (contract: `beforeSecondFactor`); other users' tokens ignore it.
     */
    mfaVerifiedAt: ts("mfa_verified_at"),
    /**
     * The account this login acts for (issue 33, docs/decisions/075): null for its own; another (an
     * enterprise it is a member of) once it switched there. The router checks the membership on every read.
     */
    accountId: integer("account_id").references(() => users.id),
  },
  (t) => [index("auth_tokens_user").on(t.userId), index("auth_tokens_account").on(t.accountId)],
);

/**
 * Rate-limit counters and locks (backend/kit/rate-limit.ts, docs/decisions/021), in the database so that every
 * process counts together. One row per key: `hits` in the window that ends at `resetAt` (or the lock that
 * ends then); a hit after `resetAt` starts a new window. Rows past their `resetAt` are dead and purged.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    hits: integer("hits").notNull(),
    resetAt: ts("reset_at").notNull(),
  },
  (t) => [index("rate_limits_reset_at").on(t.resetAt)],
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
  // The Chinese words of the catalogue (docs/decisions/028): filled by the platform's upsert at every start;
  // null only for a node the catalogue does not list, shown in English then.
  operatorZh: text("operator_zh"),
  cloudProviderZh: text("cloud_provider_zh"),
  addressZh: text("address_zh"),
  availableTps: integer("available_tps").notNull(),
  capacityGb: integer("capacity_gb").notNull(),
  peers: integer("peers").notNull(),
  trafficPricePerGbCents: integer("traffic_price_per_gb_cents").notNull(),
  tpsPricePerMonthCents: integer("tps_price_per_month_cents").notNull(),
  tpsPricePerYearCents: integer("tps_price_per_year_cents").notNull(),
  capacityPricePerGbMonthCents: integer("capacity_price_per_gb_month_cents").notNull(),
  /** The price of one bookkeeping node per month (docs/decisions/036); operators edit it with the others. */
  peerPricePerMonthCents: integer("peer_price_per_month_cents").notNull().default(0),
  /** SPEC §9 the interchain protocols (1, 2) the node supports (§8 "Nodes do not support the chosen interchain protocol"; docs/decisions/048). */
  interchainProtocols: integer("interchain_protocols")
    .array()
    .notNull()
    .default(sql`'{1,2}'::integer[]`),
});

/** SPEC §3 Message: the text is an i18n key with its parameters, so each reader sees their language. */
export const messages = pgTable(
  "messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    status: smallint("status").notNull().default(0),
    textKey: text("text_key").notNull(),
    params: jsonb("params").$type<Record<string, string>>().notNull().default({}),
    /**
     * What the message is about (contract/platform.ts MESSAGE_REF_KINDS: a bill, a service, a join
     * request…) and its id, for the Message center's link; null for older messages and for news.
     */
    refKind: text("ref_kind").$type<MessageRefKind>(),
    refId: integer("ref_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("messages_user_status").on(t.userId, t.status, t.createdAt)],
);

/* ------------------------------------------------------------------------------------------------
 * Background jobs (ARCHITECTURE: payment expiry, callbacks, weekly bills, tests and deployments;
 * backend/jobs/runner.ts, docs/decisions/005). A job is claimed with FOR UPDATE SKIP LOCKED and a short
 * lease renewed by a heartbeat while it runs, so it survives a restart and runs once even with several
 * processes. `dedupeKey` makes scheduling the same job twice a no-op. A job that used up its attempts is
 * kept as dead (`deadAt`) with its last error until an operator retries it.
 * ---------------------------------------------------------------------------------------------- */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    dedupeKey: text("dedupe_key").unique(),
    runAt: ts("run_at").notNull().defaultNow(),
    /** The end of the lease of the process running it (the database's clock); free once passed. */
    lockedUntil: ts("locked_until"),
    /** The process running it: "<host>:<pid namespace>:<pid>:<random id of that start>" (backend/jobs/worker.ts). */
    lockedBy: text("locked_by"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    doneAt: ts("done_at"),
    /** Dead letter: every attempt failed; kept with its last error until an operator retries it. */
    deadAt: ts("dead_at"),
    /** Whom the dead job concerns (the owner of its resource, told by a message), when its domain says. */
    ownerId: integer("owner_id").references(() => users.id),
    /** The last retry by an operator, and how many there were. */
    retriedAt: ts("retried_at"),
    retriedBy: integer("retried_by").references(() => users.id),
    retries: integer("retries").notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("jobs_due").on(t.doneAt, t.runAt), index("jobs_dead").on(t.deadAt)],
);

/** The columns of a status-machine transition record (approval records and timelines): event, states, actor, comments. */
export const transitionColumns = () => ({
  event: text("event").notNull(),
  fromState: smallint("from_state").notNull(),
  toState: smallint("to_state").notNull(),
  /** The user who acted; null for the system (jobs). */
  actorId: integer("actor_id").references(() => users.id),
  actorKind: text("actor_kind").notNull(),
  comments: text("comments"),
  createdAt: ts("created_at").notNull().defaultNow(),
});
/* ------------------------------------------------------------------------------------------------
 * Team activity (issue 33, docs/decisions/079): one row per change made in an account's name, with the
 * member who made it (their login id and username then), written by the router after the call succeeded
 * (backend/kit/activity.ts, its one writer; contract/activity-rules.ts). No code updates or deletes a row.
 * ---------------------------------------------------------------------------------------------- */
export const teamActivity = pgTable(
  "team_activity",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: ts("at").notNull(),
    /** The account the change was made for. */
    accountId: integer("account_id")
      .notNull()
      .references(() => users.id),
    /** The login that acted, and its username when it acted. */
    memberId: integer("member_id")
      .notNull()
      .references(() => users.id),
    memberName: text("member_name").notNull(),
    /** e.g. "bill.pay", "publicChain.projectKey" (contract/activity-rules.ts). */
    action: text("action").notNull(),
    /** services | keys | money | account | members | support (contract/activity.ts ACTIVITY_KINDS). */
    kind: text("kind").notNull(),
    targetId: text("target_id"),
    /** The path's allow-listed payload fields, short values only. */
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    /** The /vueapi path (or download kind) called. */
    path: text("path").notNull(),
  },
  (t) => [
    index("team_activity_account_at").on(t.accountId, t.at),
    index("team_activity_account_member_at").on(t.accountId, t.memberId, t.at),
  ],
);

/* ------------------------------------------------------------------------------------------------
 * The operators' audit log (docs/decisions/022): one row per operator decision, written by the router in
 * the decision's own transaction (backend/kit/audit.ts). Append-only: no code updates or deletes a row,
 * and the database refuses UPDATE, DELETE and TRUNCATE (backend/db/guards.ts).
 * ---------------------------------------------------------------------------------------------- */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: ts("at").notNull(),
    actorId: integer("actor_id")
      .notNull()
      .references(() => users.id),
    /** The actor's username when it acted. */
    actorName: text("actor_name").notNull(),
    /** e.g. "service.review", "withdrawal.review", "mfa.verify" (contract/audit.ts AUDIT_ACTIONS). */
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    /** The target's id or number as the path names it (appVerId, paymentNo, ...); null for the log itself. */
    targetId: text("target_id"),
    decision: text("decision"),
    comments: text("comments"),
    /** The rest of the request (courier, filters) and the outcome the path answered (the new status). */
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    /** The /vueapi path that made the decision. */
    path: text("path").notNull(),
    clientIp: text("client_ip"),
  },
  (t) => [
    index("audit_log_at").on(t.at),
    index("audit_log_actor_at").on(t.actorId, t.at),
    index("audit_log_action_at").on(t.action, t.at),
    index("audit_log_target").on(t.targetType, t.targetId),
  ],
);

/**
 * The word index of searchable content (issue 15: documentation and news, in both languages), written and read
 * only through backend/kit/search.ts. Neither database has a Chinese full-text parser, so the words are found
 * by `Intl.Segmenter` (ICU's dictionary segmentation for Chinese) when the item is saved; a query is segmented
 * the same way and must match every word. `kind` names the content ("doc", "news", ...), `weight` is 3 for a
 * word of the title and 1 for one of the body only.
 */
export const searchTerms = pgTable(
  "search_terms",
  {
    kind: text("kind").notNull(),
    itemId: integer("item_id").notNull(),
    lang: text("lang").notNull(),
    term: text("term").notNull(),
    weight: smallint("weight").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.itemId, t.lang, t.term] }),
    index("search_terms_term_idx").on(t.kind, t.term),
  ],
);

/* ------------------------------------------------------------------------------------------------
 * Engine leases (issue 32, docs/decisions/095): one row per embedded engine (`chain`, …) that several portal
 * processes on one database could run. The holder runs it and answers the others' calls at `address`; the
 * lease ends at `expiresAt` (the database's clock) unless the holder renews it. `epoch` grows by one at each
 * change of holder, so a call or a write can say which holder it was meant for.
 * ---------------------------------------------------------------------------------------------- */
export const engineLeases = pgTable("engine_leases", {
  engine: text("engine").primaryKey(),
  /** The process holding it: "<host>:<pid>:<random id of that start>". */
  holder: text("holder").notNull(),
  /** Where the holder answers forwarded calls (an http(s) URL the other processes reach). */
  address: text("address").notNull(),
  epoch: integer("epoch").notNull().default(1),
  acquiredAt: ts("acquired_at").notNull().defaultNow(),
  renewedAt: ts("renewed_at").notNull().defaultNow(),
  expiresAt: ts("expires_at").notNull(),
});
