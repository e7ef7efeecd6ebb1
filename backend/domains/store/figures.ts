import { count, eq } from "drizzle-orm";
import { ProductStatus } from "#contract/store-codes.ts";
import type { Db } from "#backend/db/client.ts";
import { products } from "./tables.ts";

/** The operators' product queue: products waiting for approval, as its list shows. */
export async function productsWaiting(db: Db) {
  const [row] = await db
    .select({ n: count() })
    .from(products)
    .where(eq(products.status, ProductStatus.PENDING_APPROVAL));
  return { Products: row.n };
}
