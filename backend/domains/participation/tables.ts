import { index, integer, pgTable, primaryKey, serial, smallint, text } from "drizzle-orm/pg-core";
import { users, cityNodes, transitionColumns } from "#backend/db/tables.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { apps, appVersions, appRoles } from "#backend/domains/services/tables.ts";
import { ts } from "#backend/db/columns.ts";

/** The Drizzle tables of the participation domain (migrations: backend/db/migrations). */

/* ------------------------------------------------------------------------------------------------
 * Participation and the app store (SPEC §3 Participation, Comment, Product, Service listing; §4
 * Participation audit 0-15, Product 0-4, App participation display).
 * ---------------------------------------------------------------------------------------------- */

/** A request to join a service (appJoinAuditId) and, once approved, the participation itself. */
export const appJoins = pgTable(
  "app_joins",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => apps.id),
    /** The version that was running when the request was made. */
    verId: integer("ver_id")
      .notNull()
      .references(() => appVersions.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    roleId: integer("role_id")
      .notNull()
      .references(() => appRoles.id),
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
    joinId: integer("join_id")
      .notNull()
      .references(() => appJoins.id),
    cityNodeId: integer("city_node_id")
      .notNull()
      .references(() => cityNodes.id),
    gatewayUrl: text("gateway_url"),
  },
  (t) => [primaryKey({ columns: [t.joinId, t.cityNodeId] })],
);

/** Every participation audit step: actor, time, comments (approval records and timeline). */
export const appJoinTransitions = pgTable(
  "app_join_transitions",
  {
    id: serial("id").primaryKey(),
    joinId: integer("join_id")
      .notNull()
      .references(() => appJoins.id),
    ...transitionColumns(),
  },
  (t) => [index("app_join_transitions_join").on(t.joinId, t.createdAt)],
);

/** Each service's own certificate authority; its private key is stored encrypted with a server secret. */
export const appCas = pgTable("app_cas", {
  appId: integer("app_id")
    .primaryKey()
    .references(() => apps.id),
  certificatePem: text("certificate_pem").notNull(),
  encryptedKey: text("encrypted_key").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/** SPEC §5 Identity certificate: an X.509 certificate issued by the service's CA to a participant. */
export const certificates = pgTable(
  "certificates",
  {
    id: serial("id").primaryKey(),
    joinId: integer("join_id")
      .notNull()
      .references(() => appJoins.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    appId: integer("app_id")
      .notNull()
      .references(() => apps.id),
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
