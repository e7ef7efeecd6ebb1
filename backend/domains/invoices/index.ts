import { handlersOf } from "../../http/router";
import type { JobHandler } from "../../jobs/runner";
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

/** The /vueapi handlers of this domain, by path (contract/invoices.ts). */
export const invoiceHandlers = handlersOf({
  "/sys/invoicetitles/h5queryInvoiceTitleList": listTitles,
  "/sys/invoicetitles/h5insertInvoiceTitle": insertTitle,
  "/sys/invoicetitles/h5updateInvoiceTitle": updateTitle,
  "/sys/invoicetitles/h5deleteInvoiceTitle": deleteTitle,
  "/sys/system/clientInfo/queryClientAddresseeList": listAddressees,
  "/sys/system/clientInfo/addOrUpdateClientAddressee": saveAddressee,
  "/sys/system/clientInfo/deleteClientAddressee": deleteAddressee,
  "/sys/system/invoiceAccountTrade/h5queryInvoiceableBills": invoiceableBills,
  "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade": applyForInvoice,
  "/sys/system/invoiceAccountTrade/h5queryInvoiceAccountTradeList": myApplications,
  "/sys/system/invoiceAccountTrade/h5invoiceAccountTradeDetail": myApplication,
  "/sys/operations/invoices/list": operatorApplications,
  "/sys/operations/invoices/detail": operatorApplication,
  "/sys/operations/invoices/approve": approveApplication,
  "/sys/operations/invoices/reject": rejectApplication,
  "/sys/operations/invoices/deliver": deliverApplication,
});

/** The background jobs of this domain, by kind (none: every invoice step is a user's or an operator's). */
export const invoiceJobs: Record<string, JobHandler> = {};
