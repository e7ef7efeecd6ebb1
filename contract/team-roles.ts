/**
 * Teams (issue 33, docs/decisions/075): the roles a member of an account has, the permissions every user
 * path declares next to its `auth` (contract/path-spec.ts), and the one table that maps the first to the
 * second. The router refuses a path whose permission the caller's role lacks (code 4, the message naming
 * the roles that may).
 */

export const TEAM_ROLES = ["owner", "admin", "developer", "finance", "viewer"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
/** The roles an owner may give (ownership moves only by a transfer). */
export const ASSIGNABLE_ROLES = ["admin", "developer", "finance", "viewer"] as const satisfies readonly TeamRole[];
export const isTeamRole = (v: unknown): v is TeamRole => typeof v === "string" && TEAM_ROLES.includes(v as TeamRole);

/**
 * What a path needs of the acting member:
 * - `read`: reads the account's data (every role);
 * - `write`: a change any working member makes (a support ticket, an attachment) — every role but viewer;
 * - `services`: services, wizard, test services, public chain, IPFS, DID, IDE, DDC, dedicated nodes,
 *   cross-chain, contracts, the app store and participation (owner, admin, developer);
 * - `pay`: money — settling bills, recharge, withdrawal, card, invoices, invoice titles and contacts
 *   (owner, admin, finance);
 * - `account`: the account's own settings — its profile and certification (owner, admin);
 * - `members`: members, roles, invitations and ownership (owner);
 * - `own`: the login itself whatever account it acts for — logout, its password, its second factor, its
 *   accounts and the switch between them. The handler's `ctx.user` is then the login, not the account.
 */
export const PERMISSIONS = ["read", "write", "services", "pay", "account", "members", "own"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The roles' permissions: the one table (tests/unit/team-roles.test.ts). */
export const ROLE_PERMISSIONS: Record<TeamRole, readonly Permission[]> = {
  owner: ["read", "write", "services", "pay", "account", "members", "own"],
  admin: ["read", "write", "services", "pay", "account", "own"],
  developer: ["read", "write", "services", "own"],
  finance: ["read", "write", "pay", "own"],
  viewer: ["read", "own"],
};

export function roleMay(role: TeamRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** The roles that have a permission, strongest first. */
export function rolesWith(permission: Permission): TeamRole[] {
  return TEAM_ROLES.filter((role) => roleMay(role, permission));
}

/**
 * The message of a refusal (code 4) by the permission the path needs: each names the roles that may
 * (locales/<lng>/errors.json). `read` and `own` are every role's, so they are never refused by role.
 */
export const PERMISSION_REFUSED: Record<Exclude<Permission, "read" | "own">, string> = {
  write: "MSG_33001",
  services: "MSG_33002",
  pay: "MSG_33003",
  account: "MSG_33004",
  members: "MSG_33005",
};

export function refusalMessage(permission: Permission): string {
  return permission === "read" || permission === "own" ? "MSG_10403" : PERMISSION_REFUSED[permission];
}
