/*
 * Where each list that shows money or usage exports its CSV (issue 35 §3, docs/decisions/093 "List exports"):
 * the page's own filters ride along as query parameters, so the "Export CSV" link is a plain link (no JavaScript)
 * that downloads exactly what the page lists.
 */

type Query = Record<string, string | number | null | undefined>;

/** A path with the filters that are set (empty, null and undefined ones are left out). */
export function withQuery(path: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export const transactionsCsvHref = (filter: Query) =>
  withQuery("/g/home/userCenter/MyAccount/transactions.csv", filter);
export const invoicesCsvHref = (status: number | null) =>
  withQuery("/g/home/userCenter/Invoices/export.csv", { status });
export const ipfsTrafficCsvHref = (ipfsServiceId: number) =>
  withQuery("/g/home/IPFS/Traffic/export.csv", { ipfsServiceId });
export const rpcUsageCsvHref = (projectId: number, range: string) =>
  withQuery("/g/home/PermissionlessServices/Project/export.csv", { projectId, range });
export const chainAccountsCsvHref = (projectId: number) =>
  withQuery("/g/home/PermissionlessServices/Accounts/export.csv", { projectId });
