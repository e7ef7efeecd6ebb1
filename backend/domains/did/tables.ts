import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { ts } from "#backend/db/columns.ts";

/** The Drizzle tables of the DID service (docs/decisions/043). */

/**
 * A DID: a user's (`userId`), or the platform's own did:web:<host> (`userId` null). Its public key as
 * multibase; its private key sealed (backend/kit/sealed.ts) when the portal holds it, null when the user does.
 */
export const didIdentifiers = pgTable(
  "did_identifiers",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").references(() => users.id),
    did: text("did").notNull().unique(),
    label: text("label").notNull(),
    /** key | web */
    method: text("method").notNull(),
    /** Ed25519 | secp256k1 */
    keyType: text("key_type").notNull(),
    /** portal | user */
    custody: text("custody").notNull(),
    publicKeyMultibase: text("public_key_multibase").notNull(),
    privateKeySealed: text("private_key_sealed"),
    /** The <handle> of did:web:<host>:users:<handle> (served at /users/<handle>/did.json); null otherwise. */
    webHandle: text("web_handle").unique(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("did_identifiers_user").on(t.userId, t.id)],
);

/** A status list (StatusList2021) of one issuing DID: 131,072 bits, indexes handed out in order. */
export const didStatusLists = pgTable(
  "did_status_lists",
  {
    id: serial("id").primaryKey(),
    issuerDidId: integer("issuer_did_id")
      .notNull()
      .references(() => didIdentifiers.id),
    size: integer("size").notNull(),
    nextIndex: integer("next_index").notNull().default(0),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("did_status_lists_issuer").on(t.issuerDidId)],
);

/** A credential issued here: its JWT, who issued it to whom, and its place in its issuer's status list. */
export const didCredentials = pgTable(
  "did_credentials",
  {
    id: serial("id").primaryKey(),
    /** enterprise | role */
    kind: text("kind").notNull(),
    issuerDidId: integer("issuer_did_id")
      .notNull()
      .references(() => didIdentifiers.id),
    /** The user who issued it (a publisher); null for the platform. */
    issuerUserId: integer("issuer_user_id").references(() => users.id),
    subjectDid: text("subject_did").notNull(),
    /** The account it was issued to (the enterprise, the participant). */
    subjectUserId: integer("subject_user_id").references(() => users.id),
    /** For a role credential: the participation it stands for. */
    appJoinId: integer("app_join_id"),
    claims: jsonb("claims").$type<Record<string, unknown>>().notNull(),
    jwt: text("jwt").notNull(),
    statusListId: integer("status_list_id")
      .notNull()
      .references(() => didStatusLists.id),
    statusIndex: integer("status_index").notNull(),
    issuedAt: ts("issued_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    uniqueIndex("did_credentials_status").on(t.statusListId, t.statusIndex),
    index("did_credentials_issuer").on(t.issuerUserId, t.id),
    index("did_credentials_subject").on(t.subjectUserId, t.id),
  ],
);
