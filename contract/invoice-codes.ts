/**
 * Invoice constants and formats without Zod (contract/invoices.ts re-exports them), so pages that need
 * only these do not ship the schema library to the browser.
 */

/** §9 Title type. */
export const TITLE_TYPE = { INDIVIDUAL: 1, ENTERPRISE: 2, ORGANISATION: 3 } as const;
export const TITLE_TYPES = [1, 2, 3] as const;
/** §9 Invoice type: 1 general (ordinary) VAT, 5 special VAT. */
export const INVOICE_TYPE = { GENERAL: 1, SPECIAL: 5 } as const;
export const INVOICE_TYPES = [1, 5] as const;
/** §4 Issuance: 1 paper, 2 electronic. */
export const ISSUANCE = { PAPER: 1, ELECTRONIC: 2 } as const;
export const ISSUANCES = [1, 2] as const;
/** §4 Invoice application: 1 pending review, 3 not approved, 5 pending delivery, 10 delivered. */
export const INVOICE_STATUS = { PENDING_REVIEW: 1, NOT_APPROVED: 3, PENDING_DELIVERY: 5, DELIVERED: 10 } as const;
export const INVOICE_STATUSES = [1, 3, 5, 10] as const;
/** §4 Invoicing status of a bill: 1 not invoiced, 2 in progress, 5 invoiced. */
export const BILL_INVOICE_STATE = { NOT_INVOICED: 1, IN_PROGRESS: 2, INVOICED: 5 } as const;
/** §4 Payment statuses whose bills may be invoiced: 15 paid, 25 partly refunded. */
export const INVOICEABLE_PAY_STATES = [15, 25] as const;

/** A tax number (unified social credit code or taxpayer id): 15 to 20 capital letters and digits. */
export const TAX_NO_RE = /^[0-9A-Z]{15,20}$/;
/** A bank account number: 6 to 34 digits, letters (IBAN) or spaces. */
export const BANK_ACCOUNT_RE = /^[0-9A-Z][0-9A-Z ]{4,32}[0-9A-Z]$/;
/** A landline or mobile number: digits with an optional +, spaces, hyphens and parentheses, 6 to 20 characters. */
export const PHONE_RE = /^\+?[0-9][0-9 ()-]{4,18}[0-9]$/;
/** A postal code: 3 to 10 letters, digits, spaces or hyphens. */
export const POSTAL_CODE_RE = /^[0-9A-Za-z][0-9A-Za-z -]{1,8}[0-9A-Za-z]$/;
