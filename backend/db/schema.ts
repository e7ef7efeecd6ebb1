import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, customType, date, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** The one schema of the /vueapi service (PostgreSQL dialect: PGlite embedded or a PostgreSQL server). */

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Uploaded files (licences now; chaincode, attachments, covers later): in the database, so every process sees them. */
export const files = pgTable("files", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  mime: text("mime").notNull(),
  size: integer("size").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

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

export const activationTokens = pgTable("activation_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  userId: integer("user_id").notNull().references(() => users.id),
  expiresAt: ts("expires_at").notNull(),
  usedAt: ts("used_at"),
});

/** Image captchas: single use, short-lived; in the database so any process can check them. */
export const captchas = pgTable(
  "captchas",
  {
    key: text("key").primaryKey(),
    answer: text("answer").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [index("captchas_expires").on(t.expiresAt)],
);

export const resetCodes = pgTable(
  "reset_codes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id),
    codeHash: text("code_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    usedAt: ts("used_at"),
  },
  (t) => [index("reset_codes_user").on(t.userId)],
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

/* ------------------------------------------------------------------------------------------------
 * Finance (SPEC §3 Account, Bill; §4 payment, invoicing, invoice and refund statuses; §9 Billing).
 * Money is integer USD cents (house habit 9).
 * ---------------------------------------------------------------------------------------------- */
const cents = (name: string) => bigint(name, { mode: "number" });

/**
 * The ledger's running totals, one row per user. Always equal to the sums of the user's ledger deltas
 * (backend/billing/ledger.ts writes both in one transaction; a test checks they agree).
 */
export const wallets = pgTable(
  "wallets",
  {
    userId: integer("user_id").primaryKey().references(() => users.id),
    balanceCents: cents("balance_cents").notNull().default(0),
    withdrawableCents: cents("withdrawable_cents").notNull().default(0),
    invoiceableCents: cents("invoiceable_cents").notNull().default(0),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    check("wallets_balance_nonneg", sql`${t.balanceCents} >= 0`),
    check("wallets_withdrawable_range", sql`${t.withdrawableCents} >= 0 AND ${t.withdrawableCents} <= ${t.balanceCents}`),
    check("wallets_invoiceable_nonneg", sql`${t.invoiceableCents} >= 0`),
  ],
);

/** One ledger: every change of balance, withdrawable or invoiceable amount is an entry here. */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id),
    /** recharge | bill_payment | refund | withdrawal_hold | withdrawal_release | invoice_hold | invoice_release | grant */
    kind: text("kind").notNull(),
    balanceDelta: cents("balance_delta").notNull(),
    withdrawableDelta: cents("withdrawable_delta").notNull(),
    invoiceableDelta: cents("invoiceable_delta").notNull(),
    balanceAfter: cents("balance_after").notNull(),
    withdrawableAfter: cents("withdrawable_after").notNull(),
    invoiceableAfter: cents("invoiceable_after").notNull(),
    /** What the entry is about: bill, payment, withdrawal, invoice. */
    refType: text("ref_type").notNull(),
    refId: integer("ref_id").notNull(),
    /** A caller-supplied key: the same operation submitted twice writes one entry. */
    idempotencyKey: text("idempotency_key"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("ledger_user_time").on(t.userId, t.createdAt),
    uniqueIndex("ledger_user_idempotency").on(t.userId, t.idempotencyKey),
    index("ledger_ref").on(t.refType, t.refId),
  ],
);

/** Usage detail of a bill (SPEC §3 Bill): data usage per city node and resource usage. */
export type BillDetail = {
  dataUsage?: { nodeCode: string; usedGb: number; pricePerGbCents: number; amountCents: number }[];
  resources?: {
    nodeCode: string;
    tps: number;
    capacityGb: number;
    peers: number;
    monthlyPriceCents: number;
    yearlyPriceCents: number;
    amountCents: number;
  }[];
  nodeCount?: number;
  hostConfiguration?: string;
  dataCapacityGb?: number;
  cloudPlatform?: string;
  region?: string;
};

