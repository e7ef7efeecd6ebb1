import * as z from "zod";
import { nothing, type PathSpec } from "./path-spec.ts";
import { pageOf, pageRequestSchema } from "./platform.ts";
import { idempotencyKey, mobile, optionalText, required } from "./rules.ts";
import {
  TITLE_TYPE,
  TITLE_TYPES,
  INVOICE_TYPES,
  ISSUANCE,
  ISSUANCES,
  TAX_NO_RE,
  BANK_ACCOUNT_RE,
  PHONE_RE,
  POSTAL_CODE_RE,
} from "./invoice-codes.ts";
export * from "./invoice-codes.ts";

/*
 * Invoices (SPEC §2 Invoices, §3 Invoice title / Invoice application / Receiver address, §4 invoicing and
 * invoice application statuses, §9 Invoices). Form schemas keep the typed strings (Conform's values), so
 * the portal forwards the parsed value and the backend parses the same value again with the same schema.
 * Validation messages are keys of the `invoices` namespace (or the shared `validation.*` of `forms`).
 */

/** A record id as forms carry it. */
const ID_RE = /^[1-9][0-9]{0,9}$/;

const idField = (message = "validation.invalid") => z.string({ error: message }).trim().regex(ID_RE, message);
const choice = <T extends readonly number[]>(values: T, message: string) =>
  z.enum(values.map(String) as [string, ...string[]], { error: message });
const text = (max: number) => optionalText().refine((v) => v === undefined || v.length <= max, "validation.tooLong");
/** Cross-field rules run even when another field failed, so every problem shows at once. */
const always = { when: (payload: { value: unknown }) => typeof payload.value === "object" && payload.value !== null };
const checkbox = () => z.literal("on").optional();
const optionalEmail = () =>
  optionalText().pipe(
    z.union([z.undefined(), z.string().max(100, "validation.email.format").pipe(z.email("validation.email.format"))]),
  );

/* ------------------------------------------------------------------------------------------------ *
 * Invoice title (SPEC §3): type, title, tax number, bank, account, registered address and phone, default.
 * ------------------------------------------------------------------------------------------------ */
const titleFields = z.object({
  titleType: choice(TITLE_TYPES, "invoices:validation.titleType"),
  title: required().max(100, "validation.tooLong"),
  taxNo: text(20).refine((v) => v === undefined || TAX_NO_RE.test(v), "invoices:validation.taxNo"),
  bank: text(100),
  bankAccount: text(34).refine((v) => v === undefined || BANK_ACCOUNT_RE.test(v), "invoices:validation.bankAccount"),
  registeredAddress: text(200),
  registeredPhone: text(20).refine((v) => v === undefined || PHONE_RE.test(v), "invoices:validation.phone"),
  isDefault: checkbox(),
  titleId: idField().optional(),
});

/** Enterprise and organisation titles need their tax number. */
export const invoiceTitleSchema = titleFields.superRefine((v, ctx) => {
  if ((v.titleType === String(TITLE_TYPE.ENTERPRISE) || v.titleType === String(TITLE_TYPE.ORGANISATION)) && !v.taxNo) {
    ctx.addIssue({ code: "custom", path: ["taxNo"], message: "invoices:validation.taxNoRequired" });
  }
}, always);
export type InvoiceTitleInput = z.infer<typeof invoiceTitleSchema>;
export const updateInvoiceTitleSchema = titleFields.extend({ titleId: idField() }).superRefine((v, ctx) => {
  if ((v.titleType === String(TITLE_TYPE.ENTERPRISE) || v.titleType === String(TITLE_TYPE.ORGANISATION)) && !v.taxNo) {
    ctx.addIssue({ code: "custom", path: ["taxNo"], message: "invoices:validation.taxNoRequired" });
  }
}, always);

