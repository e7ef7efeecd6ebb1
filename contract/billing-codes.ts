/**
 * The codes of bills and the ledger (SPEC §4, §9; docs/decisions/006), without Zod, so that browser code
 * can use them without loading the schemas. contract/billing.ts re-exports them.
 */

/**
 * SPEC §9 bill types. 1, 2, 15, 25, 30, 50, 91 and 92 are named by the spec (56, the public-chain plan fee, by docs/decisions/026); the categories it lists
 * without a code (data usage, IPFS, cross-chain, dedicated node) take codes from its numeric list (ADR 006).
 */
export const BillType = {
  PUBLISH: 1,
  CONFIG_UPGRADE: 2,
  DATA_TRAFFIC: 3,
  IPFS: 4,
  CROSS_CHAIN: 5,
  DEDICATED_NODE: 10,
  /** A service's resource fees for its next period of the payment cycle (docs/decisions/036). */
  RESOURCE_RENEWAL: 11,
  RECHARGE: 15,
  WITHDRAWAL: 25,
  REFUND: 30,
  ASSIGN_GAS: 50,
  /** A public-chain plan's fee (docs/decisions/026). */
  PUBLIC_CHAIN_PLAN: 56,
  MINT_DDC: 91,
  TRANSFER_DDC: 92,
} as const;
/** The types with a name, in the order the bill-type filter lists them. */
export const NAMED_BILL_TYPES: readonly number[] = Object.values(BillType);

/**
 * Bills paid once, for one thing (a recharge, a withdrawal, a refund, gas assigned, a DDC minted or
 * transferred): they have no payment cycle, whatever the bill's `cycle` column holds (its default is 2).
 */
export const ONE_OFF_BILL_TYPES: readonly number[] = [
  BillType.RECHARGE,
  BillType.WITHDRAWAL,
  BillType.REFUND,
  BillType.ASSIGN_GAS,
  BillType.MINT_DDC,
  BillType.TRANSFER_DDC,
];

/** SPEC §4 Payment status. */
export const PayState = {
  UNPAID: 1,
  IN_PAYMENT: 2,
  FAILED: 5,
  EXPIRED: 10,
  PAID: 15,
  REFUNDED: 20,
  PARTLY_REFUNDED: 25,
} as const;
export const PAY_STATES: readonly number[] = Object.values(PayState);
/** Bills that are still owed: unpaid, in payment, or whose payment failed. */
export const UNPAID_STATES: readonly number[] = [PayState.UNPAID, PayState.IN_PAYMENT, PayState.FAILED];

/** A postpaid usage bill is due this many days after it is issued (docs/decisions/006). */
export const USAGE_BILL_DUE_DAYS = 7;

/** The facts of a bill that decide whether it blocks. */
export type BlockingFacts = { billType: number; payMode: number; payState: number; deadline: Date };

/**
 * SPEC §5 "Blocking by bills" as docs/decisions/059 reads it (superseding 006 in part): whether an owed bill
 * blocks an action of payType 1 (a new service, product, IPFS service or transfer, an upgrade) or 2 (a
 * dedicated node) at `now`.
 * - A postpaid usage bill (payMode 2: weekly data traffic, IPFS traffic, cross-chain calls) blocks every
 *   payType from its deadline (issue + 7 days) on, until it is paid; before its deadline it blocks nothing.
 * - payType 2 is also blocked by a dedicated-node bill waiting for payment before its deadline (one node
 *   application at a time).
 * - Nothing else blocks: an unpaid prepaid bill is an application that expires at its deadline.
 * backend/domains/billing/figures.ts `blockingWhere` is the same rule in SQL.
 */
export function billBlocks(bill: BlockingFacts, payType: 1 | 2, now: Date): boolean {
  if (!UNPAID_STATES.includes(bill.payState)) return false;
  if (bill.payMode === 2) return bill.deadline.getTime() <= now.getTime();
  return payType === 2 && bill.billType === BillType.DEDICATED_NODE && bill.deadline.getTime() > now.getTime();
}

/** SPEC §4 Invoicing status: 1 not invoiced, 2 in progress, 5 invoiced. */
export const INVOICE_STATES: readonly number[] = [1, 2, 5];

/** The ledger's kinds of entry (what each one does: backend/domains/billing/ledger.ts). */
export const LEDGER_ENTRY_KINDS = [
  "recharge",
  "grant",
  "bill_payment",
  "refund",
  "withdrawal_hold",
  "withdrawal_release",
  "invoice_hold",
  "invoice_release",
] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];