/** SPEC §3 Bill; types of §9 (1 publish, 2 config upgrade, 15 recharge, 25 withdrawal, 30 refund, ...). */
export const bills = pgTable(
  "bills",
  {
    id: serial("id").primaryKey(),
    billNo: text("bill_no").notNull().unique(),
    userId: integer("user_id").notNull().references(() => users.id),
    /** The service (app) the bill is for, when there is one. */
    appId: integer("app_id"),
    serviceName: text("service_name").notNull(),
    billType: smallint("bill_type").notNull(),
    /** §4 Payment status: 1 unpaid, 2 in payment, 5 failed, 10 expired, 15 paid, 20 all refunded, 25 partly refunded. */
    payState: smallint("pay_state").notNull().default(1),
    /** 1 prepaid (resource fees, first period on creation), 2 postpaid (by actual use, weekly). */
    payMode: smallint("pay_mode").notNull(),
    /** How it was paid: BALANCE, or a §9 payment type GT0001-GT0004. */
    payType: text("pay_type"),
    /** §4 Payment cycle: 1 yearly, 2 monthly, 99 weekly. */
    cycle: smallint("cycle").notNull(),
    periodStart: ts("period_start").notNull(),
    periodEnd: ts("period_end").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** Pay before this; after it an unpaid bill expires (§4 status 10) or, for usage, blocks (§5). */
    deadline: ts("deadline").notNull(),
    /** When the resources of an unpaid bill are released. */
    releaseTime: ts("release_time"),
    paidAt: ts("paid_at"),
    totalCents: cents("total_cents").notNull(),
    payCents: cents("pay_cents").notNull(),
    refundNo: text("refund_no"),
    refundCents: cents("refund_cents").notNull().default(0),
    /** §4 Invoicing status: 1 not invoiced, 2 in progress, 5 invoiced. */
    invoiceState: smallint("invoice_state").notNull().default(1),
    detail: jsonb("detail").$type<BillDetail>().notNull().default({}),
    /** Generated bills (weekly traffic) are made once per user and period. */
    dedupeKey: text("dedupe_key").unique(),
  },
  (t) => [index("bills_user_time").on(t.userId, t.createdAt), index("bills_user_state").on(t.userId, t.payState)],
);

/** Daily data traffic per city node: the 30-day chart (§9 Charts) and the weekly traffic bills. */
export const usageDaily = pgTable(
  "usage_daily",
  {
    userId: integer("user_id").notNull().references(() => users.id),
    day: date("day", { mode: "string" }).notNull(),
    cityNodeId: integer("city_node_id").notNull().references(() => cityNodes.id),
    /** Traffic in MB (integer); bills convert to GB at 1024 MB. */
    trafficMb: integer("traffic_mb").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.cityNodeId] })],
);

/**
 * Payments through the card payment provider or by offline remittance (SPEC §9 Payment methods):
 * recharges of the balance. Status is §4 Payment status.
 */
export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    paymentNo: text("payment_no").notNull().unique(),
    userId: integer("user_id").notNull().references(() => users.id),
    purpose: text("purpose").notNull().default("recharge"),
    amountCents: cents("amount_cents").notNull(),
    /** §9 payment type GT0001-GT0004 (GT0004 offline remittance). */
    payType: text("pay_type").notNull(),
    status: smallint("status").notNull().default(1),
    provider: text("provider"),
    providerRef: text("provider_ref").unique(),
    /** Offline remittance: the payer's bank reference, for the operator to match. */
    remittanceRef: text("remittance_ref"),
    failureReason: text("failure_reason"),
    idempotencyKey: text("idempotency_key"),
    createdAt: ts("created_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    paidAt: ts("paid_at"),
    reviewedBy: integer("reviewed_by").references(() => users.id),
    reviewedAt: ts("reviewed_at"),
    reviewComments: text("review_comments"),
  },
  (t) => [
    index("payments_user_time").on(t.userId, t.createdAt),
    index("payments_status").on(t.status, t.expiresAt),
    uniqueIndex("payments_user_idempotency").on(t.userId, t.idempotencyKey),
  ],
);