export const invoiceTitleRowSchema = z.object({
  titleId: z.number().int(),
  titleType: z.number().int(),
  title: z.string(),
  taxNo: z.string().nullable(),
  bank: z.string().nullable(),
  bankAccount: z.string().nullable(),
  registeredAddress: z.string().nullable(),
  registeredPhone: z.string().nullable(),
  isDefault: z.boolean(),
  createdAt: z.string(),
});
export type InvoiceTitle = z.infer<typeof invoiceTitleRowSchema>;

/** What a special VAT invoice needs of its title (SPEC §3, §9). */
export function titleAllowsSpecialVat(
  t: Pick<InvoiceTitle, "titleType" | "taxNo" | "bank" | "bankAccount" | "registeredAddress" | "registeredPhone">,
): boolean {
  return (
    t.titleType !== TITLE_TYPE.INDIVIDUAL &&
    !!t.taxNo &&
    !!t.bank &&
    !!t.bankAccount &&
    !!t.registeredAddress &&
    !!t.registeredPhone
  );
}

/* ------------------------------------------------------------------------------------------------ *
 * Receiving address (SPEC §3 Receiver address): name, mobile, location, address, postal code, email.
 * ------------------------------------------------------------------------------------------------ */
export const addresseeSchema = z.object({
  addresseeId: idField().optional(),
  name: required().max(50, "validation.tooLong"),
  mobile: mobile(),
  location: required().max(100, "validation.tooLong"),
  address: required().max(200, "validation.tooLong"),
  postalCode: text(10).refine((v) => v === undefined || POSTAL_CODE_RE.test(v), "invoices:validation.postalCode"),
  email: optionalEmail(),
  isDefault: checkbox(),
});
export type AddresseeInput = z.infer<typeof addresseeSchema>;

export const addresseeRowSchema = z.object({
  addresseeId: z.number().int(),
  name: z.string(),
  mobile: z.string(),
  location: z.string(),
  address: z.string(),
  postalCode: z.string().nullable(),
  email: z.string().nullable(),
  isDefault: z.boolean(),
  createdAt: z.string(),
});
export type Addressee = z.infer<typeof addresseeRowSchema>;

/* ------------------------------------------------------------------------------------------------ *
 * Invoice application (SPEC §3): select billing → confirm information → submit.
 * ------------------------------------------------------------------------------------------------ */
export const MAX_BILLS_PER_APPLICATION = 100;
const billIds = () =>
  z
    .array(idField(), { error: "invoices:validation.billsRequired" })
    .min(1, "invoices:validation.billsRequired")
    .max(MAX_BILLS_PER_APPLICATION, "invoices:validation.tooManyBills");

/** Step 1, select billing: at least one bill. */
export const selectBillsSchema = z.object({ billIds: billIds() });

/** Step 2, confirm information: title, invoice type, issuance, recipient, remark. */
export const invoiceApplicationSchema = z
  .object({
    idempotencyKey: idempotencyKey(),
    billIds: billIds(),
    titleId: idField("invoices:validation.titleRequired"),
    invoiceType: choice(INVOICE_TYPES, "invoices:validation.invoiceType"),
    issuance: choice(ISSUANCES, "invoices:validation.issuance"),
    addresseeId: idField().optional(),
    email: optionalEmail(),
    remark: text(200),
  })
  .superRefine((v, ctx) => {
    if (v.issuance === String(ISSUANCE.PAPER) && !v.addresseeId) {
      ctx.addIssue({ code: "custom", path: ["addresseeId"], message: "invoices:validation.addresseeRequired" });
    }
    if (v.issuance === String(ISSUANCE.ELECTRONIC) && !v.email) {
      ctx.addIssue({ code: "custom", path: ["email"], message: "invoices:validation.emailRequired" });
    }
  }, always);
export type InvoiceApplicationInput = z.infer<typeof invoiceApplicationSchema>;

