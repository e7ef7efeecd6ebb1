import type { SearchHit } from "#contract/search.ts";
import type { SearchTarget } from "#contract/search-codes.ts";
import { messageHref } from "./message-links.ts";

/*
 * The pages the console's search results open (issue 35 §2, docs/decisions/086): each result's target as the
 * console page that shows it. Each page checks again that the reader may see it (another account's id is a 404).
 */
const enc = encodeURIComponent;
const PAGES: Record<SearchTarget, (id: string, name?: string, ref?: SearchHit["target"]["ref"]) => string> = {
  service: (id) => `/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${enc(id)}`,
  testService: (id) => `/g/home/TestServices/TestServicesDetail?id=${enc(id)}`,
  bill: (id) => `/g/home/userCenter/BillDetail?billId=${enc(id)}`,
  invoice: (id) => `/g/home/userCenter/Invoices/Detail?id=${enc(id)}`,
  payment: (id) => `/g/home/userCenter/MyAccount/Recharge/Return?paymentNo=${enc(id)}`,
  // Withdrawals have no page of their own: the account's page lists them.
  withdrawal: () => "/g/home/userCenter/MyAccount",
  project: (id) => `/g/home/PermissionlessServices/Project?projectId=${enc(id)}`,
  chainAccount: (id) => `/g/home/PermissionlessServices/Account?accountId=${enc(id)}`,
  contract: (id) => `/g/home/PermissionlessServices/Contract?contractId=${enc(id)}`,
  transaction: (id) => `/g/home/PermissionlessServices/Transaction?hash=${enc(id)}`,
  ddc: (id) => `/g/home/DDC/Detail?ddcId=${enc(id)}`,
  ipfsService: (id, name) =>
    `/g/home/IPFS/Service?ipfsServiceId=${enc(id)}${name ? `&name=${enc(name.slice(0, 50))}` : ""}`,
  did: (id) => `/g/home/DID/Detail?didId=${enc(id)}`,
  credential: (id) => `/g/home/DID/Credential?credentialId=${enc(id)}`,
  ticket: (id) => `/g/home/DeveloperCommunity/TechnicalSupportDetail?ticketId=${enc(id)}`,
  // A message opens what it is about, as its link in the Message center does; news opens the Message center.
  message: (_id, _name, ref) => (ref ? messageHref(ref) : null) ?? "/g/home/userCenter/MessageCenter",
  manual: (id) => `/g/main/documentation?page=${enc(id)}`,
};

export function searchHref(target: SearchHit["target"]): string {
  return PAGES[target.page](String(target.id), target.name, target.ref);
}