/** Callbacks received from the payment provider, by its event id: a replayed event is recognised. */
export const providerEvents = pgTable("provider_events", {
  eventId: text("event_id").primaryKey(),
  provider: text("provider").notNull(),
  kind: text("kind").notNull(),
  reference: text("reference").notNull(),
  payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
  receivedAt: ts("received_at").notNull().defaultNow(),
  timesReceived: integer("times_received").notNull().default(1),
});

/**
 * The embedded sandbox card provider's own records (a third party of its own: the portal knows only its
 * API). Checkout sessions for payments and for saving a card.
 */
export const sandboxCheckouts = pgTable("sandbox_checkouts", {
  id: text("id").primaryKey(),
  /** payment | setup */
  mode: text("mode").notNull(),
  merchantRef: text("merchant_ref").notNull(),
  amountCents: cents("amount_cents"),
  currency: text("currency").notNull().default("USD"),
  description: text("description"),
  returnUrl: text("return_url").notNull(),
  callbackUrl: text("callback_url").notNull(),
  /** open | succeeded | declined | expired */
  status: text("status").notNull().default("open"),
  cardBrand: text("card_brand"),
  cardLast4: text("card_last4"),
  cardExpMonth: smallint("card_exp_month"),
  cardExpYear: smallint("card_exp_year"),
  declineReason: text("decline_reason"),
  createdAt: ts("created_at").notNull().defaultNow(),
  expiresAt: ts("expires_at").notNull(),
  completedAt: ts("completed_at"),
  callbackDeliveredAt: ts("callback_delivered_at"),
});

/** SPEC §3 Account card: only the brand and last 4 digits are kept; the provider holds the card. */
export const cards = pgTable("cards", {
  userId: integer("user_id").primaryKey().references(() => users.id),
  brand: text("brand").notNull(),
  last4: text("last4").notNull(),
  expMonth: smallint("exp_month"),
  expYear: smallint("exp_year"),
  providerRef: text("provider_ref").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** Withdrawal requests; state is §4 Refund review: 1 pending, 5 not approved, 10 approved, 15 confirmed. */
export const withdrawals = pgTable(
  "withdrawals",
  {
    id: serial("id").primaryKey(),
    withdrawalNo: text("withdrawal_no").notNull().unique(),
    userId: integer("user_id").notNull().references(() => users.id),
    amountCents: cents("amount_cents").notNull(),
    state: smallint("state").notNull().default(1),
    idempotencyKey: text("idempotency_key"),
    createdAt: ts("created_at").notNull().defaultNow(),
    reviewedBy: integer("reviewed_by").references(() => users.id),
    reviewedAt: ts("reviewed_at"),
    reviewComments: text("review_comments"),
    /** Approved withdrawals arrive within 7 working days (§9). */
    expectedArrival: date("expected_arrival", { mode: "string" }),
  },
  (t) => [index("withdrawals_user_time").on(t.userId, t.createdAt), uniqueIndex("withdrawals_user_idempotency").on(t.userId, t.idempotencyKey)],
);

/** SPEC §3 Invoice title; §9 title type 1 individual, 2 enterprise, 3 organisation. One default per user. */
export const invoiceTitles = pgTable(
  "invoice_titles",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id),
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
  (t) => [index("invoice_titles_user").on(t.userId), uniqueIndex("invoice_titles_one_default").on(t.userId).where(sql`${t.isDefault}`)],
);

/** SPEC §3 Receiver address (recipient of paper invoices). One default per user. */
export const receiverAddresses = pgTable(
  "receiver_addresses",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id),
    name: text("name").notNull(),
    mobile: text("mobile").notNull(),
    location: text("location").notNull(),
    address: text("address").notNull(),
    postalCode: text("postal_code"),
    email: text("email"),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("receiver_addresses_user").on(t.userId), uniqueIndex("receiver_addresses_one_default").on(t.userId).where(sql`${t.isDefault}`)],
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
    userId: integer("user_id").notNull().references(() => users.id),
    title: jsonb("title").$type<{ titleType: number; title: string; taxNo?: string | null; bank?: string | null; bankAccount?: string | null; registeredAddress?: string | null; registeredPhone?: string | null }>().notNull(),
    /** §9: 1 general VAT, 5 special VAT. */
    invoiceType: smallint("invoice_type").notNull(),
    amountCents: cents("amount_cents").notNull(),
    status: smallint("status").notNull().default(1),
    /** §4: 1 paper, 2 electronic. */
    issuance: smallint("issuance").notNull(),
    recipient: jsonb("recipient").$type<{ name?: string; mobile?: string; location?: string; address?: string; postalCode?: string | null; email?: string | null; remark?: string | null }>().notNull(),
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
  (t) => [index("invoice_applications_user").on(t.userId, t.createdAt), uniqueIndex("invoice_applications_user_idempotency").on(t.userId, t.idempotencyKey)],
);

