import { eq, or, sql } from "drizzle-orm";
import type { User } from "#contract/accounts.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import type { AuthUser } from "#backend/http/auth.ts";

export type UserRow = typeof users.$inferSelect;

/** A user by username, email or mobile number (case-insensitive for names and emails). */
export async function findUserByLogin(db: Db | Tx, login: string): Promise<UserRow | undefined> {
  const lower = login.trim().toLowerCase();
  const [row] = await db
    .select()
    .from(users)
    .where(
      or(
        sql`lower(${users.userName}) = ${lower}`,
        sql`lower(${users.email}) = ${lower}`,
        eq(users.mobile, login.trim()),
      ),
    )
    .orderBy(users.id)
    .limit(1);
  return row;
}

/** The user as the contract shows it (SPEC §3 user info). */
export function toUser(row: AuthUser): User {
  return {
    userId: row.id,
    userName: row.userName,
    realName: row.realName,
    email: row.email,
    mobile: row.mobile,
    userType: row.userType === 2 ? 2 : 1,
    companyName: row.companyName,
    role: row.role === "operator" ? "operator" : "user",
    createdAt: row.createdAt.toISOString(),
    lastLoginAt: row.lastLoginAt ? row.lastLoginAt.toISOString() : null,
  };
}

/** The profile fields of an account (SPEC §3 Profile): never its name, email, mobile, password, type or role. */
export type ProfileDetails = Partial<
  Pick<
    typeof users.$inferInsert,
    | "country"
    | "selfIntroduction"
    | "termOfBusiness"
    | "staffCount"
    | "businessInformation"
    | "mainBusiness"
    | "companyProfile"
    | "companyUrl"
    | "companyAddress"
    | "contactName"
    | "fax"
  >
>;

/** Saves profile details of the user `userId` (the profile domain's edit and demo seeder); returns the whole row. */
export async function saveProfileDetails(db: Db | Tx, userId: number, details: ProfileDetails): Promise<UserRow> {
  const [row] = await db.update(users).set(details).where(eq(users.id, userId)).returning();
  return row;
}
