import { sql } from "drizzle-orm";
import { users } from "#backend/db/tables.ts";
import { ledgerEntries } from "#backend/domains/billing/tables.ts";
import { appJoins } from "#backend/domains/participation/tables.ts";
import { pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { apps } from "#backend/domains/services/tables.ts";
import type { Db } from "#backend/db/client.ts";
import type { DemoSeeder } from "#backend/kit/domain.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { CHECKLIST_STEPS, type Checklist } from "#contract/platform.ts";
import { homeChecklists } from "./tables.ts";

/**
 * The getting-started checklist of a user's console home (issue 30 item 13), read in one query from what the
 * account has done: its profile introduction, a recharge in its ledger, a service it publishes or asked to
 * join, a public-chain project; and whether it dismissed the list (this domain's own home_checklists).
 */
export async function checklistOf(db: Db, userId: number): Promise<Checklist> {
  const [row] = await db
    .select({
      profile: sql<boolean>`coalesce(length(trim(${users.selfIntroduction})) > 0, false)`,
      recharge: sql<boolean>`exists (select 1 from ${ledgerEntries} where ${ledgerEntries.userId} = ${userId} and ${ledgerEntries.kind} = 'recharge')`,
      service: sql<boolean>`(exists (select 1 from ${apps} where ${apps.userId} = ${userId}) or exists (select 1 from ${appJoins} where ${appJoins.userId} = ${userId}))`,
      project: sql<boolean>`exists (select 1 from ${pubChainProjects} where ${pubChainProjects.userId} = ${userId})`,
      dismissed: sql<boolean>`exists (select 1 from ${homeChecklists} where ${homeChecklists.userId} = ${userId})`,
    })
    .from(users)
    .where(sql`${users.id} = ${userId}`);
  const done = (v: unknown) => v === true || v === "t" || v === "true";
  return {
    steps: CHECKLIST_STEPS.map((key) => ({ key, done: done(row?.[key]) })),
    dismissed: done(row?.dismissed),
  };
}

/** /main/home/checklist/dismiss: the account hides its checklist for good (again: nothing changes). */
export async function dismissChecklist(_input: unknown, ctx: SignedInContext): Promise<null> {
  await ctx.deps.db
    .insert(homeChecklists)
    .values({ userId: ctx.user.id, dismissedAt: ctx.deps.now() })
    .onConflictDoNothing();
  return null;
}

/**
 * The demo accounts (backend/seed.ts) start with their checklist hidden: they show a working account, and
 * demoperson never created a public-chain project (only democompany did).
 */
export const seedDemoChecklists: DemoSeeder = async (deps, created, now) => {
  const rows = Object.values(created).map((userId) => ({ userId, dismissedAt: now }));
  if (rows.length) await deps.db.insert(homeChecklists).values(rows).onConflictDoNothing();
};
