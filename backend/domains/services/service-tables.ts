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
import { files, users, cityNodes, transitionColumns } from "#backend/db/tables.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { cents, ts } from "#backend/db/columns.ts";

/** The Drizzle tables of the services domain (migrations: backend/db/migrations). */

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
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
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
    /**
     * The paid period of the payment cycle (docs/decisions/036): set when the service first runs (the first
     * period is paid on creation), moved on by each paid renewal.
     */
    cycleStart: ts("cycle_start"),
    cycleEnd: ts("cycle_end"),
    /** The renewal bill of the next period while it is unpaid (Pay on the service; deactivated after its deadline). */
    renewalBillId: integer("renewal_bill_id").references(() => bills.id),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("apps_name_lower").on(sql`lower(${t.name})`), index("apps_user").on(t.userId)],
);

export const appVersions = pgTable(
  "app_versions",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => apps.id),
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
    deployReport: jsonb("deploy_report").$type<{
      passed: boolean;
      reasons: string[];
      suggestion?: string;
      nodes?: { cityNodeId: number; code?: string }[];
    }>(),
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
    appId: integer("app_id")
      .notNull()
      .references(() => apps.id),
    name: text("name").notNull(),
    fileId: integer("file_id")
      .notNull()
      .references(() => files.id),
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
    verId: integer("ver_id")
      .notNull()
      .references(() => appVersions.id),
    name: text("name").notNull(),
    version: text("version").notNull(),
    language: text("language").notNull(),
    initParams: text("init_params").notNull().default(""),
    mainPath: text("main_path").notNull(),
    fileId: integer("file_id")
      .notNull()
      .references(() => files.id),
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
    verId: integer("ver_id")
      .notNull()
      .references(() => appVersions.id),
    packageId: integer("package_id")
      .notNull()
      .references(() => chaincodePackages.id),
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
    verId: integer("ver_id")
      .notNull()
      .references(() => appVersions.id),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
  },
  (t) => [uniqueIndex("app_roles_name").on(t.verId, sql`lower(${t.name})`)],
);

export const appRoleFunctions = pgTable(
  "app_role_functions",
  {
    roleId: integer("role_id")
      .notNull()
      .references(() => appRoles.id),
    functionId: integer("function_id")
      .notNull()
      .references(() => appFunctions.id),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.functionId] }), index("app_role_functions_function").on(t.functionId)],
);

/** The city nodes a version runs on, with the TPS, capacity and bookkeeping nodes it books there. */
export const appNodes = pgTable(
  "app_nodes",
  {
    verId: integer("ver_id")
      .notNull()
      .references(() => appVersions.id),
    cityNodeId: integer("city_node_id")
      .notNull()
      .references(() => cityNodes.id),
    tps: integer("tps").notNull(),
    capacityGb: integer("capacity_gb").notNull(),
    peers: integer("peers").notNull(),
    /** Set by the deploy job once the node's resources are booked for this version. */
    bookedAt: ts("booked_at"),
  },
  (t) => [primaryKey({ columns: [t.verId, t.cityNodeId] }), index("app_nodes_city").on(t.cityNodeId)],
);

/** Every lifecycle transition (approval records and timeline): actor, time, comments. */
export const appTransitions = pgTable(
  "app_transitions",
  {
    id: serial("id").primaryKey(),
    verId: integer("ver_id")
      .notNull()
      .references(() => appVersions.id),
    ...transitionColumns(),
  },
  (t) => [index("app_transitions_ver").on(t.verId, t.createdAt)],
);

/** SPEC §3 Comment on a service: text up to 150 characters, the publisher's reply, marked useful. */
export const appComments = pgTable(
  "app_comments",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => apps.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
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
    appId: integer("app_id")
      .notNull()
      .references(() => apps.id),
    verId: integer("ver_id")
      .notNull()
      .references(() => appVersions.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
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

/** What a version books on one city node, as an upgrade records it before and after. */
export type NodeConfigRow = { cityNodeId: number; tps: number; capacityGb: number; peers: number };

/**
 * SPEC §3 Config upgrade application and §4 Config upgrade (docs/decisions/036): the configuration before
 * and after, the price for the rest of the cycle, the operator's review, the bill (§9 type 2), the
 * deployment job's state and report, and the upgrade status.
 */
export const configUpgrades = pgTable(
  "config_upgrades",
  {
    id: serial("id").primaryKey(),
    upgradeNo: text("upgrade_no").notNull().unique(),
    appId: integer("app_id")
      .notNull()
      .references(() => apps.id),
    verId: integer("ver_id")
      .notNull()
      .references(() => appVersions.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** §4 types: 1 node upgrade, 2 resource upgrade. */
    upgradeType: smallint("upgrade_type").notNull(),
    /** §4 upgrade status: 1 upgrading, 2 success, 3 failed. */
    status: smallint("status").notNull().default(1),
    /** §4 review: 1 pending, 5 not approved, 10 approved. */
    reviewState: smallint("review_state").notNull().default(1),
    /** §4 deployment: 1 to submit, 5 in progress, 10 success, 20 failed, 25 undeployed. */
    deployState: smallint("deploy_state").notNull().default(1),
    before: jsonb("before").$type<NodeConfigRow[]>().notNull(),
    after: jsonb("after").$type<NodeConfigRow[]>().notNull(),
    /** The price for the rest of the cycle, computed from the catalogue when requested. */
    amountCents: cents("amount_cents").notNull(),
    paymentCycle: smallint("payment_cycle").notNull(),
    cycleEnd: ts("cycle_end").notNull(),
    billId: integer("bill_id").references(() => bills.id),
    reviewComments: text("review_comments"),
    reviewedBy: integer("reviewed_by").references(() => users.id),
    reviewedAt: ts("reviewed_at"),
    deployReport: jsonb("deploy_report").$type<{ passed: boolean; reasons: string[]; suggestion?: string }>(),
    deployedAt: ts("deployed_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("config_upgrades_app").on(t.appId, t.createdAt),
    index("config_upgrades_review").on(t.reviewState, t.createdAt),
    index("config_upgrades_user").on(t.userId, t.createdAt),
  ],
);