export const invoiceApplicationBills = pgTable(
  "invoice_application_bills",
  {
    applicationId: integer("application_id").notNull().references(() => invoiceApplications.id),
    billId: integer("bill_id").notNull().references(() => bills.id),
    amountCents: cents("amount_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.billId] }), index("invoice_application_bills_bill").on(t.billId)],
);

/** SPEC §3 contact / §5 Contacts: name, mobile, email, department or company. */
export const contacts = pgTable(
  "contacts",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id),
    name: text("name").notNull(),
    mobile: text("mobile").notNull(),
    email: text("email").notNull(),
    department: text("department").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("contacts_user").on(t.userId)],
);

/* ------------------------------------------------------------------------------------------------
 * Consortium-chain services (SPEC §3 Service, Chaincode package, Service function, Role, City node; §4
 * verState). A service (app) holds what describes it; each version (appVerId) holds what runs: packages,
 * functions, roles, city nodes, certificate mode, and its own verState. A draft is a version in verState 1.
 * ---------------------------------------------------------------------------------------------- */

/** SPEC §3 Service access methods. */
export type AccessMethods = {
  webUrl?: string;
  android?: string;
  ios?: string;
  officialAccount?: string;
  miniProgram?: string;
  apiInstructions?: string;
};

export const apps = pgTable(
  "apps",
  {
    id: serial("id").primaryKey(),
    /** Public code of the service (invitations, access parameters). */
    appCode: text("app_code").notNull().unique(),
    userId: integer("user_id").notNull().references(() => users.id),
    name: text("name").notNull(),
    industry: text("industry").notNull().default(""),
    description: text("description").notNull().default(""),
    introduction: text("introduction").notNull().default(""),
    coverFileId: integer("cover_file_id").references(() => files.id),
    framework: text("framework").notNull().default(""),
    platformType: text("platform_type").notNull().default(""),
    serviceType: smallint("service_type").notNull().default(1),
    /** The account's one free service (§1): 1 free, 0 paid. */
    freeYN: smallint("free_yn").notNull().default(0),
    isPublic: boolean("is_public").notNull().default(false),
    /** §4 Payment cycle: 1 yearly, 2 monthly. */
    paymentCycle: smallint("payment_cycle").notNull().default(2),
    crossChain: boolean("cross_chain").notNull().default(false),
    /** Interchain protocol (§9: two protocols), when crossChain. */
    crossProtocol: smallint("cross_protocol"),
    crossAppCode: text("cross_app_code"),
    /** §4 Cross-chain status. */
    crossStatus: smallint("cross_status").notNull().default(0),
    contactName: text("contact_name").notNull().default(""),
    contactMobile: text("contact_mobile").notNull().default(""),
    contactEmail: text("contact_email").notNull().default(""),
    accessMethods: jsonb("access_methods").$type<AccessMethods>().notNull().default({}),
    /** The version that runs (or the first one, before anything runs). */
    currentVerId: integer("current_ver_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("apps_name_lower").on(sql`lower(${t.name})`), index("apps_user").on(t.userId)],
);

export const appVersions = pgTable(
  "app_versions",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id").notNull().references(() => apps.id),
    version: text("version").notNull(),
    /** §4 Service status. */
    verState: smallint("ver_state").notNull().default(1),
    /** The wizard step the publisher last reached (the draft resumes there). */
    wizardStep: text("wizard_step").notNull().default("basic"),
    /** SPEC §2 wizard certificate mode: 1 participant certificate, 2 key trust, 3 upload public key. */
    certificateMode: smallint("certificate_mode"),
    /** Upgrade allowed (verUpable). */
    verUpable: boolean("ver_upable").notNull().default(true),
    agreementAcceptedAt: ts("agreement_accepted_at"),
    /** Cost of one payment cycle, computed from the catalogue prices at submission. */
    costCents: cents("cost_cents"),
    /** The publish bill (§9 bill type 1) and its payment status (billState). */
    billId: integer("bill_id").references(() => bills.id),
    billState: smallint("bill_state").notNull().default(1),
    submittedAt: ts("submitted_at"),
    /** When the final review approved it: the 3-day payment window starts here (§8). */
    approvedAt: ts("approved_at"),
    publishedAt: ts("published_at"),
    /** The test job's and the deploy job's findings: reasons and a suggestion (§4). */
    testReport: jsonb("test_report").$type<{ passed: boolean; reasons: string[]; suggestion?: string }>(),
    deployReport: jsonb("deploy_report").$type<{ passed: boolean; reasons: string[]; suggestion?: string; nodes?: { cityNodeId: number; contractAddress: string; chaincodeAddress: string }[] }>(),
    /**
     * The publisher's pending request to lift an operator's suspension (verState 40) and its note; cleared
     * when an operator enables the version or declines the request (docs/decisions/015).
     */
    enableRequestedAt: ts("enable_requested_at"),
    enableRequestNote: text("enable_request_note"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("app_versions_app_version").on(t.appId, t.version), index("app_versions_state").on(t.verState)],
);

/** SPEC §3 attachments or documents of a service. */
export const appAttachments = pgTable(
  "app_attachments",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id").notNull().references(() => apps.id),
    name: text("name").notNull(),
    fileId: integer("file_id").notNull().references(() => files.id),
    fileName: text("file_name").notNull(),
    size: integer("size").notNull(),
  },
  (t) => [uniqueIndex("app_attachments_name").on(t.appId, t.name)],
);

/** SPEC §3 Chaincode package of a version. */
export const chaincodePackages = pgTable(
  "chaincode_packages",
  {
    id: serial("id").primaryKey(),
    verId: integer("ver_id").notNull().references(() => appVersions.id),
    name: text("name").notNull(),
    version: text("version").notNull(),
    language: text("language").notNull(),
    initParams: text("init_params").notNull().default(""),
    mainPath: text("main_path").notNull(),
    fileId: integer("file_id").notNull().references(() => files.id),
    fileName: text("file_name").notNull(),
    size: integer("size").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("chaincode_packages_name").on(t.verId, t.name)],
);

/** SPEC §3 Service function. */
export const appFunctions = pgTable(
  "app_functions",
  {
    id: serial("id").primaryKey(),
    verId: integer("ver_id").notNull().references(() => appVersions.id),
    packageId: integer("package_id").notNull().references(() => chaincodePackages.id),
    name: text("name").notNull(),
    /** Chaincode FUNC type: 1 invoke (writes), 2 query (reads). */
    funcType: smallint("func_type").notNull(),
    func: text("func").notNull(),
    /** The superior function, or null for Top. */
    parentId: integer("parent_id"),
    crossChainAllowed: boolean("cross_chain_allowed").notNull().default(false),
    inputFormat: text("input_format").notNull(),
    outputFormat: text("output_format").notNull(),
  },
  (t) => [uniqueIndex("app_functions_func").on(t.verId, t.func), index("app_functions_package").on(t.packageId)],
);

/** SPEC §3 Role with its function permissions. */
export const appRoles = pgTable(
  "app_roles",
  {
    id: serial("id").primaryKey(),
    verId: integer("ver_id").notNull().references(() => appVersions.id),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
  },
  (t) => [uniqueIndex("app_roles_name").on(t.verId, sql`lower(${t.name})`)],
);

export const appRoleFunctions = pgTable(
  "app_role_functions",
  {
    roleId: integer("role_id").notNull().references(() => appRoles.id),
    functionId: integer("function_id").notNull().references(() => appFunctions.id),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.functionId] }), index("app_role_functions_function").on(t.functionId)],
);

