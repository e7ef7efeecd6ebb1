import type { SignedInContext } from "#backend/http/router.ts";
import { pubChainAccounts } from "#backend/domains/public-chain/tables.ts";

/** The public chain's handlers (contract/public-chain.ts; docs/decisions/026). */

export const DAY_MS = 86_400_000;

export type Ctx = SignedInContext;

export type AccountRow = typeof pubChainAccounts.$inferSelect;

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
