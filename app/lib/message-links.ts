import type { MessageRefKind } from "#contract/platform.ts";

/*
 * The Message center's links (issue 16): what a message is about (its typed reference, contract/platform.ts
 * MESSAGE_REF_KINDS) as the console page that shows it. Each page checks again that the reader may see it
 * (another user's id is a 404). A message without a reference (older ones, news) has no link.
 */
const PAGES: Record<MessageRefKind, (id: number) => string> = {
  bill: (id) => `/g/home/userCenter/BillDetail?billId=${id}`,
  service: (id) => `/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${id}`,
  joinRequest: (id) => `/g/home/ParticipationManagement/View?appJoinAuditId=${id}`,
  participation: (id) => `/g/home/ParticipatedServices/ServicesDetail?appId=${id}`,
  invoice: (id) => `/g/home/userCenter/Invoices/Detail?id=${id}`,
  product: (id) => `/g/home/AppStore/Product?id=${id}`,
  // An alert (issue 35 §1): the Alerts page, which shows it in its history beside what to do.
  alert: (id) => `/g/home/userCenter/Alerts?alertId=${id}`,
};

export function messageHref(ref: { kind: MessageRefKind; id: number } | null): string | null {
  return ref ? PAGES[ref.kind](ref.id) : null;
}
