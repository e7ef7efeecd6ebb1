import { KeyType } from "#contract/public-chain-codes.ts";

/** What a public-chain account allows, by its key type. */

/** A custody account: the platform holds its key. */
export const isCustody = (keyType: number) => keyType === KeyType.CUSTODY;
