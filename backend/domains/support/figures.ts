import { count, eq } from "drizzle-orm";
import { TicketStatus } from "#contract/support-codes.ts";
import type { Db } from "#backend/db/client.ts";
import { supportTickets } from "./tables.ts";

/** The waiting items of the operations queue (platform dashboard): open tickets. */
export async function ticketsWaiting(db: Db) {
  const [{ n }] = await db
    .select({ n: count() })
    .from(supportTickets)
    .where(eq(supportTickets.status, TicketStatus.OPEN));
  return { Tickets: n };
}