/** The city nodes a version runs on, with the TPS, capacity and bookkeeping nodes it books there. */
export const appNodes = pgTable(
  "app_nodes",
  {
    verId: integer("ver_id").notNull().references(() => appVersions.id),
    cityNodeId: integer("city_node_id").notNull().references(() => cityNodes.id),
    tps: integer("tps").notNull(),
    capacityGb: integer("capacity_gb").notNull(),
    peers: integer("peers").notNull(),
    /** Set by the deploy job once the node's resources are booked for this version. */
    bookedAt: ts("booked_at"),
    contractAddress: text("contract_address"),
    chaincodeAddress: text("chaincode_address"),
  },
  (t) => [primaryKey({ columns: [t.verId, t.cityNodeId] }), index("app_nodes_city").on(t.cityNodeId)],
);

/** Every lifecycle transition (approval records and timeline): actor, time, comments. */
export const appTransitions = pgTable(
  "app_transitions",
  {
    id: serial("id").primaryKey(),
    verId: integer("ver_id").notNull().references(() => appVersions.id),
    event: text("event").notNull(),
    fromState: smallint("from_state").notNull(),
    toState: smallint("to_state").notNull(),
    /** The user who acted; null for the system (jobs). */
    actorId: integer("actor_id").references(() => users.id),
    actorKind: text("actor_kind").notNull(),
    comments: text("comments"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("app_transitions_ver").on(t.verId, t.createdAt)],
);

/** SPEC §3 Comment on a service: text up to 150 characters, the publisher's reply, marked useful. */
export const appComments = pgTable(
  "app_comments",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id").notNull().references(() => apps.id),
    userId: integer("user_id").notNull().references(() => users.id),
    text: text("text").notNull(),
    reply: text("reply"),
    repliedAt: ts("replied_at"),
    usefulCount: integer("useful_count").notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("app_comments_app").on(t.appId, t.createdAt)],
);