export const invoiceableBillSchema = z.object({
  billId: z.number().int(),
  billNo: z.string(),
  serviceName: z.string(),
  billType: z.number().int(),
  payState: z.number().int(),
  paidAt: z.string().nullable(),
  /** Paid amount minus refunds, in cents. */
  amountCents: z.number().int(),
});
export type InvoiceableBill = z.infer<typeof invoiceableBillSchema>;

const recipientSchema = z.object({
  name: z.string().optional(),
  mobile: z.string().optional(),
  location: z.string().optional(),
  address: z.string().optional(),
  postalCode: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  remark: z.string().nullable().optional(),
});
const titleCopySchema = z.object({
  titleType: z.number().int(),
  title: z.string(),
  taxNo: z.string().nullable().optional(),
  bank: z.string().nullable().optional(),
  bankAccount: z.string().nullable().optional(),
  registeredAddress: z.string().nullable().optional(),
  registeredPhone: z.string().nullable().optional(),
});

export const invoiceSummarySchema = z.object({
  invoiceId: z.number().int(),
  applicationNo: z.string(),
  title: z.string(),
  titleType: z.number().int(),
  invoiceType: z.number().int(),
  issuance: z.number().int(),
  amountCents: z.number().int(),
  status: z.number().int(),
  createdAt: z.string(),
  /** The applicant (operator lists only). */
  userName: z.string().optional(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;

export const invoiceDetailSchema = invoiceSummarySchema.extend({
  titleInfo: titleCopySchema,
  recipient: recipientSchema,
  deliveryEmail: z.string().nullable(),
  courierName: z.string().nullable(),
  courierNo: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  reviewComments: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  bills: z.array(
    z.object({
      billId: z.number().int(),
      billNo: z.string(),
      serviceName: z.string(),
      billType: z.number().int(),
      amountCents: z.number().int(),
      invoiceState: z.number().int(),
    }),
  ),
});
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;

/* Operator decisions (SPEC §6 "Invoices need reviewer approval"; docs/decisions/008). */
export const approveInvoiceSchema = z.object({ invoiceId: idField(), comments: text(500) });
export const rejectInvoiceSchema = z.object({
  invoiceId: idField(),
  comments: z.string({ error: "errors:MSG_30014" }).trim().min(1, "errors:MSG_30014").max(500, "validation.tooLong"),
});
/** The queue's decision form: approve (comments optional) or reject (comments required), each confirmed first. */
export const invoiceDecisionSchema = z
  .object({ invoiceId: idField(), decision: z.enum(["approve", "reject"]), comments: text(500) })
  .superRefine((v, ctx) => {
    if (v.decision === "reject" && !v.comments)
      ctx.addIssue({ code: "custom", path: ["comments"], message: "errors:MSG_30014" });
  });
/** Paper needs courier name and bill number, electronic the address it was sent to (checked against the application). */
export const deliverInvoiceSchema = z.object({
  invoiceId: idField(),
  courierName: text(50),
  courierNo: text(50).refine((v) => v === undefined || /^[0-9A-Za-z-]{4,50}$/.test(v), "invoices:validation.courierNo"),
  deliveryEmail: optionalEmail(),
});

/** The operator's deliver form: the application's issuance travels along so the client can check the right fields. */
export const deliverInvoiceFormSchema = deliverInvoiceSchema
  .extend({ issuance: choice(ISSUANCES, "validation.invalid") })
  .superRefine((v, ctx) => {
    if (v.issuance === String(ISSUANCE.PAPER)) {
      if (!v.courierName)
        ctx.addIssue({ code: "custom", path: ["courierName"], message: "invoices:validation.courierNameRequired" });
      if (!v.courierNo)
        ctx.addIssue({ code: "custom", path: ["courierNo"], message: "invoices:validation.courierNoRequired" });
    } else if (!v.deliveryEmail) {
      ctx.addIssue({ code: "custom", path: ["deliveryEmail"], message: "invoices:validation.emailRequired" });
    }
  }, always);

const idPayload = <K extends string>(name: K) =>
  z.object({ [name]: z.number().int().positive() } as Record<K, z.ZodNumber>);
const statusCondition = z.object({
  page: z
    .object({
      pageSize: z.number().int().min(1).max(100).default(10),
      pageIndex: z.number().int().min(1).default(1),
      condition: z
        .object({ status: z.union([z.literal(1), z.literal(3), z.literal(5), z.literal(10)]).optional() })
        .default({}),
    })
    .default({ pageSize: 10, pageIndex: 1, condition: {} }),
});

/** The /vueapi paths of this domain (merged into contract/paths.ts). */
export const invoicePaths = {
  /* Titles */
  "/sys/invoicetitles/h5queryInvoiceTitleList": {
    auth: "user",
    permission: "read",
    payload: pageRequestSchema,
    data: pageOf(invoiceTitleRowSchema),
  },
  "/sys/invoicetitles/h5insertInvoiceTitle": {
    auth: "user",
    permission: "pay",
    payload: invoiceTitleSchema,
    data: z.object({ titleId: z.number().int() }),
  },
  "/sys/invoicetitles/h5updateInvoiceTitle": {
    auth: "user",
    permission: "pay",
    payload: updateInvoiceTitleSchema,
    data: z.object({ titleId: z.number().int() }),
  },
  "/sys/invoicetitles/h5deleteInvoiceTitle": {
    auth: "user",
    permission: "pay",
    payload: idPayload("titleId"),
    data: nothing,
  },
  /* Receiving addresses */
  "/sys/system/clientInfo/queryClientAddresseeList": {
    auth: "user",
    permission: "read",
    payload: pageRequestSchema,
    data: pageOf(addresseeRowSchema),
  },
  "/sys/system/clientInfo/addOrUpdateClientAddressee": {
    auth: "user",
    permission: "pay",
    payload: addresseeSchema,
    data: z.object({ addresseeId: z.number().int() }),
  },
  "/sys/system/clientInfo/deleteClientAddressee": {
    auth: "user",
    permission: "pay",
    payload: idPayload("addresseeId"),
    data: nothing,
  },
  /* Applications */
  "/sys/system/invoiceAccountTrade/h5queryInvoiceableBills": {
    auth: "user",
    permission: "read",
    payload: z.object({}).passthrough(),
    data: z.object({ invoiceableCents: z.number().int(), bills: z.array(invoiceableBillSchema) }),
  },
  "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade": {
    auth: "user",
    permission: "pay",
    payload: invoiceApplicationSchema,
    data: z.object({ invoiceId: z.number().int(), applicationNo: z.string(), replayed: z.boolean() }),
  },
  "/sys/system/invoiceAccountTrade/h5queryInvoiceAccountTradeList": {
    auth: "user",
    permission: "read",
    payload: statusCondition,
    data: pageOf(invoiceSummarySchema).extend({ invoiceableCents: z.number().int() }),
  },
  "/sys/system/invoiceAccountTrade/h5invoiceAccountTradeDetail": {
    auth: "user",
    permission: "read",
    payload: idPayload("invoiceId"),
    data: invoiceDetailSchema,
  },
  /* Operators (docs/decisions/005, 008) */
  "/sys/operations/invoices/list": { auth: "operator", payload: statusCondition, data: pageOf(invoiceSummarySchema) },
  "/sys/operations/invoices/detail": { auth: "operator", payload: idPayload("invoiceId"), data: invoiceDetailSchema },
  "/sys/operations/invoices/approve": { auth: "operator", payload: approveInvoiceSchema, data: nothing },
  "/sys/operations/invoices/reject": { auth: "operator", payload: rejectInvoiceSchema, data: nothing },
  "/sys/operations/invoices/deliver": { auth: "operator", payload: deliverInvoiceSchema, data: nothing },
} satisfies Record<string, PathSpec>;
