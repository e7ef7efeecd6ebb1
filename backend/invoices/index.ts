import type { Handlers } from "../http/router";
import type { JobHandler } from "../jobs/runner";
import {
  applyForInvoice,
  approveApplication,
  deliverApplication,
  invoiceableBills,
  myApplication,
  myApplications,
  operatorApplication,
  operatorApplications,
  rejectApplication,
} from "./applications";
import { deleteAddressee, deleteTitle, insertTitle, listAddressees, listTitles, saveAddressee, updateTitle } from "./book";

type H = Handlers[keyof Handlers];

/** The /vueapi handlers of this domain, by path (contract/invoices.ts). */
export const invoiceHandlers = {
  "/sys/invoicetitles/h5queryInvoiceTitleList": listTitles as H,
  "/sys/invoicetitles/h5insertInvoiceTitle": insertTitle as H,
  "/sys/invoicetitles/h5updateInvoiceTitle": updateTitle as H,
  "/sys/invoicetitles/h5deleteInvoiceTitle": deleteTitle as H,
  "/sys/system/clientInfo/queryClientAddresseeList": listAddressees as H,
  "/sys/system/clientInfo/addOrUpdateClientAddressee": saveAddressee as H,
  "/sys/system/clientInfo/deleteClientAddressee": deleteAddressee as H,
  "/sys/system/invoiceAccountTrade/h5queryInvoiceableBills": invoiceableBills as H,
  "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade": applyForInvoice as H,
  "/sys/system/invoiceAccountTrade/h5queryInvoiceAccountTradeList": myApplications as H,
  "/sys/system/invoiceAccountTrade/h5invoiceAccountTradeDetail": myApplication as H,
  "/sys/operations/invoices/list": operatorApplications as H,
  "/sys/operations/invoices/detail": operatorApplication as H,
  "/sys/operations/invoices/approve": approveApplication as H,
  "/sys/operations/invoices/reject": rejectApplication as H,
  "/sys/operations/invoices/deliver": deliverApplication as H,
} satisfies Partial<Handlers>;

/** The background jobs of this domain, by kind (none: every invoice step is a user's or an operator's). */
export const invoiceJobs: Record<string, JobHandler> = {};