/** Unsubscribing a service creates a refund request an operator reviews (§4 Refund review). */
export const refundRequests = pgTable(
  "refund_requests",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id").notNull().references(() => apps.id),
    verId: integer("ver_id").notNull().references(() => appVersions.id),
    userId: integer("user_id").notNull().references(() => users.id),
    /** §4 Refund review: 1 pending, 5 not approved, 10 approved, 15 confirmed. */
    state: smallint("state").notNull().default(1),
    amountCents: cents("amount_cents").notNull().default(0),
    reason: text("reason"),
    createdAt: ts("created_at").notNull().defaultNow(),
    reviewedBy: integer("reviewed_by").references(() => users.id),
    reviewedAt: ts("reviewed_at"),
    reviewComments: text("review_comments"),
  },
  (t) => [index("refund_requests_state").on(t.state)],
);

/* ------------------------------------------------------------------------------------------------
 * Participation and the app store (SPEC §3 Participation, Comment, Product, Service listing; §4
 * Participation audit 0-15, Product 0-4, App participation display).
 * ---------------------------------------------------------------------------------------------- */

/** A request to join a service (appJoinAuditId) and, once approved, the participation itself. */
export const appJoins = pgTable(
  "app_joins",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id").notNull().references(() => apps.id),
    /** The version that was running when the request was made. */
    verId: integer("ver_id").notNull().references(() => appVersions.id),
    userId: integer("user_id").notNull().references(() => users.id),
    roleId: integer("role_id").notNull().references(() => appRoles.id),
    /** §4 Participation audit: 0 pending, 1 publisher approved, 2 publisher rejected, 3 operator approved,
     * 4 operator rejected, 5 to order, 10 ordered, 13 work order done, 15 confirmed. */
    auditState: smallint("audit_state").notNull().default(0),
    /** The service's certificate mode at the time: 1 participant certificate, 2 key trust, 3 upload public key. */
    certificateMode: smallint("certificate_mode").notNull(),
    /** The node order billed to the participant, when the chosen nodes need resources. */
    orderBillId: integer("order_bill_id").references(() => bills.id),
    /** Access parameter: the participant's user code on the service. */
    userCode: text("user_code"),
    /** Set when the publisher disables the participant. */
    disabledAt: ts("disabled_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("app_joins_app").on(t.appId, t.auditState), index("app_joins_user").on(t.userId, t.createdAt)],
);

/** The city nodes a participant asked for, with the gateway each one gives them once provisioned. */
export const appJoinNodes = pgTable(
  "app_join_nodes",
  {
    joinId: integer("join_id").notNull().references(() => appJoins.id),
    cityNodeId: integer("city_node_id").notNull().references(() => cityNodes.id),
    gatewayUrl: text("gateway_url"),
  },
  (t) => [primaryKey({ columns: [t.joinId, t.cityNodeId] })],
);

/** Every participation audit step: actor, time, comments (approval records and timeline). */
export const appJoinTransitions = pgTable(
  "app_join_transitions",
  {
    id: serial("id").primaryKey(),
    joinId: integer("join_id").notNull().references(() => appJoins.id),
    event: text("event").notNull(),
    fromState: smallint("from_state").notNull(),
    toState: smallint("to_state").notNull(),
    actorId: integer("actor_id").references(() => users.id),
    actorKind: text("actor_kind").notNull(),
    comments: text("comments"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("app_join_transitions_join").on(t.joinId, t.createdAt)],
);

/** Each service's own certificate authority; its private key is stored encrypted with a server secret. */
export const appCas = pgTable("app_cas", {
  appId: integer("app_id").primaryKey().references(() => apps.id),
  certificatePem: text("certificate_pem").notNull(),
  encryptedKey: text("encrypted_key").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/** SPEC §5 Identity certificate: an X.509 certificate issued by the service's CA to a participant. */
export const certificates = pgTable(
  "certificates",
  {
    id: serial("id").primaryKey(),
    joinId: integer("join_id").notNull().references(() => appJoins.id),
    userId: integer("user_id").notNull().references(() => users.id),
    appId: integer("app_id").notNull().references(() => apps.id),
    /** 1 participant certificate, 2 key trust, 3 upload public key. */
    mode: smallint("mode").notNull(),
    serialNumber: text("serial_number").notNull().unique(),
    subject: text("subject").notNull(),
    certificatePem: text("certificate_pem").notNull(),
    /** Key trust: the private key, encrypted with the participant's certificate password (PKCS#8). */
    encryptedKeyPem: text("encrypted_key_pem"),
    notBefore: ts("not_before").notNull(),
    notAfter: ts("not_after").notNull(),
    revokedAt: ts("revoked_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("certificates_user").on(t.userId, t.notAfter), index("certificates_join").on(t.joinId)],
);

/** SPEC §3 Product; status §4: 0 pending submit, 1 pending approval, 2 displayed, 3 approval failed, 4 removed. */
export const products = pgTable(
  "products",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id),
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
    productId: integer("product_id").notNull().references(() => products.id),
    appId: integer("app_id").notNull().references(() => apps.id),
    userId: integer("user_id").notNull().references(() => users.id),
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
    userId: integer("user_id").notNull().references(() => users.id),
    /** app | product */
    targetKind: text("target_kind").notNull(),
    targetId: integer("target_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.targetKind, t.targetId] }), index("follows_target").on(t.targetKind, t.targetId)],
);

/** Ratings of services by their participants (§3 Service listing "user rating"), 1 to 5. */
export const appRatings = pgTable(
  "app_ratings",
  {
    appId: integer("app_id").notNull().references(() => apps.id),
    userId: integer("user_id").notNull().references(() => users.id),
    score: smallint("score").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.userId] }), check("app_ratings_score", sql`${t.score} BETWEEN 1 AND 5`)],
);

/** "Marked useful" (§3 Comment): one mark per user and comment. */
export const commentUseful = pgTable(
  "comment_useful",
  {
    commentId: integer("comment_id").notNull().references(() => appComments.id),
    userId: integer("user_id").notNull().references(() => users.id),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.userId] })],
);
