import { seedDemoProfiles } from "../domains/profile/demo";
import { seedDemoServices } from "../domains/services/demo";
import { seedBillingDemo } from "../domains/billing/demo";
import type { Db } from "./client";
import { seedInvoiceDemo } from "../domains/invoices/demo";
import { seedDemoStore } from "../domains/store/index";
import { seedDemoParticipation } from "../domains/participation/demo";

/**
 * Demo records of each domain (bills, payments, invoices, contacts ...) for demo accounts created just
 * now: `users` maps a demo username (seed.ts DEMO_ACCOUNTS) to its new id. Each domain adds its seeder
 * here; a seeder must only insert (the accounts are new, so nothing of theirs exists yet).
 */
export type DemoSeeder = (db: Db, users: Record<string, number>, now: Date) => Promise<void>;

const seeders: DemoSeeder[] = [seedBillingDemo, seedDemoProfiles, seedInvoiceDemo, seedDemoServices, seedDemoParticipation, seedDemoStore];

export async function seedDemoData(db: Db, users: Record<string, number>, now: Date) {
  for (const seed of seeders) await seed(db, users, now);
}
