import { CertState } from "#contract/certification.ts";
import { hashPassword } from "./passwords.ts";
import { users } from "#backend/db/tables.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import inbox from "#backend/domains/inbox/index.ts";

export const DEMO_PASSWORD = "Demo12!@pass";

export const DEMO_ACCOUNTS = [
  {
    userName: "demoperson",
    realName: "演示个人",
    email: "demoperson@example.com",
    mobile: "+8613800000001",
    userType: 1,
    role: "user",
  },
  {
    userName: "democompany",
    realName: "演示企业",
    email: "democompany@example.com",
    mobile: "+8613800000002",
    userType: 2,
    role: "user",
    companyName: "Demo Chain Technology Co., Ltd.",
    companyAddress: "8 Zhongguancun Street, Haidian District, Beijing",
    contactName: "Demo Contact",
    country: "China",
    creditCode: "91110108MA01DEM1XQ",
    // Certified (docs/decisions/071): an operator approved it when the demo began.
    certState: CertState.APPROVED,
  },
  {
    userName: "demooperator",
    realName: "运维人员",
    email: "demooperator@example.com",
    mobile: "+8613800000003",
    userType: 1,
    role: "operator",
  },
] as const;

/** Another domain's demo account (same demo password, activated at `at`): inserted once; its id, or none when it exists already. */
export async function createDemoAccount(
  db: Db | Tx,
  account: Pick<typeof users.$inferInsert, "userName" | "realName" | "email" | "userType" | "role" | "companyName">,
  at: Date,
): Promise<number | undefined> {
  const [row] = await db
    .insert(users)
    .values({ ...account, passwordHash: await hashPassword(DEMO_PASSWORD), activatedAt: at, createdAt: at })
    .onConflictDoNothing()
    .returning({ id: users.id });
  return row?.id;
}

/**
 * The demo accounts: inserted once (an existing account is never touched). Returns the ones created just
 * now, by username, for the other domains' demo seeders (backend/seed.ts).
 */
export async function createDemoAccounts(db: Db, now: Date): Promise<Record<string, number>> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const created: Record<string, number> = {};
  for (const account of DEMO_ACCOUNTS) {
    const inserted = await db
      .insert(users)
      .values({
        ...account,
        passwordHash,
        activatedAt: now,
        createdAt: now,
        ...("certState" in account ? { certSubmittedAt: now, certDecidedAt: now } : {}),
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (inserted.length > 0) {
      created[account.userName] = inserted[0].id;
      await inbox.api.notify(db, {
        userId: inserted[0].id,
        textKey: "messages.welcome",
        params: { userName: account.userName },
        at: now,
      });
    }
  }
  return created;
}
