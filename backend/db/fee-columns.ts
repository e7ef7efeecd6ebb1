import { serial, text } from "drizzle-orm/pg-core";
import { cents } from "./columns.ts";

/**
 * The columns of a domain's fee table (docs/decisions/073): one row per priced fee, named in both languages,
 * its amount in USD cents, edited by operators on the prices page through the owning domain's api.
 */
export const feeColumns = () => ({
  id: serial("id").primaryKey(),
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
  nameZh: text("name_zh").notNull(),
  cents: cents("cents").notNull(),
});
