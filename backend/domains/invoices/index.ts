import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { seedInvoiceDemo } from "./demo.ts";
import { invoicesWaiting } from "./figures.ts";
import {
  deleteAddressee,
  deleteTitle,
  insertTitle,
  listAddressees,
  listTitles,
  saveAddressee,
  updateTitle,
} from "./handlers/user-book.ts";
import {
  applyForInvoice,
  exportMyApplications,
  invoiceableBills,
  myApplication,
  myApplications,
} from "./handlers/user-applications.ts";
import {
  approveApplication,
  deliverApplication,
  operatorApplication,
  operatorApplications,
  rejectApplication,
} from "./handlers/operator.ts";

/** Invoice titles, receiving addresses and invoice applications (SPEC §3, §4, §9; contract/invoices.ts; docs/decisions/008). */
export default defineDomain({
  name: "invoices",
  handlers: handlersOf({
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
    "/sys/system/invoiceAccountTrade/h5invoiceExport": exportMyApplications,
    "/sys/operations/invoices/list": operatorApplications,
    "/sys/operations/invoices/detail": operatorApplication,
    "/sys/operations/invoices/approve": approveApplication,
    "/sys/operations/invoices/reject": rejectApplication,
    "/sys/operations/invoices/deliver": deliverApplication,
  }),
  api: { invoicesWaiting },
  seedDemo: seedInvoiceDemo,
});
